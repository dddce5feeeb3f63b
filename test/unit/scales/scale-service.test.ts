/**
 * The scale service with a scripted device (the serial and HID ends are tested on a real pty in
 * test/integration/scales): what reaches the screen, a device that cannot be opened, one that goes
 * away and comes back, and the wait for a stable weight. Time is injected for the stable window.
 */
import { describe, expect, it } from 'vitest';
import type { ScaleReadingData, ScaleSetting } from '../../../src/shared/contract/scales';
import { createLogger } from '../../../src/main/logging/logger';
import { createScaleService, type ScaleOpener } from '../../../src/main/scales/scale-service';
import type { ScaleListener } from '../../../src/main/scales/scale-connection';
import { waitUntil } from '../../support/wait-until';

const serial: ScaleSetting = { kind: 'serial', path: '/dev/ttyUSB0', protocol: 'mt-sics', baudRate: 9600, dataBits: 8, parity: 'none', checksum: false };
const steady = (grams: number) => ({ kind: 'weight' as const, grams, steady: true, net: false, tareGrams: null });

function bench(open: ScaleOpener) {
  let now = 0;
  let saved: ScaleSetting | null = null;
  const seen: ScaleReadingData[] = [];
  const service = createScaleService({
    setting: () => saved,
    saveSetting: (setting) => (saved = setting),
    emit: (reading) => seen.push(reading),
    logger: createLogger(() => undefined),
    now: () => now,
    open,
    stable: { windowMs: 500, toleranceGrams: 2 },
    reconnectMs: 20,
  });
  return { service, seen, tick: (ms: number) => (now += ms) };
}

describe('the scale service', () => {
  it('pushes a reading only when what the screen shows changes, and is stable after the window', async () => {
    let device: ScaleListener | null = null;
    const { service, seen, tick } = bench(async (_setting, listener) => {
      device = listener;
      return { close: async () => undefined };
    });
    await service.set(serial);
    device!.sample(steady(1200));
    tick(250);
    device!.sample(steady(1200));
    tick(250);
    device!.sample(steady(1201));
    device!.sample(steady(1201));
    // The second 1200 shows the same as the first, the second 1201 the same stable weight: not pushed again.
    expect(seen.map((reading) => [reading.state, 'grams' in reading ? reading.grams : null])).toEqual([
      ['settling', 1200],
      ['stable', 1201],
    ]);
    expect(service.current()).toMatchObject({ state: 'stable', grams: 1201 });
    await service.close();
  });

  it('a device that cannot be opened is disconnected, and is tried again until it opens', async () => {
    let attempts = 0;
    const { service } = bench(async () => {
      attempts += 1;
      if (attempts < 3) throw new Error('ENOENT: no such file /dev/ttyUSB0');
      return { close: async () => undefined };
    });
    await service.set(serial);
    expect(service.current()).toMatchObject({ state: 'condition', condition: 'disconnected', detail: 'ENOENT: no such file /dev/ttyUSB0' });
    await waitUntil(() => attempts >= 3, 'the third attempt');
    await service.close();
  });

  it('waitForStable answers SCALE_NOT_CONFIGURED without a scale, and SCALE_NO_WEIGHT with what it showed', async () => {
    let device: ScaleListener | null = null;
    const { service } = bench(async (_setting, listener) => {
      device = listener;
      return { close: async () => undefined };
    });
    await expect(service.waitForStable(50)).rejects.toMatchObject({ code: 'SCALE_NOT_CONFIGURED' });
    await service.set(serial);
    device!.sample({ kind: 'condition', condition: 'overload', detail: 'S +' });
    await expect(service.waitForStable(50)).rejects.toMatchObject({ code: 'SCALE_NO_WEIGHT', facts: { condition: 'overload', detail: 'S +' } });
    await service.close();
  });

  it('setting no scale closes the device and shows none', async () => {
    let closed = false;
    const { service } = bench(async () => ({ close: async () => void (closed = true) }));
    await service.set(serial);
    await service.set(null);
    expect(closed).toBe(true);
    expect(service.current()).toEqual({ state: 'none' });
    expect(service.setting()).toBeNull();
  });
});
