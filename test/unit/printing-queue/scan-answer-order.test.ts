/**
 * A scan's answer (the printer has the label) is the one thing the packer waits for: the queue's
 * bookkeeping for the proof of printing — the label's marks, its "sent", the printer's state for
 * the screen — follows it. These tests hold the order that keeps the journal's promises: the marks
 * are asked of the store before the "sent" whose commit takes them to the disk. A print run with
 * its real journal (SQLite in memory) and label marks on one engine, on the fake Zebra and clock.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logging/logger';
import type { NewLabel, RunKind } from '../../../src/main/printing/journal/journal-types';
import { emptyRunOptions } from '../../../src/main/printing/journal/journal-rows';
import { PrintJournal } from '../../../src/main/printing/journal/print-journal';
import { StoreLabelMarks } from '../../../src/main/printing/queue/label-marks';
import { PrinterQueue } from '../../../src/main/printing/queue/printer-queue';
import type { PrintRun, PrintRunDeps } from '../../../src/main/printing/runs/print-run';
import { ShiftRun } from '../../../src/main/printing/runs/shift-run';
import { WaitedPrint, type WaitedOutcome } from '../../../src/main/printing/runs/waited-print';
import { personWaits } from '../../../src/main/printing/journal/run-kinds';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import type { ExecuteResult, Row, SqlValue, StoreEngine, StoreTransaction, TransactionOptions } from '../../../src/main/store/engine/store-engine';
import type { SendOptions, SendResult } from '../../../src/main/printing/transports/transport';
import { FakeClock, FakeZebra } from './fake-zebra';

const logger = createLogger(() => undefined, { level: 'error' });

/** What happened, in order: the store's writes (by the table and change they make), the answer, the printer's state. */
type Happened = string[];

/**
 * The station's SQLite engine, noting each write it is asked for as it is asked (before the
 * engine runs it), so the order the store receives them in can be read back.
 */
