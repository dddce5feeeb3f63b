/**
 * A print run with its real journal (SQLite in memory) on a print queue to the fake Zebra, on the
 * fake clock: a scan that waits for the printer, is cancelled or prints when the fault clears, and a
 * bundle run that waits out an unreachable Delivery API — with no real waiting.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logging/logger';
import type { NewLabel, RunKind } from '../../../src/main/printing/journal/journal-types';
import { emptyRunOptions } from '../../../src/main/printing/journal/journal-rows';
import { PrintJournal } from '../../../src/main/printing/journal/print-journal';
import { PrinterQueue } from '../../../src/main/printing/queue/printer-queue';
import type { DocumentSource, PrintRun, PrintRunDeps } from '../../../src/main/printing/runs/print-run';
import { ShiftRun } from '../../../src/main/printing/runs/shift-run';
import { WaitedPrint, type WaitedOutcome } from '../../../src/main/printing/runs/waited-print';
import { personWaits } from '../../../src/main/printing/journal/run-kinds';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import { StationError } from '../../../src/shared/errors';
import { FakeClock, FakeZebra } from './fake-zebra';

const logger = createLogger(() => undefined, { level: 'error' });

function setup(rowsOnDisk?: Promise<void>) {
  const clock = new FakeClock();
  const zebra = new FakeZebra(clock, { msPerLabel: 100 });
  const journal = new PrintJournal(SqliteEngine.open(':memory:'), () => new Date(clock.now()));
  const queue = new PrinterQueue({ transport: zebra, maxFormatsInBuffer: () => 3, logger, clock, timing: { faultPollMs: 500 } });
  const finished: string[] = [];
  async function start(kind: 'single', labels: NewLabel[], documents: DocumentSource): Promise<WaitedPrint>;
  async function start(kind: 'bundles', labels: NewLabel[], documents: DocumentSource): Promise<ShiftRun>;
  async function start(kind: RunKind, labels: NewLabel[], documents: DocumentSource): Promise<PrintRun> {
    const { run, entries } = await journal.runRecords.createRun({ environment: 'test', kind, printerId: 'p-1', operator: 'Sam', options: emptyRunOptions(), labels });
    const deps: PrintRunDeps = {
      run,
      entries,
      journal,
      queue,
      documents,
      classifyFetchFailure: (error) => (error instanceof StationError && error.code === 'NETWORK' ? 'service' : 'label'),
      observer: { progress: () => undefined, label: () => undefined, finished: (done) => void finished.push(done.runId) },
      logger,
      fetchAhead: 4,
      serviceRetryMs: 5000,
      clock,
      ...(rowsOnDisk ? { rowsOnDisk } : {}),
    };
    const printRun = personWaits(run) ? new WaitedPrint(deps) : new ShiftRun(deps);
    await printRun.start();
    return printRun;
  }
  /** The run's rows once every write it has made so far is in the journal. */
  const rows = async (run: PrintRun) => {
    await run.journalled();
    return journal.labels.entries(run.runId);
  };
  const record = async (run: PrintRun) => {
    await run.journalled();
    return journal.runRecords.requireRun(run.runId);
  };
  return { clock, zebra, start, finished, rows, record };
}

