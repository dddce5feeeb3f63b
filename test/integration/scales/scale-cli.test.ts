/**
 * `scale read` as a user types it, against a virtual scale on a pseudo-terminal pair: a stable
 * weight as JSON, and a scale that only moves or is overloaded said as not stable (exit 1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { VirtualScale } from '../../../src/sandbox/scale/virtual-scale';
import { runCliIn } from '../../support/cli';
import { openPtyPair, type PtyPair } from '../../support/pty-pair';
import { memoryKeyStore } from '../../support/station';

let dataDir: string;
let pty: PtyPair;
let scale: VirtualScale;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'station-scale-cli-'));
  pty = await openPtyPair();
});
afterEach(async () => {
  await scale?.stop();
  await pty.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const cli = (...argv: string[]) => runCliIn(dataDir, { keyStore: memoryKeyStore() }, argv);

it('scale read --device --json prints the stable weight in grams', async () => {
  scale = new VirtualScale({ path: pty.device, protocol: 'mt-sics' });
  await scale.start();
  scale.place(1875, 300);
  const outcome = await cli('scale', 'read', '--device', pty.station, '--protocol', 'mt-sics', '--json');
  expect(outcome.code, outcome.stderr).toBe(0);
  expect(JSON.parse(outcome.stdout)).toEqual({ grams: 1875, stable: true });
});

it('a Toledo continuous scale that keeps moving gives no stable weight: stable false, exit 1', async () => {
  scale = new VirtualScale({ path: pty.device, protocol: 'toledo-continuous', intervalMs: 50 });
  await scale.start();
  scale.place(640, 60_000);
  const outcome = await cli('scale', 'read', '--device', pty.station, '--protocol', 'toledo-continuous', '--timeout', '2', '--json');
  expect(outcome.code).toBe(1);
  expect(JSON.parse(outcome.stdout)).toEqual({ grams: 640, stable: false, condition: 'motion' });
  expect(outcome.stderr).toContain('SCALE_NO_WEIGHT');
});

it('the scale set up for the bench is read without --device; an overloaded one says so', async () => {
  scale = new VirtualScale({ path: pty.device, protocol: 'mt-sics' });
  await scale.start();
  scale.set('overload');
  // Setup's choice, stored in the bench's own settings.
  const { composeStation } = await import('../../../src/main/composition');
  const { createLogger } = await import('../../../src/main/logging/logger');
  const station = await composeStation({ dataDir, host: 'web', version: 'test', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });
  station.settings.setScale({ kind: 'serial', path: pty.station, protocol: 'mt-sics', baudRate: 9600, dataBits: 8, parity: 'none', checksum: false });
  await station.close();
  const outcome = await cli('scale', 'read', '--timeout', '2', '--json');
  expect(outcome.code).toBe(1);
  expect(JSON.parse(outcome.stdout)).toEqual({ grams: null, stable: false, condition: 'overload' });
});

it('without a scale set up, scale read says so', async () => {
  const outcome = await cli('scale', 'read', '--timeout', '1');
  expect(outcome.code).toBe(1);
  expect(outcome.stderr).toContain('SCALE_NOT_CONFIGURED');
});