function notingWrites(engine: SqliteEngine, happened: Happened): StoreEngine {
  const note = (sql: string, params: readonly SqlValue[] = []) => {
    if (sql.includes('INSERT INTO print_label_marks')) happened.push(`marks ${String(params[0])}`);
    else if (sql.includes("SET state = 'sent'")) happened.push(`journal sent ${String(params[1])}`);
  };
  const noted = (tx: StoreTransaction): StoreTransaction => ({
    query: <T extends Row = Row>(sql: string, params?: readonly SqlValue[]) => (note(sql, params), tx.query<T>(sql, params)),
    queryForUpdate: <T extends Row = Row>(sql: string, params?: readonly SqlValue[]) => tx.queryForUpdate<T>(sql, params),
    execute: (sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult> => (note(sql, params), tx.execute(sql, params)),
    notify: (channel, payload) => tx.notify(channel, payload),
  });
  return {
    kind: engine.kind,
    dialect: engine.dialect,
    commitCanSkipDiskWait: engine.commitCanSkipDiskWait,
    sharedByBenches: engine.sharedByBenches,
    outsideWritesVersion: () => engine.outsideWritesVersion(),
    query: <T extends Row = Row>(sql: string, params?: readonly SqlValue[]) => (note(sql, params), engine.query<T>(sql, params)),
    execute: (sql, params) => (note(sql, params), engine.execute(sql, params)),
    executeWithoutDiskWait: (sql, params) => (note(sql, params), engine.executeWithoutDiskWait(sql, params)),
    transaction: <T>(work: (tx: StoreTransaction) => Promise<T>, options?: TransactionOptions) => engine.transaction((tx) => work(noted(tx)), options),
    notify: (channel, payload) => engine.notify(channel, payload),
    subscribe: (channel, handlers) => engine.subscribe(channel, handlers),
    close: () => engine.close(),
  };
}

/** The fake Zebra answering a label a turn of the event loop after it was written, as one on the network does. */
class NetworkZebra extends FakeZebra {
  override async send(data: Uint8Array, options?: SendOptions): Promise<SendResult> {
    const answer = await super.send(data, options);
    await new Promise((resolve) => setImmediate(resolve));
    return answer;
  }
}

function setup() {
  const happened: Happened = [];
  const clock = new FakeClock();
  const zebra = new NetworkZebra(clock, { msPerLabel: 100 });
  const engine = notingWrites(SqliteEngine.open(':memory:'), happened);
  const journal = new PrintJournal(engine, () => new Date(clock.now()));
  const queue = new PrinterQueue({
    transport: zebra,
    maxFormatsInBuffer: () => 3,
    logger,
    clock,
    marks: new StoreLabelMarks(engine, () => new Date(clock.now())),
    onState: (state) => happened.push(`state ${state.state} ${state.labelsPending}`),
    timing: { faultPollMs: 500 },
  });
  async function start(kind: 'single', labels: NewLabel[]): Promise<WaitedPrint>;
  async function start(kind: 'bundles', labels: NewLabel[]): Promise<ShiftRun>;
  async function start(kind: RunKind, labels: NewLabel[]): Promise<PrintRun> {
    const { run, entries } = await journal.runRecords.createRun({ environment: 'test', kind, printerId: 'p-1', operator: 'Sam', options: emptyRunOptions(), labels });
    const deps: PrintRunDeps = {
      run,
      entries,
      journal,
      queue,
      // The service takes its time to answer, as it does: the queue asks the printer meanwhile.
      documents: async (entry) => {
        await clock.sleep(20);
        return { bytes: new TextEncoder().encode(`^XA^FD${entry.orderId ?? ''}^FS^XZ`), formats: 1, format: 'zpl', sha256: 'sha' };
      },
      classifyFetchFailure: () => 'label',
      observer: { progress: () => undefined, label: () => undefined, finished: () => undefined },
      logger,
      fetchAhead: 4,
      serviceRetryMs: 5000,
      clock,
    };
    const printRun = personWaits(run) ? new WaitedPrint(deps) : new ShiftRun(deps);
    await printRun.start();
    return printRun;
  }
  return { happened, clock, zebra, journal, start };
}

const order = (orderId: string): NewLabel => ({ orderId, bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl' });

describe('the order of a scan’s answer and the bookkeeping after it', () => {
  it('answers first; then the label’s marks are asked of the store before its "sent", and the screen hears the label in the printer', async () => {
    const { happened, clock, zebra, journal, start } = setup();
    const run = await start('single', [order('A')]);
    void run.whenFirstLabelSettles().then((outcome: WaitedOutcome) => happened.push(`answer ${outcome.kind}`));
    await clock.until(() => run.isFinished);

    const id = (await journal.labels.entries(run.runId))[0]?.id ?? -1;
    const answer = happened.indexOf('answer sent');
    expect(answer, 'the scan was answered').toBeGreaterThanOrEqual(0);
    // The marks reach the disk with the "sent" commit that follows them (label-marks.ts).
    expect(happened.indexOf(`marks ${id}`)).toBeGreaterThan(answer);
    expect(happened.indexOf(`journal sent ${id}`)).toBeGreaterThan(happened.indexOf(`marks ${id}`));
    // Nothing is told to the screen between the label's bytes and the printer's answer.
    expect(happened.indexOf('state printing 1')).toBeGreaterThan(answer);
    expect(zebra.printed).toHaveLength(1);
    const [entry] = await journal.labels.entries(run.runId);
    expect(entry?.state).toBe('printed');
  });

  it('a bundle’s label: its marks are asked of the store before its "sent" too', async () => {
    const { happened, clock, journal, start } = setup();
    const run = await start('bundles', [order('B1'), order('B2')]);
    await clock.until(() => run.isFinished);
    await run.journalled();
    const ids = (await journal.labels.entries(run.runId)).map((entry) => entry.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      expect(happened.indexOf(`marks ${id}`), `label ${id}'s marks`).toBeGreaterThanOrEqual(0);
      expect(happened.indexOf(`journal sent ${id}`)).toBeGreaterThan(happened.indexOf(`marks ${id}`));
    }
  });
});
