/**
 * The floor reporter on a clock of the test's own: a burst of changes is one write, a stream of
 * changes is written at a bounded rate and never put off for ever, a quiet bench sends heartbeats,
 * and while the store is away the writes are tried again one at a time at a pause that grows to a
 * second, the first one that gets through carrying the newest state.
 */
import { describe, expect, it } from 'vitest';
import type { BenchReportData } from '../../../src/shared/contract/floor';
import { FloorReporter, type ReporterTimers } from '../../../src/main/floor/floor-reporter';
import { createLogger } from '../../../src/main/logging/logger';
import { benchReport } from '../../support/floor-reports';

function manualTimers(): ReporterTimers & { advance(ms: number): Promise<void> } {
  let now = 0;
  let nextId = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  const settle = async () => {
    for (let round = 0; round < 20; round++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return {
    now: () => now,
    after(ms, run) {
      const id = nextId++;
      due.set(id, { at: now + ms, run });
      return () => due.delete(id);
    },
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        await settle();
        const next = [...due.entries()].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!next) break;
        due.delete(next[0]);
        now = next[1].at;
        next[1].run();
      }
      now = until;
      await settle();
    },
  };
}

const report = (labelsToday: number, stoppedAt: string | null = null): BenchReportData => benchReport('bench-1', { labelsToday, stoppedAt });

interface Written {
  at: number;
  labelsToday: number;
  changed: boolean;
  stoppedAt: string | null;
}

function reporterOn(timers: ReturnType<typeof manualTimers>, state: { labels: number; storeAway: boolean }) {
  const written: Written[] = [];
  const attempts: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const reporter = new FloorReporter({
    build: async (stoppedAt) => report(state.labels, stoppedAt),
    write: async (built, _at, changed) => {
      attempts.push(timers.now());
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await Promise.resolve();
      inFlight -= 1;
      if (state.storeAway) throw new Error('The store cannot be reached');
      written.push({ at: timers.now(), labelsToday: built.labelsToday, changed, stoppedAt: built.stoppedAt });
    },
    timers,
    timing: { settleMs: 50, minGapMs: 250, heartbeatMs: 10_000, retryMs: 250, maxRetryMs: 1_000 },
    logger: createLogger(() => undefined),
  });
  return { reporter, written, attempts, mostInFlight: () => mostInFlight };
}

describe('the floor reporter', () => {
  it('writes a burst of changes once, after the settle time', async () => {
    const timers = manualTimers();
    const state = { labels: 0, storeAway: false };
    const { reporter, written } = reporterOn(timers, state);
    reporter.start();
    await timers.advance(1_000);
    expect(written).toEqual([{ at: 0, labelsToday: 0, changed: true, stoppedAt: null }]);
    for (let label = 1; label <= 5; label++) {
      state.labels = label;
      reporter.changed();
      await timers.advance(5);
    }
    await timers.advance(1_000);
    expect(written.slice(1)).toEqual([{ at: 1_050, labelsToday: 5, changed: true, stoppedAt: null }]);
  });

  it('under a change every 10 ms writes at most once per 250 ms, and never puts the write off', async () => {
    const timers = manualTimers();
    const state = { labels: 0, storeAway: false };
    const { reporter, written } = reporterOn(timers, state);
    reporter.start();
    await timers.advance(0);
    for (let tick = 1; tick <= 200; tick++) {
      state.labels = tick;
      reporter.changed();
      await timers.advance(10);
    }
    const gaps = written.slice(1).map((write, index) => write.at - (written[index]?.at ?? 0));
    expect(written.length).toBeGreaterThanOrEqual(7);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(250);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(300);
  });

  it('sends a heartbeat every 10 s when nothing changes, saying it changed nothing', async () => {
    const timers = manualTimers();
    const { reporter, written } = reporterOn(timers, { labels: 3, storeAway: false });
    reporter.start();
    await timers.advance(30_500);
    expect(written.map((write) => [write.at, write.changed])).toEqual([
      [0, true],
      [10_000, false],
      [20_000, false],
      [30_000, false],
    ]);
  });

  it('while the store is away tries again one write at a time, at 250 ms growing to 1 s, and writes the newest state once it is back', async () => {
    const timers = manualTimers();
    const state = { labels: 0, storeAway: false };
    const { reporter, written, attempts, mostInFlight } = reporterOn(timers, state);
    reporter.start();
    await timers.advance(100);
    state.storeAway = true;
    state.labels = 1;
    reporter.changed();
    await timers.advance(3_000);
    // Changes meanwhile add no writes of their own.
    for (let label = 2; label <= 40; label++) {
      state.labels = label;
      reporter.changed();
    }
    await timers.advance(2_000);
    // The first try waits out the least gap after the write at 0; each failure doubles the pause up to 1 s.
    expect(attempts.slice(1)).toEqual([250, 500, 1_000, 2_000, 3_000, 4_000, 5_000]);
    expect(reporter.failedWrites).toBe(7);
    state.storeAway = false;
    reporter.storeBack();
    await timers.advance(10);
    expect(written.at(-1)).toEqual({ at: 5_100, labelsToday: 40, changed: true, stoppedAt: null });
    expect(mostInFlight()).toBe(1);
    expect(reporter.failedWrites).toBe(0);
  });

  it('says it closed with a last report', async () => {
    const timers = manualTimers();
    const { reporter, written } = reporterOn(timers, { labels: 2, storeAway: false });
    reporter.start();
    await timers.advance(100);
    const stopping = reporter.stop();
    await timers.advance(10);
    await stopping;
    expect(written.at(-1)).toMatchObject({ labelsToday: 2, stoppedAt: '1970-01-01T00:00:00.100Z' });
    reporter.changed();
    await timers.advance(20_000);
    expect(written).toHaveLength(2);
  });
});
