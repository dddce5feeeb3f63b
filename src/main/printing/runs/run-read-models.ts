/**
 * What the screen and the CLI read about runs and labels: run summaries, a run's labels, the
 * journal, progress — joined with the order index (ref, barcode, recipient) and printer names.
 * Live runs answer from memory (their counts move faster than the journal is read). The journal's
 * rows are read first, then their orders in one query (the journal and the order index are on the
 * same store; the join stays here so each repository keeps its own rows' schema).
 */
import type { Environment } from '../../../shared/contract/app';
import type { JournalEntryData, RunProgressData, RunSummaryData } from '../../../shared/contract/printing';
import { StationError } from '../../../shared/errors';
import type { IndexedOrder, OrderIndex } from '../../orders/order-index';
import type { JournalRow, RunRow } from '../journal/journal-types';
import type { PrintJournal } from '../journal/print-journal';
import type { QueueClock } from '../queue/clock';
import type { PrinterRegistry } from '../printers';
import type { PrintRun } from './print-run';

export interface RunReadModelDeps {
  journal: PrintJournal;
  printers: PrinterRegistry;
  orders: OrderIndex;
  clock: QueueClock;
  liveRun(runId: string): PrintRun | undefined;
  isOrphan(run: RunRow): boolean;
}

export class RunReadModels {
  constructor(private readonly deps: RunReadModelDeps) {}

  /** The run, when it belongs to this environment; else INVALID_INPUT. */
  async requireRun(environment: Environment, runId: string): Promise<RunRow> {
    const record = await this.deps.journal.run(runId);
    if (!record || record.environment !== environment) throw new StationError('NOT_FOUND', `There is no print run ${runId} in the ${environment} environment.`, undefined, { facts: { subject: 'run', id: runId } });
    return record;
  }

  async summary(runId: string): Promise<RunSummaryData> {
    const record = await this.deps.journal.requireRun(runId);
    const live = this.deps.liveRun(runId);
    const run = live?.run ?? record;
    const entries = await this.deps.journal.entries(runId);
    const counts = live ? live.counts() : await this.deps.journal.counts(runId);
    const unsettled = entries.filter((entry) => entry.state === 'uncertain' && entry.decidedAt === null);
    const failed = entries.filter((entry) => entry.state === 'failed');
    const twice = entries.filter((entry) => entry.secondCopyCertainty !== null);
    const orders = await this.ordersOf(run.environment, [...unsettled, ...failed, ...twice]);
    return {
      runId,
      environment: run.environment,
      kind: run.kind,
      printerId: run.printerId,
      printerName: await this.readPrinterName(run.environment, run.printerId),
      operator: run.operator,
      state: run.state,
      pauseReason: run.pauseReason,
      counts,
      reverse: run.options.reverse,
      bundles: run.options.bundles,
      skipped: run.options.skipped,
      uncertain: unsettled.map((entry) => this.withOrder(entry, orders)),
      failed: failed.map((entry) => this.withOrder(entry, orders)),
      secondCopies: twice.map((entry) => this.withOrder(entry, orders)),
      retryOf: run.options.retryOf,
      resumable: live ? run.state === 'paused' : (run.state === 'paused' || run.state === 'running') && this.deps.isOrphan(run),
      createdAt: run.createdAt,
      updatedAt: run.updatedAt,
      finishedAt: run.finishedAt,
    };
  }

  async runSummaries(environment: Environment, options: { unfinished?: boolean; limit?: number }): Promise<RunSummaryData[]> {
    return Promise.all((await this.deps.journal.runs(environment, options)).map((run) => this.summary(run.id)));
  }

  async runEntries(environment: Environment, runId: string): Promise<JournalEntryData[]> {
    await this.requireRun(environment, runId);
    return this.entriesData(environment, await this.deps.journal.entries(runId));
  }

  async journalEntries(environment: Environment, options: { orderId?: string; limit?: number }): Promise<JournalEntryData[]> {
    return this.entriesData(environment, await this.deps.journal.journal(environment, options));
  }

  async entryData(entry: JournalRow): Promise<JournalEntryData> {
    return this.withOrder(entry, await this.ordersOf(entry.environment, [entry]));
  }

  /** The entry with an order the caller already read (a scan's answer: no second read of the index). */
  entryDataOf(entry: JournalRow, order: IndexedOrder | null): JournalEntryData {
    return this.withOrder(entry, new Map(order && order.orderId === entry.orderId ? [[order.orderId, order]] : []));
  }

  private async entriesData(environment: Environment, entries: readonly JournalRow[]): Promise<JournalEntryData[]> {
    // Printer names as last read; read now when this process has not read the printers yet.
    await this.deps.printers.list(environment);
    const orders = await this.ordersOf(environment, entries);
    return entries.map((entry) => this.withOrder(entry, orders));
  }

  /** The orders of these journal rows, in one query (none when no row names an order). */
  private async ordersOf(environment: Environment, entries: readonly JournalRow[]): Promise<ReadonlyMap<string, IndexedOrder>> {
    const orderIds = entries.flatMap((entry) => (entry.orderId ? [entry.orderId] : []));
    return orderIds.length === 0 ? new Map() : this.deps.orders.getMany(environment, orderIds);
  }

  private withOrder(entry: JournalRow, orders: ReadonlyMap<string, IndexedOrder>): JournalEntryData {
    const order = entry.orderId ? orders.get(entry.orderId) : undefined;
    return {
      id: entry.id,
      environment: entry.environment,
      runId: entry.runId,
      position: entry.position,
      printerId: entry.printerId,
      printerName: this.printerName(entry.environment, entry.printerId),
      operator: entry.operator,
      orderId: entry.orderId,
      orderRef: order?.orderRef ?? null,
      barcode: order?.barcode ?? null,
      recipient: order?.recipient ?? null,
      bundleId: entry.bundleId,
      bundlePosition: entry.bundlePosition,
      bundleCount: entry.bundleCount,
      format: entry.format,
      state: entry.state,
      reason: entry.reason,
      reprintOf: entry.reprintOf,
      decidedBy: entry.decidedBy,
      decidedAt: entry.decidedAt,
      queuedAt: entry.queuedAt,
      fetchedAt: entry.fetchedAt,
      sentAt: entry.sentAt,
      printedAt: entry.printedAt,
      failedAt: entry.failedAt,
      uncertainAt: entry.uncertainAt,
      voidedAt: entry.voidedAt,
      voidedBy: entry.voidedBy,
      voidReason: entry.voidReason,
      secondCopy: entry.secondCopyCertainty && entry.secondCopyFault ? { certainty: entry.secondCopyCertainty, fault: entry.secondCopyFault } : null,
    };
  }

  progressData(run: PrintRun): RunProgressData {
    const counts = run.counts();
    return {
      runId: run.runId,
      kind: run.run.kind,
      printerId: run.printerId,
      state: run.state,
      pauseReason: run.pauseReason,
      counts,
      done: run.done(),
      total: counts.total,
      at: new Date(this.deps.clock.now()).toISOString(),
    };
  }

  private printerName(environment: Environment, printerId: string): string | null {
    return this.deps.printers.lastKnown(environment, printerId)?.name ?? null;
  }

  /** The name, read from the store when this process has not read the printers yet (a run offered at the next start). */
  private async readPrinterName(environment: Environment, printerId: string): Promise<string | null> {
    return this.printerName(environment, printerId) ?? (await this.deps.printers.get(environment, printerId))?.name ?? null;
  }
}
