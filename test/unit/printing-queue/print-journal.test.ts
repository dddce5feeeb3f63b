import { beforeEach, describe, expect, it } from 'vitest';
import { emptyRunOptions, PrintJournal } from '../../../src/main/printing/journal/print-journal';
import type { NewLabel } from '../../../src/main/printing/journal/journal-types';
import { openDatabase, type StationDatabase } from '../../../src/main/store/database';
import type { PauseReasonData } from '../../../src/shared/contract/printing';

const label = (orderId: string, bundleId = 'BND-1', position = 1, count = 2): NewLabel => ({
  orderId,
  bundleId,
  bundlePosition: position,
  bundleCount: count,
  format: 'zpl',
});

const stopped: PauseReasonData = { by: 'station', code: 'PRINTER_OFFLINE', message: 'stopped', action: 'resume', fault: null, since: '2026-01-01T00:00:00.000Z' };

describe('print journal', () => {
  let db: StationDatabase;
  let journal: PrintJournal;
  let tick = 0;

  beforeEach(() => {
    db = openDatabase(':memory:');
    tick = 0;
    journal = new PrintJournal(db, () => new Date(Date.UTC(2026, 0, 1, 8, 0, tick++)));
  });

  const bundleRun = (labels: NewLabel[]) =>
    journal.createRun({ environment: 'test', kind: 'bundles', printerId: 'p-1', operator: 'Sam', options: emptyRunOptions(), labels });

  it('records a run and a row per label in order, all queued', () => {
    const { run, entries } = bundleRun([label('a', 'BND-1', 1), label('b', 'BND-1', 2)]);
    expect(run.state).toBe('running');
    expect(entries.map((entry) => [entry.position, entry.orderId, entry.state, entry.operator])).toEqual([
      [0, 'a', 'queued', 'Sam'],
      [1, 'b', 'queued', 'Sam'],
    ]);
    expect(journal.counts(run.id)).toMatchObject({ total: 2, queued: 2 });
  });

  it('moves a label queued → fetched → sent → printed with a time for each step', () => {
    const { entries } = bundleRun([label('a')]);
    const id = entries[0]?.id ?? 0;
    journal.markFetched(id, 'f'.repeat(64), 'zpl');
    journal.markSending(id);
    expect(journal.entry(id)).toMatchObject({ state: 'fetched', documentSha256: 'f'.repeat(64) });
    expect(journal.entry(id)?.sentAt).not.toBeNull();
    journal.markSent(id);
    journal.markPrinted([id]);
    const entry = journal.entry(id);
    expect(entry?.state).toBe('printed');
    expect([entry?.fetchedAt, entry?.sentAt, entry?.printedAt].every((time) => time !== null)).toBe(true);
  });

  it('never marks a label printed that was not sent, nor fails one that was', () => {
    const { entries } = bundleRun([label('a'), label('b')]);
    const [a, b] = entries.map((entry) => entry.id) as [number, number];
    journal.markPrinted([a]);
    expect(journal.entry(a)?.state).toBe('queued');
    journal.markSent(b);
    journal.markFailed(b, 'late failure');
    expect(journal.entry(b)?.state).toBe('sent');
  });

  it('after a crash: a label being sent becomes uncertain, a bundle run waits for resume, a single run is closed', () => {
    const bundles = bundleRun([label('a'), label('b'), label('c')]);
    const [a, b] = bundles.entries.map((entry) => entry.id) as [number, number];
    journal.markSent(a);
    journal.markSending(b);
    const single = journal.createRun({ environment: 'test', kind: 'single', printerId: 'p-1', operator: '', options: emptyRunOptions(), labels: [label('d')] });

    const report = journal.recoverInterrupted(stopped, 'was being sent', 'not sent');
    expect(report).toEqual({ pausedRuns: [bundles.run.id], closedRuns: [single.run.id], uncertain: [b] });
    expect(journal.entries(bundles.run.id).map((entry) => entry.state)).toEqual(['sent', 'uncertain', 'queued']);
    expect(journal.run(bundles.run.id)).toMatchObject({ state: 'paused', pauseReason: stopped });
    expect(journal.entries(single.run.id).map((entry) => [entry.state, entry.reason])).toEqual([['failed', 'not sent']]);
    expect(journal.run(single.run.id)?.state).toBe('finished');
  });

  it('duplicate guard: counts sent, printed, being sent and undecided uncertain labels, not failed or decided ones', () => {
    const { entries } = bundleRun([label('a'), label('b'), label('c'), label('d'), label('e')]);
    const [a, b, c, d] = entries.map((entry) => entry.id) as [number, number, number, number];
    journal.markSent(a);
    journal.markSending(b);
    journal.markFailed(c, 'network');
    journal.markUncertain(d, 'connection dropped');
    expect(journal.previousPrint('test', 'a')?.id).toBe(a);
    expect(journal.previousPrint('test', 'b')?.id).toBe(b);
    expect(journal.previousPrint('test', 'c')).toBeNull();
    expect(journal.previousPrint('test', 'd')?.id).toBe(d);
    expect(journal.previousPrint('test', 'e')).toBeNull();
    expect(journal.previousPrint('live', 'a')).toBeNull();

    const decided = journal.decide(d, 'print-again', 'Kim');
    expect(decided).toMatchObject({ state: 'failed', decidedBy: 'Kim' });
    expect(decided?.reason).toContain('Kim said it did not print');
    expect(journal.previousPrint('test', 'd')).toBeNull();
    expect(journal.decide(d, 'printed', 'Kim')).toBeNull();
  });

  it('knows which bundles had a label printed', () => {
    const { entries } = bundleRun([label('a', 'BND-1'), label('b', 'BND-2')]);
    journal.markSent(entries[0]?.id ?? 0);
    expect(journal.bundlesPrinted('test', ['BND-1', 'BND-2', 'BND-3'])).toEqual(new Set(['BND-1']));
  });

  it('cancel fails the labels not yet sent and leaves those on their way', () => {
    const { run, entries } = bundleRun([label('a'), label('b'), label('c')]);
    const [a, b] = entries.map((entry) => entry.id) as [number, number];
    journal.markSent(a);
    journal.markSending(b);
    expect(journal.failUnsent(run.id, 'Cancelled by Sam before it was sent.')).toBe(1);
    // b was being sent: it stays as it is (a crash would make it uncertain), never "failed".
    expect(journal.entries(run.id).map((entry) => entry.state)).toEqual(['sent', 'queued', 'failed']);
  });

  it('lists unfinished runs to offer for resume, newest first', () => {
    const first = bundleRun([label('a')]).run;
    const second = bundleRun([label('b')]).run;
    journal.finishRun(first.id, 'finished');
    expect(journal.runs('test', { unfinished: true }).map((run) => run.id)).toEqual([second.id]);
    expect(journal.runs('test').map((run) => run.id)).toEqual([second.id, first.id]);
    expect(journal.hasUnfinishedRuns('test', 'p-1')).toBe(true);
  });
});