const order = (orderId: string): NewLabel => ({ orderId, bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl' });
const zplOf = (orderId: string) => new TextEncoder().encode(`^XA^FD${orderId}^FS^XZ`);
const document = (orderId: string) => ({ bytes: zplOf(orderId), formats: 1, format: 'zpl' as const, sha256: `sha-${orderId}` });

describe('a print run on the fake clock', () => {
  it('a scan to a printer out of paper answers "waiting" at once, is cancelled by the packer and never sent', async () => {
    const { clock, zebra, start, rows, record } = setup();
    zebra.paperOut = true;
    const run = await start('single', [order('A')], async (entry) => document(entry.orderId ?? ''));
    let outcome: WaitedOutcome | null = null;
    void run.whenFirstLabelSettles().then((settled) => (outcome = settled));
    await clock.until(() => outcome !== null);
    expect(outcome).toMatchObject({ kind: 'waiting', fault: { code: 'PAPER_OUT' } });
    await clock.advance(10_000);
    expect(zebra.received).toEqual([]);

    run.cancel('Sam');
    const [entry] = await rows(run);
    expect(entry).toMatchObject({ state: 'failed', reason: 'Cancelled by Sam before it was sent.' });
    expect((await record(run)).state).toBe('cancelled');
    zebra.paperOut = false;
    await clock.advance(10_000);
    expect(zebra.received).toEqual([]);
  });

  it('a fault shown as the label arrives: "waiting", in the printer; journaled printed only once it came out', async () => {
    const { clock, zebra, start, rows } = setup();
    // The paper runs out while the label is fetched, after the printer was asked.
    const run = await start('single', [order('B')], async (entry) => {
      await clock.sleep(30);
      zebra.paperOut = true;
      return document(entry.orderId ?? '');
    });
    let outcome: WaitedOutcome | null = null;
    void run.whenFirstLabelSettles().then((settled) => (outcome = settled));
    await clock.until(() => outcome !== null);
    expect(outcome).toMatchObject({ kind: 'waiting', entry: { state: 'sent' }, fault: { code: 'PAPER_OUT' } });
    await clock.advance(5_000);
    expect((await rows(run))[0]?.state).toBe('sent');
    expect(zebra.printed).toEqual([]);

    zebra.paperOut = false;
    await clock.until(() => run.isFinished);
    expect((await rows(run))[0]?.state).toBe('printed');
    expect(zebra.printed).toHaveLength(1);
  });

  it('a bundle run waits out an unreachable Delivery API and tries again by itself after the retry time', async () => {
    const { clock, zebra, start, finished, rows } = setup();
    let reachable = false;
    const run = await start('bundles', [order('C1'), order('C2')], async (entry) => {
      if (!reachable) throw new StationError('NETWORK', 'The Delivery API could not be reached.');
      return document(entry.orderId ?? '');
    });
    await clock.until(() => run.state === 'paused');
    expect(run.pauseReason).toMatchObject({ by: 'service', code: 'NETWORK' });
    reachable = true;
    await clock.advance(4_000);
    expect(run.state, 'not before the retry time').toBe('paused');
    await clock.advance(1_000);
    await clock.until(() => run.isFinished);
    expect((await rows(run)).map((entry) => entry.state)).toEqual(['printed', 'printed']);
    expect(zebra.printed).toHaveLength(2);
    expect(finished).toEqual([run.runId]);
  });

  it('a scan’s label waits for its run to reach the disk before it is sent', async () => {
    let onDisk!: () => void;
    const { clock, zebra, start, rows } = setup(new Promise<void>((resolve) => (onDisk = resolve)));
    let fetched = false;
    const run = await start('single', [order('D')], async (entry) => {
      fetched = true;
      return document(entry.orderId ?? '');
    });
    await clock.until(() => fetched);
    await clock.advance(5_000);
    expect(zebra.printed, 'nothing sent while the rows are only in memory and the log').toEqual([]);
    expect((await rows(run))[0]?.sentAt).toBeNull();

    onDisk();
    await clock.until(() => run.isFinished);
    expect(zebra.printed).toHaveLength(1);
    expect((await rows(run))[0]?.state).toBe('printed');
  });

  it('a scan whose run cannot reach the disk is not sent: the label fails with the reason', async () => {
    const { clock, zebra, start, rows } = setup(Promise.reject(new StationError('INTERNAL', 'The station could not write its journal to disk (EIO), so it sent nothing.')));
    const run = await start('single', [order('E')], async (entry) => document(entry.orderId ?? ''));
    const outcome = await run.whenFirstLabelSettles();
    expect(outcome).toMatchObject({ kind: 'error', error: { message: expect.stringMatching(/could not write its journal to disk/) } });
    await clock.until(() => run.isFinished);
    expect((await rows(run))[0]).toMatchObject({ state: 'failed', reason: expect.stringMatching(/could not write its journal to disk/) });
    expect(zebra.printed).toEqual([]);
  });
});
