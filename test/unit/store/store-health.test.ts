/**
 * The shared store's health on an injected clock and timer: a failed call takes it offline at
 * once, the probe asks again each interval until the store answers, and printing is refused with
 * STORE_OFFLINE (and when since) only while it is offline.
 */
import { describe, expect, it } from 'vitest';
import type { StoreHealthData } from '../../../src/shared/contract/store';
import { StationError } from '../../../src/shared/errors';
import { sharedStoreHealth, type HealthTimers } from '../../../src/main/store/store-health';

/** Timers that run only when the test says so. */
function manualTimers() {
  let due: { run: () => void; ms: number } | null = null;
  const timers: HealthTimers = {
    setTimeout: (run, ms) => {
      due = { run, ms };
      return due;
    },
    clearTimeout: (handle) => {
      if (due === handle) due = null;
    },
  };
  return {
    timers,
    pending: () => due?.ms ?? null,
    /** Fires the pending timer and lets the probe it started settle. */
    async fire() {
      const next = due;
      due = null;
      if (!next) throw new Error('no timer pending');
      next.run();
      for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
    },
  };
}

const unreachable = () => new StationError('STORE_UNAVAILABLE', 'The store cannot be reached: connect ECONNREFUSED');

describe('shared store health', () => {
  it('goes offline on a failed call, probes every interval until the store answers, then runs what waited', async () => {
    const clock = { now: new Date('2026-11-24T06:00:00.000Z') };
    const manual = manualTimers();
    let answers = true;
    let probes = 0;
    const health = sharedStoreHealth({
      probe: async () => {
        probes += 1;
        if (!answers) throw unreachable();
      },
      heartbeat: async () => {
        if (!answers) throw unreachable();
      },
      problemOf: () => 'unreachable',
      onWorkFailed: (error) => {
        throw error;
      },
      timers: manual.timers,
      clock: () => clock.now,
      probeIntervalMs: 3_000,
      heartbeatIntervalMs: 5_000,
    });
    const heard: StoreHealthData[] = [];
    health.onChange((state) => heard.push(state));
    await health.start();
    expect(health.current()).toEqual({ state: 'online', since: '2026-11-24T06:00:00.000Z', problem: null, localPrinting: null });
    expect(manual.pending()).toBe(5_000);

    answers = false;
    clock.now = new Date('2026-11-24T06:28:00.000Z');
    health.report(unreachable());
    expect(health.current()).toEqual({ state: 'offline', since: '2026-11-24T06:28:00.000Z', problem: 'unreachable', localPrinting: null });
    expect(manual.pending()).toBe(3_000);

    let ranWhenBack = 0;
    health.whenOnline(async () => {
      ranWhenBack += 1;
    });
    const probesBefore = probes;
    await manual.fire();
    await manual.fire();
    expect(probes - probesBefore).toBe(2);
    expect(health.current().state).toBe('offline');
    expect(ranWhenBack).toBe(0);

    answers = true;
    clock.now = new Date('2026-11-24T06:31:00.000Z');
    await manual.fire();
    expect(health.current()).toEqual({ state: 'online', since: '2026-11-24T06:31:00.000Z', problem: null, localPrinting: null });
    expect(ranWhenBack).toBe(1);
    expect(heard.map((state) => state.state)).toEqual(['online', 'offline', 'online']);
    expect(manual.pending()).toBe(5_000);
    health.close();
    expect(manual.pending()).toBeNull();
  });

  it('an idle bench learns it from the heartbeat; a statement error is not a lost store', async () => {
    const manual = manualTimers();
    let answers = true;
    const health = sharedStoreHealth({
      probe: async () => undefined,
      heartbeat: async () => {
        if (!answers) throw unreachable();
      },
      problemOf: () => 'unreachable',
      onWorkFailed: () => undefined,
      timers: manual.timers,
    });
    await health.start();
    health.report(new StationError('STORE_CONFLICT', 'taken'));
    health.report(new Error('syntax error at or near'));
    expect(health.current().state).toBe('online');
    answers = false;
    await manual.fire();
    expect(health.current()).toMatchObject({ state: 'offline', problem: 'unreachable' });
    health.close();
  });
});
