/**
 * Printer discovery over real UDP on loopback: a virtual Zebra answering Zebra's discovery on a
 * port of its own, found by the station (name, model, resolution, address), added through the
 * usual add with its identity check, and then shown as added; the CLI's `printers discover`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeStation, type Station } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';
import { discoverNetworkZebras } from '../../../src/main/printing/discovery/network-discovery';
import { parseSubnet } from '../../../src/main/printing/discovery/subnets';
import { VirtualZebra } from '../../../src/sandbox/printer/virtual-zebra';
import { runCliIn } from '../../support/cli';
import { memoryKeyStore } from '../../support/station';
import type { CallName, CallOutput } from '../../../src/shared/contract';

let zebra: VirtualZebra;
let discoveryPort: number;
beforeEach(async () => {
  zebra = new VirtualZebra({ name: 'ZBR-BENCH-7', dpi: 300, printWidthDots: 1248, serial: 'D8J224599999' });
  await zebra.start({ host: '127.0.0.1', port: 0 });
  discoveryPort = await zebra.answerDiscovery({ host: '127.0.0.1', port: 0 });
});
afterEach(async () => {
  await zebra.stop();
});

describe('finding network Zebras', () => {
  it('the virtual Zebra answers and is found with its name, model, firmware, resolution and raw port', async () => {
    const found = await discoverNetworkZebras({ subnets: [parseSubnet('127.0.0.1/32')], port: discoveryPort, timeoutMs: 1000 });
    expect(found).toEqual([
      { discoveryVersion: 4, systemName: 'ZBR-BENCH-7', model: 'ZD421-300dpi', firmware: 'V84.20.18Z', serialNumber: 'D8J224599999', address: '127.0.0.1', port: zebra.boundPort, dpi: 300, printWidthDots: 1248 },
    ]);
  });

  it('an answer from outside the network asked is ignored', async () => {
    // Listening on every address: asked at 127.0.0.2, it answers from 127.0.0.1 (outside 127.0.0.2/32).
    const everywhere = new VirtualZebra({ name: 'ZBR-ELSEWHERE' });
    await everywhere.start({ host: '127.0.0.1', port: 0 });
    const port = await everywhere.answerDiscovery({ host: '0.0.0.0', port: 0 });
    try {
      expect(await discoverNetworkZebras({ subnets: [parseSubnet('127.0.0.2/32')], port, timeoutMs: 600 })).toEqual([]);
      expect(everywhere.discoveryRequestsAnswered).toBeGreaterThan(0);
    } finally {
      await everywhere.stop();
    }
  });

  it('is bounded in time: it ends when the time is up, found or not', async () => {
    const started = Date.now();
    await discoverNetworkZebras({ subnets: [parseSubnet('127.0.0.1/32')], port: 9, timeoutMs: 700 });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('printers.discover and add', () => {
  let dataDir: string;
  let station: Station;
  const call = async <K extends CallName>(name: K, input: unknown): Promise<CallOutput<K>> => {
    const result = await station.dispatcher.dispatch(name, input, { host: 'web' });
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value as CallOutput<K>;
  };
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'station-discover-'));
    station = await composeStation({ dataDir, host: 'web', version: 'test', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });
    station.settings.setEnvironment('test');
  });
  afterEach(async () => {
    await station.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the Zebra, adds it with one add (its identity checked), and says it is added on the next search', async () => {
    const first = await call('printers.discover', { subnet: '127.0.0.1/32', port: discoveryPort, timeoutMs: 1000 });
    expect(first.subnets).toEqual(['127.0.0.1/32']);
    const printer = first.printers.find((candidate) => candidate.kind === 'network-zebra');
    expect(printer).toMatchObject({ name: 'ZBR-BENCH-7', model: 'ZD421-300dpi', dpi: 300, host: '127.0.0.1', port: zebra.boundPort, addedAs: null });
    if (printer?.kind !== 'network-zebra') throw new Error('no Zebra found');
    const added = await call('printers.add', { name: printer.name, address: { kind: 'network-zebra', host: printer.host, port: printer.port } });
    expect(added.check).toMatchObject({ checked: true, dpi: 300, serialNumber: 'D8J224599999' });
    const again = await call('printers.discover', { subnet: '127.0.0.1/32', port: discoveryPort, timeoutMs: 1000 });
    expect(again.printers.find((candidate) => candidate.kind === 'network-zebra')?.addedAs).toBe(added.printer.id);
  });

  it('refuses a network wider than a /16 before sending anything', async () => {
    const result = await station.dispatcher.dispatch('printers.discover', { subnet: '10.0.0.0/8' }, { host: 'web' });
    expect(result.ok ? null : result.error).toMatchObject({ code: 'INVALID_INPUT', facts: { subject: 'subnet-too-wide' } });
    expect(zebra.stats().formatsReceived).toBe(0);
  });

  it('the CLI: printers discover --json', async () => {
    await station.close();
    const outcome = await runCliIn(dataDir, { keyStore: memoryKeyStore() }, ['printers', 'discover', '--subnet', '127.0.0.1/32', '--port', String(discoveryPort), '--timeout', '1', '--json']);
    expect(outcome.code, outcome.stderr).toBe(0);
    const result = JSON.parse(outcome.stdout) as { printers: { kind: string; name: string; host: string }[] };
    expect(result.printers.filter((printer) => printer.kind === 'network-zebra')).toMatchObject([{ name: 'ZBR-BENCH-7', host: '127.0.0.1' }]);
    station = await composeStation({ dataDir, host: 'web', version: 'test', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });
  });
});
