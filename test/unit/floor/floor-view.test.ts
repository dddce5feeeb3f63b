/**
 * The floor as one bench follows it, on a clock of the test's own: reports heard by notification
 * replace older ones only (a late message never undoes a newer report), a heartbeat keeps a
 * bench answering, a bench silent for the stated time reads "not answering since" its last word
 * and answers again when heard, and after a lost connection the rows are read again.
 */
import { describe, expect, it } from 'vitest';
import type { FloorBenchData } from '../../../src/shared/contract/floor';
import type { FloorStore, StoredReport } from '../../../src/main/floor/floor-store';
import type { FloorTimers } from '../../../src/main/floor/floor-timers';
import { FloorView } from '../../../src/main/floor/floor-view';
import { benchReport as report } from '../../support/floor-reports';
import { createLogger } from '../../../src/main/logging/logger';
import type { SubscriptionHandlers } from '../../../src/main/store/engine/store-engine';

const start = Date.parse('2026-05-04T10:42:00.000Z');

function setUp(rows: StoredReport[] = []) {
  let now = start;
  const ticks: (() => void)[] = [];
  const timers: Pick<FloorTimers, 'now' | 'every'> = {
    now: () => now,
    every: (_ms: number, tick: () => void) => {
      ticks.push(tick);
      return () => ticks.splice(ticks.indexOf(tick), 1);
    },
  };
  let handlers: SubscriptionHandlers | null = null;
  const table = new Map(rows.map((row) => [row.report.benchId, row]));
  const store = {
    followReports: async (given: SubscriptionHandlers) => {
      handlers = given;
      return { close: async () => undefined };
    },
    reports: async () => [...table.values()],
    report: async (bench: string) => table.get(bench) ?? null,
  } as unknown as FloorStore;
  const emitted: FloorBenchData[] = [];
  const view = new FloorView({ store, selfId: 'a', silentAfterMs: 30_000, timers, emit: (bench) => emitted.push(bench), logger: createLogger(() => undefined) });
  const send = (message: object) => handlers?.onMessage(JSON.stringify(message));
  const at = (ms: number) => {
    now = start + ms;
    for (const tick of [...ticks]) tick();
  };
  const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
  return { view, send, at, emitted, table, gap: () => handlers?.onGap?.(), flush };
}

describe('the floor as a bench follows it', () => {
  it('reads the benches there are, then keeps each newest report it hears', async () => {
    const { view, send, emitted } = setUp([{ report: report('a'), sequence: 4, reportedAt: '2026-05-04T10:41:59.000Z' }]);
    await view.follow();
    expect((await view.list()).benches).toEqual([expect.objectContaining({ benchId: 'a', self: true, answering: 'yes' })]);
    send({ bench: 'b', sequence: 2, reportedAt: '2026-05-04T10:42:00.000Z', report: report('b', { labelsToday: 7 }) });
    send({ bench: 'b', sequence: 1, reportedAt: '2026-05-04T10:41:50.000Z', report: report('b', { labelsToday: 6 }) });
    expect(view.bench('b')).toMatchObject({ labelsToday: 7, self: false });
    expect(emitted.map((bench) => [bench.benchId, bench.labelsToday])).toEqual([
      ['a', 0],
      ['b', 7],
    ]);
  });

  it('turns a bench silent for 30 s into "not answering" since it was last heard, and back once it is heard again', async () => {
    const { view, send, at, emitted } = setUp();
    await view.follow();
    send({ bench: 'b', sequence: 1, reportedAt: '2026-05-04T10:42:00.000Z', report: report('b') });
    at(10_000);
    send({ bench: 'b', sequence: 2, reportedAt: '2026-05-04T10:42:10.000Z', unchanged: true });
    at(39_000);
    expect(view.bench('b')?.answering).toBe('yes');
    at(40_001);
    expect(view.bench('b')).toMatchObject({ answering: 'silent', heardAt: '2026-05-04T10:42:10.000Z' });
    expect(emitted.at(-1)).toMatchObject({ benchId: 'b', answering: 'silent' });
    at(50_000);
    send({ bench: 'b', sequence: 3, reportedAt: '2026-05-04T10:42:50.000Z', unchanged: true });
    expect(view.bench('b')?.answering).toBe('yes');
    expect(emitted.map((bench) => bench.answering)).toEqual(['yes', 'silent', 'yes']);
  });

  it('reads the row of a report too long for its notification, and of a heartbeat that follows a report it missed', async () => {
    const { view, send, table, flush } = setUp();
    await view.follow();
    table.set('b', { report: report('b', { labelsToday: 3 }), sequence: 5, reportedAt: '2026-05-04T10:42:00.000Z' });
    send({ bench: 'b', sequence: 5, reportedAt: '2026-05-04T10:42:00.000Z' });
    await flush();
    expect(view.bench('b')?.labelsToday).toBe(3);
    table.set('b', { report: report('b', { labelsToday: 9 }), sequence: 8, reportedAt: '2026-05-04T10:42:05.000Z' });
    send({ bench: 'b', sequence: 8, reportedAt: '2026-05-04T10:42:05.000Z', unchanged: true });
    await flush();
    expect(view.bench('b')?.labelsToday).toBe(9);
  });

  it('after a lost connection reads every row again and announces what changed meanwhile', async () => {
    const { view, table, gap, emitted, flush } = setUp([{ report: report('b'), sequence: 1, reportedAt: '2026-05-04T10:41:00.000Z' }]);
    await view.follow();
    table.set('b', { report: report('b', { operator: 'Anna' }), sequence: 2, reportedAt: '2026-05-04T10:41:58.000Z' });
    table.set('c', { report: report('c'), sequence: 1, reportedAt: '2026-05-04T10:41:59.000Z' });
    gap();
    await flush();
    expect(emitted.map((bench) => `${bench.benchId} ${bench.operator}`)).toEqual(['b Sam', 'b Anna', 'c Sam']);
  });

  it('reads a bench that closed in order as closed, not as silent', async () => {
    const { view, send, at } = setUp();
    await view.follow();
    send({ bench: 'b', sequence: 1, reportedAt: '2026-05-04T10:42:00.000Z', report: report('b', { stoppedAt: '2026-05-04T10:42:00.000Z' }) });
    at(60_000);
    expect(view.bench('b')?.answering).toBe('stopped');
  });
});
