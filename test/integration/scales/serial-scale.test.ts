/**
 * The bench's scale over a real serial line: a virtual scale on one end of a pseudo-terminal pair
 * (socat), the station's scale service on the other, through the serialport package as with a
 * USB serial adapter. MT-SICS (asked SI) and Toledo continuous (talking by itself).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScaleReadingData, ScaleSetting } from '../../../src/shared/contract/scales';
import { createLogger } from '../../../src/main/logging/logger';
import { createScaleService, type ScaleService } from '../../../src/main/scales/scale-service';
import { VirtualScale } from '../../../src/sandbox/scale/virtual-scale';
import { openPtyPair, type PtyPair } from '../../support/pty-pair';
import { waitUntil } from '../../support/wait-until';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function bench(protocol: 'mt-sics' | 'toledo-continuous', checksum = false): Promise<{ pty: PtyPair; scale: VirtualScale; service: ScaleService; seen: ScaleReadingData[] }> {
  const pty = await openPtyPair();
  cleanups.push(() => pty.close());
  const scale = new VirtualScale({ path: pty.device, protocol, checksum, intervalMs: 50 });
  await scale.start();
  cleanups.push(() => scale.stop());
  let saved: ScaleSetting | null = null;
  const seen: ScaleReadingData[] = [];
  const service = createScaleService({
    setting: () => saved,
    saveSetting: (setting) => (saved = setting),
    emit: (reading) => seen.push(reading),
    logger: createLogger(() => undefined),
    stable: { windowMs: 300, toleranceGrams: 2 },
    serialTiming: { pollMs: 50, answerTimeoutMs: 600, silenceMs: 600 },
    reconnectMs: 200,
  });
  cleanups.push(() => service.close());
  await service.set({ kind: 'serial', path: pty.station, protocol, baudRate: 9600, dataBits: 8, parity: 'none', checksum });
  return { pty, scale, service, seen };
}

describe.each(['mt-sics', 'toledo-continuous'] as const)('a %s scale on a serial line', (protocol) => {
  it('a parcel set down moves, then gives one stable weight in grams', async () => {
    const { scale, service, seen } = await bench(protocol);
    scale.place(1250, 400);
    const stable = await service.waitForStable(5000);
    expect(stable).toMatchObject({ state: 'stable', grams: 1250, zero: false });
    expect(seen.some((reading) => reading.state === 'settling' && reading.grams === 1250)).toBe(true);
    // Taken off: zero, shown as zero.
    scale.place(0, 0);
    await waitUntil(() => service.current().state === 'stable' && (service.current() as { zero: boolean }).zero, 'a stable zero');
  });

  it('overload and a negative load are said, and no weight is given for them', async () => {
    const { scale, service } = await bench(protocol);
    scale.set('overload');
    await waitUntil(() => service.current().state === 'condition' && (service.current() as { condition: string }).condition === 'overload', 'overload');
    await expect(service.waitForStable(400)).rejects.toMatchObject({ code: 'SCALE_NO_WEIGHT', facts: { condition: 'overload' } });
    scale.set('negative');
    await waitUntil(() => service.current().state === 'condition' && (service.current() as { condition: string }).condition === 'negative', 'negative');
  });

  it('a scale that stops talking is disconnected, and is read again when it is back', async () => {
    const { scale, service } = await bench(protocol);
    scale.place(800, 0);
    await service.waitForStable(5000);
    scale.set('off');
    await waitUntil(() => service.current().state === 'condition' && (service.current() as { condition: string }).condition === 'disconnected', 'disconnected');
    scale.place(820, 0);
    await waitUntil(() => service.current().state === 'stable' && (service.current() as { grams: number }).grams === 820, 'the weight again after reconnecting');
  });
});

it('Toledo continuous with checksums: frames whose checksum adds up are read', async () => {
  const { scale, service } = await bench('toledo-continuous', true);
  scale.place(2300, 0);
  await expect(service.waitForStable(5000)).resolves.toMatchObject({ grams: 2300 });
});

it('MT-SICS: the station asks SI, closed by CR LF', async () => {
  const { scale, service } = await bench('mt-sics');
  scale.place(100, 0);
  await service.waitForStable(5000);
  expect(scale.received.slice(0, 3)).toEqual(['SI', 'SI', 'SI']);
});
