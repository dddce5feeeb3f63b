/**
 * A scan's "sending began" no longer waits for the disk (it would sit between the service's answer
 * and the printer): it survives the station's process dying, not the computer losing power. So a
 * scan left unfinished by a process of an earlier boot of the computer is uncertain, while one left
 * by a process killed in this boot is plainly not sent. The station is killed with SIGKILL while its
 * scan's label GET is under way (the sandbox holds every answer); each copy of its data folder is
 * then opened as the next start of the station in the same boot, or after the computer restarted.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootMark } from '../../../src/main/boot-identity';
import { composeStation, type Station } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';
import type { JournalEntryData, PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { memoryKeyStore } from '../../support/station';
import { killStationChildAt, oneScanConfig } from './kill-child-at';
import { startTestSandbox, startZebra, stationOrders, type TodaysOrder } from '../printing-queue/support';

const bootOfTheScan: BootMark = { bootId: 'boot-of-the-scan', bootedAtMs: Date.parse('2026-11-24T05:00:00Z') };
const nextBoot: BootMark = { bootId: 'boot-after-the-power-cut', bootedAtMs: Date.parse('2026-11-24T06:30:00Z') };

describe('a scan cut off while its label was being fetched', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let port: number;
  let order: TodaysOrder;
  let killedDir: string;
  const dirs: string[] = [];

  const copyOfKilled = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'station-power-'));
    dirs.push(dir);
    cpSync(killedDir, dir, { recursive: true });
    return dir;
  };

  const openAgain = (dataDir: string, boot: BootMark): Promise<Station> =>
    composeStation({
      dataDir,
      host: 'web',
      version: '0.0.0-test',
      logger: createLogger(() => undefined, { level: 'error' }),
      keyStore: memoryKeyStore({ test: { key: sandbox.environments.test.companies[0]?.apiKey ?? '', address: sandbox.environments.test.baseUrl } }),
      printing: { boot },
    });

  const call = async <T>(station: Station, name: string, input: unknown): Promise<T> => {
    const result = await station.dispatcher.dispatch(name, input, { host: 'web' });
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value as T;
  };

  beforeAll(async () => {
    // Every answer takes 30 s: the scan's GET is still under way when the station is killed.
    sandbox = await startTestSandbox({ orders: 200, faults: { latencyMs: 30_000 } });
    ({ zebra, port } = await startZebra());
    const [first] = await stationOrders(sandbox);
    if (!first) throw new Error('the sandbox has no orders for today');
    order = first;
    killedDir = mkdtempSync(join(tmpdir(), 'station-killed-'));
    dirs.push(killedDir);

    const config = { ...oneScanConfig(sandbox, killedDir, port, order), boot: bootOfTheScan };
    await killStationChildAt(config, 'scan-run ', "the scan's run in the child's journal");
  }, 60_000);

  afterAll(async () => {
    await zebra?.stop();
    await sandbox?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const labelOf = async (station: Station): Promise<JournalEntryData> => {
    const { entries } = await call<{ entries: JournalEntryData[] }>(station, 'printing.journal', { orderId: order.orderId });
    expect(entries).toHaveLength(1);
    return entries[0] as JournalEntryData;
  };

  it('killed in this boot of the computer: the label is plainly not sent (the printer has none)', async () => {
    const station = await openAgain(copyOfKilled(), bootOfTheScan);
    try {
      expect(await labelOf(station)).toMatchObject({ state: 'failed', reason: expect.stringMatching(/^Not sent: the station stopped/) });
      expect(zebra.printed()).toHaveLength(0);
    } finally {
      await station.close();
    }
  });

  it('after the computer restarted: the label is uncertain, says why, and the next scan asks before printing (the printer has none)', async () => {
    const station = await openAgain(copyOfKilled(), nextBoot);
    try {
      expect(await labelOf(station)).toMatchObject({ state: 'uncertain', reason: expect.stringMatching(/computer shut down while this label was being fetched or sent/) });
      const again = await call<PrintOutcomeData>(station, 'printing.print', { scan: order.orderRef });
      expect(again).toMatchObject({ outcome: 'duplicate', previous: { state: 'uncertain' } });
      expect(zebra.printed()).toHaveLength(0);
    } finally {
      await station.close();
    }
  });
});
