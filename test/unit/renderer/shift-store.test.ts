import { describe, expect, it } from 'vitest';
import type { BundleSummaryData } from '../../../src/shared/contract/orders';
import type { RunSummaryData } from '../../../src/shared/contract/printing';
import { createShiftStore } from '../../../src/renderer/src/state/shift-store';
import { secondsLeft, selectionTotals, toggleInSelection } from '../../../src/renderer/src/shift/run-math';
import { ok, scriptedStation } from './scripted-station';

const bundle = (bundleId: string, parcels: number, printed = 0): BundleSummaryData => ({ bundleId, parcels, printed, orderRefs: [`${bundleId}-1`] });
const todays = [bundle('BND-A', 3), bundle('BND-B', 5, 2), bundle('BND-C', 1)];

const run = (overrides: Partial<RunSummaryData> = {}): RunSummaryData => ({
  runId: 'run-1',
  environment: 'sandbox',
  kind: 'bundles',
  printerId: 'bench',
  printerName: 'Bench Zebra',
  operator: 'Sam',
  state: 'paused',
  pauseReason: null,
  counts: { total: 9, queued: 4, fetched: 0, sent: 0, printed: 5, failed: 0, uncertain: 0 },
  reverse: false,
  bundles: [],
  skipped: [],
  uncertain: [],
  failed: [],
  secondCopies: [],
  retryOf: null,
  resumable: true,
  createdAt: '2025-11-21T07:00:00.000Z',
  updatedAt: '2025-11-21T07:05:00.000Z',
  finishedAt: null,
  ...overrides,
});

function bench() {
  const scripted = scriptedStation({
    'orders.bundles': () => ok({ bundles: todays }),
    'printing.printBundles': () => ok(run({ state: 'running' })),
    'printing.resume': ({ runId }) => ok(run({ runId, state: 'running' })),
    'printing.run': ({ runId }) => ok({ run: run({ runId, state: 'running' }), entries: [] }),
    'printing.runs': () =>
      ok({ runs: [run({ runId: 'single-1', kind: 'single' }), run({ runId: 'test-1', kind: 'test' }), run({ runId: 'run-1' }), run({ runId: 'retry-1', kind: 'retry' })] }),
  });
  return { ...scripted, store: createShiftStore({ station: scripted.station, now: () => 0 }) };
}

describe('choosing today’s bundles for a shift-start run', () => {
  it('lists the unprinted bundles, chooses all or some, and adds scanned ones not listed', async () => {
    const { store, named } = bench();
    await store.getState().loadBundles();
    expect(named('orders.bundles')[0]?.input).toEqual({ unprintedOnly: true });
    expect(store.getState().bundles?.map((listed) => listed.bundleId)).toEqual(['BND-A', 'BND-B', 'BND-C']);

    store.getState().addBundles('BND-X');
    store.getState().toggleBundle('BND-B');
    store.getState().selectAll();
    expect(store.getState().selected).toEqual(['BND-X', 'BND-B', 'BND-A', 'BND-C']);
    store.getState().toggleBundle('BND-A');
    expect(store.getState().selected).toEqual(['BND-X', 'BND-B', 'BND-C']);
    // BND-B has 3 labels left of 5, BND-C one; BND-X is the service's to count.
    expect(selectionTotals(store.getState().selected, todays)).toEqual({ labels: 4, unlisted: ['BND-X'] });
  });

  it('starts the run with the chosen ids in order, the printer and the direction', async () => {
    const { store, named } = bench();
    store.getState().addBundles('BND-C BND-A');
    store.getState().setPrinter('bench');
    store.getState().setReverse(true);
    await store.getState().start();
    expect(named('printing.printBundles')[0]?.input).toEqual({ bundleIds: ['BND-C', 'BND-A'], reverse: true, printerId: 'bench' });
    expect(store.getState().run?.state).toBe('running');
    expect(store.getState().selected).toEqual([]);
  });

  it('toggles an id in a selection', () => {
    expect(toggleInSelection(['a', 'b'], 'a')).toEqual(['b']);
    expect(toggleInSelection(['b'], 'a')).toEqual(['b', 'a']);
  });
});

describe('runs that did not finish', () => {
  it('offers only shift-start and retry runs, and resuming one carries on with it', async () => {
    const { store, named } = bench();
    await store.getState().loadUnfinished();
    expect(store.getState().unfinished.map((kept) => kept.runId)).toEqual(['run-1', 'retry-1']);
    expect(named('printing.runs')[0]?.input).toEqual({ unfinished: true, limit: 20 });

    const [paused] = store.getState().unfinished;
    await store.getState().resumeUnfinished(paused!);
    expect(named('printing.resume')[0]?.input).toEqual({ runId: 'run-1' });
    expect(store.getState().run?.runId).toBe('run-1');
    expect(store.getState().run?.state).toBe('running');
    expect(store.getState().offerDismissed).toBe(true);
  });

  it('lists what is left once its run finishes', async () => {
    const { store, named, emit } = bench();
    store.getState().addBundles('BND-A');
    await store.getState().start();
    const before = named('orders.bundles').length;
    emit('printing.finished', run({ state: 'finished', resumable: false }));
    // Listed again: what is left to print, and what is printed today (for a slip scanned again).
    expect(named('orders.bundles').slice(before).map((call) => call.input)).toEqual([{ unprintedOnly: true }, { unprintedOnly: false }]);
    expect(store.getState().run?.state).toBe('finished');
  });
});

describe('the time left of a run', () => {
  it('after Resume is measured from the printing since, not stretched by the minutes the run stood paused', async () => {
    let clock = 0;
    const scripted = scriptedStation({
      'printing.printBundles': () => ok(run({ state: 'running' })),
      'printing.run': ({ runId }) => ok({ run: run({ runId, state: 'running' }), entries: [] }),
    });
    const store = createShiftStore({ station: scripted.station, now: () => clock });
    store.getState().addBundles('BND-A');
    await store.getState().start();
    const progress = (state: 'running' | 'paused', done: number) =>
      scripted.emit('printing.progress', { runId: 'run-1', kind: 'bundles', printerId: 'bench', state, pauseReason: null, counts: { ...run().counts, printed: done }, done, total: 100, at: new Date(clock).toISOString() });

    // 2 labels a second for 10 s, then 25 s paused.
    for (let second = 0; second <= 10; second += 1) {
      clock = second * 1000;
      progress('running', second * 2);
    }
    clock = 12_000;
    progress('paused', 20);
    clock = 37_000;
    progress('paused', 20);
    // Resumed: the same 2 labels a second.
    clock = 38_000;
    progress('running', 20);
    clock = 40_000;
    progress('running', 24);
    // 76 labels left at 2 a second: 38 s, not the ~2 min a rate over the pause would give.
    expect(secondsLeft(store.getState().samples, 100)).toBe(38);
  });
});
