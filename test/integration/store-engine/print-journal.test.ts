/**
 * The print journal on both engines (SQLite on a file, PostgreSQL on the run's private server):
 * the label states and their order, recovery after a crash, the duplicate guard, the run lists.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyRunOptions, PrintJournal } from '../../../src/main/printing/journal/print-journal';
import type { NewLabel } from '../../../src/main/printing/journal/journal-types';
import type { PauseReasonData } from '../../../src/shared/contract/printing';
import { engineFactories, type EngineUnderTest } from './engines';

const label = (orderId: string, bundleId = 'BND-1', position = 1, count = 2): NewLabel => ({
  orderId,
  bundleId,
  bundlePosition: position,
  bundleCount: count,
  format: 'zpl',
});

const stopped: PauseReasonData = { by: 'station', code: 'PRINTER_OFFLINE', message: 'stopped', action: 'resume', fault: null, since: '2026-01-01T00:00:00.000Z' };

describe.each(engineFactories)('print journal: $name', (factory) => {
  let store: EngineUnderTest;
  let journal: PrintJournal;
  let tick = 0;

  beforeEach(async () => {
    store = await factory.open();
    tick = 0;
    journal = new PrintJournal(store.engine, () => new Date(Date.UTC(2026, 0, 1, 8, 0, tick++)));
  });
  afterEach(async () => {
    await store.dispose();
  });

  const bundleRun = (labels: NewLabel[]) =>
    journal.createRun({ environment: 'test', kind: 'bundles', printerId: 'p-1', operator: 'Sam', options: emptyRunOptions(), labels });

  it('records a run and a row per label in order, all queued', async () => {
    const { run, entries } = await bundleRun([label('a', 'BND-1', 1), label('b', 'BND-1', 2)]);
    expect(run.state).toBe('running');
    expect(entries.map((entry) => [entry.position, entry.orderId, entry.state, entry.operator])).toEqual([
      [0, 'a', 'queued', 'Sam'],
      [1, 'b', 'queued', 'Sam'],
    ]);
    expect(await journal.counts(run.id)).toMatchObject({ total: 2, queued: 2 });
  });

  it('moves a label queued → fetched → sent → printed with a time for each step', async () => {
    const { entries } = await bundleRun([label('a')]);
    const id = entries[0]?.id ?? 0;
    await journal.markFetched(id, 'f'.repeat(64), 'zpl');
    await journal.markSending(id);
    expect(await journal.entry(id)).toMatchObject({ state: 'fetched', documentSha256: 'f'.repeat(64) });
    expect((await journal.entry(id))?.sentAt).not.toBeNull();
    await journal.markSent(id);
    await journal.markPrinted([id]);
    const entry = await journal.entry(id);
    expect(entry?.state).toBe('printed');
    expect([entry?.fetchedAt, entry?.sentAt, entry?.printedAt].every((time) => time !== null)).toBe(true);
  });

  it('never marks a label printed that was not sent, nor fails one that was', async () => {
    const { entries } = await bundleRun([label('a'), label('b')]);
    const [a, b] = entries.map((entry) => entry.id) as [number, number];
    await journal.markPrinted([a]);
    expect((await journal.entry(a))?.state).toBe('queued');
    await journal.markSent(b);
    await journal.markFailed(b, 'late failure');
    expect((await journal.entry(b))?.state).toBe('sent');
  });

  it('after a crash: a label being sent becomes uncertain, a bundle run waits for resume, a single run is closed', async () => {
    const bundles = await bundleRun([label('a'), label('b'), label('c')]);
    const [a, b] = bundles.entries.map((entry) => entry.id) as [number, number];
    await journal.markSent(a);
    await journal.markSending(b);
    const single = await journal.createRun({ environment: 'test', kind: 'single', printerId: 'p-1', operator: '', options: emptyRunOptions(), labels: [label('d')] });

    const report = await journal.recoverInterrupted(stopped, 'was being sent', 'not sent');
    expect(report).toEqual({ pausedRuns: [bundles.run.id], closedRuns: [single.run.id], uncertain: [b] });
    expect((await journal.entries(bundles.run.id)).map((entry) => entry.state)).toEqual(['sent', 'uncertain', 'queued']);
    expect(await journal.run(bundles.run.id)).toMatchObject({ state: 'paused', pauseReason: stopped });
    expect((await journal.entries(single.run.id)).map((entry) => [entry.state, entry.reason])).toEqual([['failed', 'not sent']]);
    expect((await journal.run(single.run.id))?.state).toBe('finished');
  });

  it('duplicate guard: counts sent, printed, being sent and undecided uncertain labels, not failed or decided ones', async () => {
    const { entries } = await bundleRun([label('a'), label('b'), label('c'), label('d'), label('e')]);
    const [a, b, c, d] = entries.map((entry) => entry.id) as [number, number, number, number];
    await journal.markSent(a);
    await journal.markSending(b);
    await journal.markFailed(c, 'network');
    await journal.markUncertain(d, 'connection dropped');
    expect((await journal.previousPrint('test', 'a'))?.id).toBe(a);
    expect((await journal.previousPrint('test', 'b'))?.id).toBe(b);
    expect(await journal.previousPrint('test', 'c')).toBeNull();
    expect((await journal.previousPrint('test', 'd'))?.id).toBe(d);
    expect(await journal.previousPrint('test', 'e')).toBeNull();
    expect(await journal.previousPrint('live', 'a')).toBeNull();

    const decided = await journal.decide(d, 'print-again', 'Kim');
    expect(decided).toMatchObject({ state: 'failed', decidedBy: 'Kim' });
    expect(decided?.reason).toContain('Kim said it did not print');
    expect(await journal.previousPrint('test', 'd')).toBeNull();
    expect(await journal.decide(d, 'printed', 'Kim')).toBeNull();
  });

  it('knows which bundles had a label printed', async () => {
    const { entries } = await bundleRun([label('a', 'BND-1'), label('b', 'BND-2')]);
    await journal.markSent(entries[0]?.id ?? 0);
    expect(await journal.bundlesPrinted('test', ['BND-1', 'BND-2', 'BND-3'])).toEqual(new Set(['BND-1']));
  });

  it('cancel fails the labels not yet sent and leaves those on their way', async () => {
    const { run, entries } = await bundleRun([label('a'), label('b'), label('c')]);
    const [a, b] = entries.map((entry) => entry.id) as [number, number];
    await journal.markSent(a);
    await journal.markSending(b);
    expect(await journal.failUnsent(run.id, 'Cancelled by Sam before it was sent.')).toBe(1);
    // b was being sent: it stays as it is (a crash would make it uncertain), never "failed".
    expect((await journal.entries(run.id)).map((entry) => entry.state)).toEqual(['sent', 'queued', 'failed']);
  });

  it('lists unfinished runs to offer for resume, newest first', async () => {
    const first = (await bundleRun([label('a')])).run;
    const second = (await bundleRun([label('b')])).run;
    await journal.finishRun(first.id, 'finished');
    expect((await journal.runs('test', { unfinished: true })).map((run) => run.id)).toEqual([second.id]);
    expect((await journal.runs('test')).map((run) => run.id)).toEqual([second.id, first.id]);
    expect(await journal.hasUnfinishedRuns('test', 'p-1')).toBe(true);
  });

  it('a new run’s rows in memory equal what the database holds', async () => {
    const { run, entries } = await journal.createRun({
      environment: 'sandbox',
      kind: 'bundles',
      printerId: 'p-1',
      operator: 'Sam',
      options: { ...emptyRunOptions(), reverse: true },
      labels: [{ ...label('a'), reason: 'Reprint by Sam: torn', reprintOf: null }, label('b', 'BND-2', 1, 1)],
    });
    expect(await journal.run(run.id)).toEqual(run);
    expect(await journal.entries(run.id)).toEqual(entries);
  });

  it('recovery settles only the runs it is told are orphans, leaving runs another station process is printing alone', async () => {
    const make = (pid: number) =>
      journal.createRun({
        environment: 'test',
        kind: 'bundles',
        printerId: 'p-1',
        operator: '',
        options: { ...emptyRunOptions(), owner: { pid, instance: `i-${pid}` } },
        labels: [label(`order-${pid}`)],
      });
    const gone = await make(1001);
    const alive = await make(1002);
    for (const run of [gone, alive]) await journal.markSending(run.entries[0]?.id ?? 0);
    const report = await journal.recoverInterrupted(stopped, 'cut', 'not sent', (run) => run.options.owner?.pid === 1001);
    expect(report.pausedRuns).toEqual([gone.run.id]);
    expect((await journal.entries(gone.run.id))[0]?.state).toBe('uncertain');
    expect((await journal.run(alive.run.id))?.state).toBe('running');
    expect((await journal.entries(alive.run.id))[0]?.state).toBe('queued');
  });
});