describe('print journal rows written and read back', () => {
  it('a new run’s rows in memory equal what the database holds', () => {
    const journal = new PrintJournal(openDatabase(':memory:'));
    const { run, entries } = journal.createRun({
      environment: 'sandbox',
      kind: 'bundles',
      printerId: 'p-1',
      operator: 'Sam',
      options: { ...emptyRunOptions(), reverse: true },
      labels: [{ ...label('a'), reason: 'Reprint by Sam: torn', reprintOf: null }, label('b', 'BND-2', 1, 1)],
    });
    expect(journal.run(run.id)).toEqual(run);
    expect(journal.entries(run.id)).toEqual(entries);
  });
});

describe('recovery leaves runs another station process is printing alone', () => {
  it('settles only the runs it is told are orphans', () => {
    const journal = new PrintJournal(openDatabase(':memory:'));
    const make = (pid: number) =>
      journal.createRun({
        environment: 'test',
        kind: 'bundles',
        printerId: 'p-1',
        operator: '',
        options: { ...emptyRunOptions(), owner: { pid, instance: `i-${pid}` } },
        labels: [label(`order-${pid}`)],
      });
    const gone = make(1001);
    const alive = make(1002);
    for (const run of [gone, alive]) journal.markSending(run.entries[0]?.id ?? 0);
    const report = journal.recoverInterrupted(stopped, 'cut', 'not sent', (run) => run.options.owner?.pid === 1001);
    expect(report.pausedRuns).toEqual([gone.run.id]);
    expect(journal.entries(gone.run.id)[0]?.state).toBe('uncertain');
    expect(journal.run(alive.run.id)?.state).toBe('running');
    expect(journal.entries(alive.run.id)[0]?.state).toBe('queued');
  });
});
