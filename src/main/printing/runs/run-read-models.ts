/**
 * What the screen and the CLI read about runs and labels: run summaries, a run's labels, the
 * journal, progress — joined with the order index (ref, barcode, recipient) and printer names.
 * Live runs answer from memory (their counts move faster than the journal is read).
 */
import type { Environment } from '../../../shared/contract/app';
import type { JournalEntryData, RunProgressData, RunSummaryData } from '../../../shared/contract/printing';
import { StationError } from '../../../shared/errors';
import type { OrderIndex } from '../../orders/order-index';
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
  requireRun(environment: Environment, runId: string): RunRow {
    const record = this.deps.journal.run(runId);
    if (!record || record.environment !== environment) throw new StationError('NOT_FOUND', `There is no print run ${runId} in the ${environment} environment.`, undefined, { facts: { subject: 'run', id: runId } });
    return record;
  }

  summary(runId: string): RunSummaryData {
    const record = this.deps.journal.requireRun(runId);
    const live = this.deps.liveRun(runId);
    const run = live?.run ?? record;
    const entries = this.deps.journal.entries(runId);
    const counts = live ? live.counts() : this.deps.journal.counts(runId);
    const unsettled = entries.filter((entry) => entry.state === 'uncertain' && entry.decidedAt === null);
    const failed = entries.filter((entry) => entry.state === 'failed');
    return {
      runId,
      environment: run.environment,
      kind: run.kind,
      printerId: run.printerId,
      printerName: this.printerName(run.environment, run.printerId),
      operator: run.operator,
      state: run.state,
      pauseReason: run.pauseReason,
      counts,
      reverse: run.options.reverse,
      bundles: run.options.bundles,
      skipped: run.options.skipped,
      uncertain: unsettled.map((entry) => this.entryData(entry)),
      failed: failed.map((entry) => this.entryData(entry)),
      retryOf: run.options.retryOf,
      resumable: live ? run.state === 'paused' : (run.state === 'paused' || run.state === 'running') && this.deps.isOrphan(run),
      createdAt: run.createdAt,
      updatedAt: run.updatedAt,
      finishedAt: run.finishedAt,
    };
  }

  runSummaries(environment: Environment, options: { unfinished?: boolean; limit?: number }): RunSummaryData[] {
    return this.deps.journal.runs(environment, options).map((run) => this.summary(run.id));
  }

  runEntries(environment: Environment, runId: string): JournalEntryData[] {
    this.requireRun(environment, runId);
    return this.deps.journal.entries(runId).map((entry) => this.entryData(entry));
  }

  journalEntries(environment: Environment, options: { orderId?: string; limit?: number }): JournalEntryData[] {
    return this.deps.journal.journal(environment, options).map((entry) => this.entryData(entry));
  }

  entryData(entry: JournalRow): JournalEntryData {
    const order = entry.orderId ? this.deps.orders.get(entry.environment, entry.orderId) : null;
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
    return this.deps.printers.get(environment, printerId)?.name ?? null;
  }
}
