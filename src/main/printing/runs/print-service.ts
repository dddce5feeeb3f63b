/**
 * The printing core: one queue per printer, the runs in this process, recovery of runs a crash
 * or power loss interrupted, the user's controls (pause, resume, cancel, retry, decide) and the
 * events the screen follows. Single prints and bundle runs (single-print.ts, bundle-print.ts)
 * plan their labels and hand them to `launch`.
 */
import { randomUUID } from 'node:crypto';
import type { Environment } from '../../../shared/contract/app';
import type { JournalEntryData, PauseReasonData, RunProgressData, RunSummaryData } from '../../../shared/contract/printing';
import { StationError } from '../../../shared/errors';
import { printerAddressKey } from '../../../shared/zebra/printer-address';
import type { DeliveryClient } from '../../api';
import type { EventBus } from '../../contract/event-bus';
import type { Logger } from '../../logging/logger';
import type { OrderIndex } from '../../orders/order-index';
import type { StationSettings } from '../../settings/station-settings';
import type { PrintActivity } from '../../updates/print-activity';
import type { JournalRow, NewLabel, RunKind, RunOptions, RunRow } from '../journal/journal-types';
import { emptyRunOptions, type PrintJournal } from '../journal/print-journal';
import { PrinterQueue, type PrinterQueueState, type PrinterQueueTiming } from '../queue/printer-queue';
import type { PrinterRecord, PrinterRegistry } from '../printers';
import type { PrinterTransports } from '../transports/printer-transports';
import { BundleDocuments, classifyFetchFailure, createLabelDocuments } from './label-documents';
import { PrintRun, type DocumentSource, type RunObserver } from './print-run';

export interface PrintingOptions {
  queueTiming?: Partial<PrinterQueueTiming>;
  /** Labels fetched ahead of the printer (the client's own limit caps requests in flight). Default 8. */
  fetchAhead?: number;
  /** Wait before fetching again after the Delivery API could not be reached. Default 5 s. */
  serviceRetryMs?: number;
  /** Least time between two progress events of a run. Default 250 ms. */
  progressIntervalMs?: number;
}

export interface PrintServiceDeps {
  journal: PrintJournal;
  printers: PrinterRegistry;
  transports: PrinterTransports;
  orders: OrderIndex;
  settings: StationSettings;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  events: EventBus;
  logger: Logger;
  options?: PrintingOptions;
}

interface QueueEntry {
  queue: PrinterQueue;
  printerIds: Set<string>;
  maxFormats: number;
}

export interface LaunchInput {
  environment: Environment;
  kind: RunKind;
  printer: PrinterRecord;
  operator: string;
  options: RunOptions;
  labels: NewLabel[];
  /** Documents for the labels; by default fetched from the Delivery API per the journal row. */
  documents?: DocumentSource;
  /** Bundle PDFs already fetched while planning, so they are not fetched twice. */
  bundles?: BundleDocuments;
}

const stationStopped: Omit<PauseReasonData, 'since'> = {
  by: 'station',
  code: 'PRINTER_OFFLINE',
  message: 'The station stopped during this run.',
  action: 'Press Resume to print the rest. Labels already sent are not sent again; labels that were being sent are listed as uncertain.',
  fault: null,
};

export class PrintService {
  private readonly queues = new Map<string, QueueEntry>();
  private readonly runs = new Map<string, PrintRun>();
  private readonly bundleDocuments = new Map<string, BundleDocuments>();
  private readonly idleListeners = new Set<() => void>();
  private readonly progressTimers = new Map<string, NodeJS.Timeout>();
  private readonly progressSentAt = new Map<string, number>();
  private closed = false;
  /** This process, as the owner of the runs it prints. */
  private readonly owner = { pid: process.pid, instance: randomUUID() };
  readonly activity: PrintActivity;

  constructor(private readonly deps: PrintServiceDeps) {
    this.activity = {
      isQueueIdle: () => this.isIdle(),
      onQueueIdle: (listener) => {
        this.idleListeners.add(listener);
        return () => this.idleListeners.delete(listener);
      },
    };
  }

  get journal(): PrintJournal {
    return this.deps.journal;
  }

  /**
   * At start-up: in runs whose station process is gone, labels that were being sent become
   * uncertain and the runs wait to be resumed. Runs another live process (the app next to a CLI
   * command) is printing are left alone.
   */
  recover(which: (run: RunRow) => boolean = (run) => this.isOrphan(run)): void {
    const report = this.deps.journal.recoverInterrupted(
      { ...stationStopped, since: new Date().toISOString() },
      'The station stopped while sending this label, so it may or may not have printed. Check the printer and say whether it came out.',
      'Not sent: the station stopped before this label reached the printer.',
      which,
    );
    if (report.pausedRuns.length + report.uncertain.length + report.closedRuns.length > 0) {
      this.deps.logger.warn('print runs interrupted by a stop were recovered', {
        pausedRuns: report.pausedRuns.length,
        closedRuns: report.closedRuns.length,
        uncertainLabels: report.uncertain.length,
      });
    }
  }

  /** The queue of a printer (one per physical route, shared by printers with the same address). */
  queueFor(printer: PrinterRecord): PrinterQueue {
    const key = printerAddressKey(printer.address);
    let entry = this.queues.get(key);
    if (!entry) {
      const transport = this.deps.transports.forPrinter(printer.address);
      const created: QueueEntry = {
        printerIds: new Set([printer.id]),
        maxFormats: printer.options.maxFormatsInBuffer,
        queue: undefined as unknown as PrinterQueue,
      };
      created.queue = new PrinterQueue({
        transport,
        maxFormatsInBuffer: () => created.maxFormats,
        logger: this.deps.logger,
        ...(this.deps.options?.queueTiming ? { timing: this.deps.options.queueTiming } : {}),
        onState: (state) => this.publishPrinterState(created, state),
        onIdle: () => this.notifyIdleIfAll(),
      });
      this.queues.set(key, created);
      entry = created;
    }
    entry.printerIds.add(printer.id);
    entry.maxFormats = printer.options.maxFormatsInBuffer;
    return entry.queue;
  }

  /** A printer's settings changed: the buffer limit applies from the next label. */
  printerChanged(printer: PrinterRecord): void {
    const entry = this.queues.get(printerAddressKey(printer.address));
    if (entry) entry.maxFormats = printer.options.maxFormatsInBuffer;
  }

  /** Labels of this station pending on a printer (in flight or in its buffer). */
  pendingOn(printer: PrinterRecord): number {
    return this.queues.get(printerAddressKey(printer.address))?.queue.labelsPending ?? 0;
  }

  /** Journal rows for a new run, then the run itself, started. */
  launch(input: LaunchInput): PrintRun {
    if (this.closed) throw new StationError('INTERNAL', 'The station is shutting down; nothing more is printed.');
    // A printer that cannot be reached this way at all (say, PDF on Windows without SumatraPDF) fails before anything is journaled.
    this.queueFor(input.printer);
    const { run, entries } = this.deps.journal.createRun({
      environment: input.environment,
      kind: input.kind,
      printerId: input.printer.id,
      operator: input.operator,
      options: { ...input.options, owner: this.owner },
      labels: input.labels,
    });
    return this.startRun(run, entries, input.printer, input.documents, input.bundles);
  }

  private startRun(run: RunRow, entries: JournalRow[], printer: PrinterRecord, documents?: DocumentSource, planned?: BundleDocuments): PrintRun {
    const queue = this.queueFor(printer);
    const bundles = planned ?? new BundleDocuments(() => this.deps.clientFor(run.environment));
    this.bundleDocuments.set(run.id, bundles);
    const printRun = new PrintRun({
      run,
      entries,
      journal: this.deps.journal,
      queue,
      documents: createLabelDocuments({ client: () => this.deps.clientFor(run.environment), printer, bundles, given: documents, printers: this.deps.printers, transport: this.deps.transports.forPrinter(printer.address), logger: this.deps.logger }),
      classifyFetchFailure,
      observer: this.observer,
      logger: this.deps.logger,
      fetchAhead: this.deps.options?.fetchAhead ?? 8,
      serviceRetryMs: this.deps.options?.serviceRetryMs ?? 5000,
    });
    this.runs.set(run.id, printRun);
    printRun.start();
    return printRun;
  }

  /** The bundle documents a planned run shares with its labels (fetched during planning). */
  bundleDocumentsFor(runId: string): BundleDocuments | undefined {
    return this.bundleDocuments.get(runId);
  }

  liveRun(runId: string): PrintRun | undefined {
    return this.runs.get(runId);
  }

  // ── controls ─────────────────────────────────────────────────────────────

  pause(environment: Environment, runId: string, operator: string): RunSummaryData {
    const record = this.requireRun(environment, runId);
    const live = this.runs.get(runId);
    if (live) live.pause(operator);
    else if (record.state !== 'paused' && record.state !== 'running') throw notRunning(runId);
    else if (!this.isOrphan(record)) throw elsewhere(record);
    // Otherwise the station was stopped in it: it is paused already and waits for resume.
    return this.summary(runId);
  }

  resume(environment: Environment, runId: string): RunSummaryData {
    const record = this.requireRun(environment, runId);
    const live = this.runs.get(runId);
    if (live) {
      live.resume();
      return this.summary(runId);
    }
    if (record.state !== 'paused' && record.state !== 'running') throw notRunning(runId);
    if (!this.isOrphan(record)) throw elsewhere(record);
    // A run the station was stopped in: rebuilt from the journal, carrying on from the first label not sent.
    const printer = this.deps.printers.get(environment, record.printerId);
    if (!printer) {
      throw new StationError('PRINTER_NOT_FOUND', `The printer of this run is no longer set up. Add it again, or cancel the run.`);
    }
    // Settle what the earlier owner left mid-send before taking the run over.
    this.recover((run) => run.id === runId);
    const options = { ...record.options, owner: this.owner };
    this.deps.journal.updateRunOptions(runId, options);
    const run = this.startRun({ ...this.deps.journal.requireRun(runId), options }, this.deps.journal.entries(runId), printer);
    run.resume();
    return this.summary(runId);
  }

  cancel(environment: Environment, runId: string, operator: string): RunSummaryData {
    const record = this.requireRun(environment, runId);
    const live = this.runs.get(runId);
    if (live) {
      live.cancel(operator);
      return this.summary(runId);
    }
    if (record.state !== 'paused' && record.state !== 'running') throw notRunning(runId);
    if (!this.isOrphan(record)) throw elsewhere(record);
    this.recover((run) => run.id === runId);
    const reason = operator ? `Cancelled by ${operator} before it was sent.` : 'Cancelled before it was sent.';
    this.deps.journal.failUnsent(runId, reason);
    this.deps.journal.finishRun(runId, 'cancelled');
    const summary = this.summary(runId);
    this.deps.events.emit('printing.finished', summary);
    return summary;
  }

  /** A new run with the failed labels of a run, in their order. */
  retryFailed(environment: Environment, runId: string, operator: string): RunSummaryData {
    const record = this.requireRun(environment, runId);
    const failed = this.deps.journal.entries(runId).filter((entry) => entry.state === 'failed' && entry.decidedAt === null);
    if (failed.length === 0) throw new StationError('INVALID_INPUT', 'This run has no failed labels to print again.');
    const printer = this.deps.printers.get(environment, record.printerId);
    if (!printer) throw new StationError('PRINTER_NOT_FOUND', 'The printer of this run is no longer set up. Choose another printer and print the bundles again.');
    const run = this.launch({
      environment,
      kind: 'retry',
      printer,
      operator,
      options: { ...emptyRunOptions(), retryOf: runId, reverse: record.options.reverse },
      labels: failed.map((entry) => ({
        orderId: entry.orderId,
        bundleId: entry.bundleId,
        bundlePosition: entry.bundlePosition,
        bundleCount: entry.bundleCount,
        format: entry.format === 'gfa' && entry.orderId !== null ? 'zpl' : entry.format,
      })),
    });
    return this.summary(run.runId);
  }

  /** Settles an uncertain label; "print-again" starts a run that prints it, linked to it. */
  decide(environment: Environment, entryId: number, decision: 'printed' | 'print-again', operator: string): { entry: JournalEntryData; reprintRun: RunSummaryData | null } {
    const before = this.deps.journal.entry(entryId);
    if (!before || before.environment !== environment) throw new StationError('INVALID_INPUT', `There is no label ${entryId} in the journal of this environment.`);
    const after = this.deps.journal.decide(entryId, decision, operator);
    if (!after) {
      throw new StationError('INVALID_INPUT', `Label ${entryId} is ${before.decidedAt ? 'already decided' : before.state}, not an uncertain label waiting for a decision.`);
    }
    this.deps.events.emit('printing.label', this.entryData(after));
    let reprintRun: RunSummaryData | null = null;
    if (decision === 'print-again') {
      const printer = this.deps.printers.get(environment, after.printerId);
      if (!printer) throw new StationError('PRINTER_NOT_FOUND', 'The printer of this label is no longer set up; print the order again from the scan screen.');
      const run = this.launch({
        environment,
        kind: 'retry',
        printer,
        operator,
        options: { ...emptyRunOptions(), retryOf: after.runId, reprint: { operator, reason: 'uncertain label printed again' } },
        labels: [
          {
            orderId: after.orderId,
            bundleId: after.bundleId,
            bundlePosition: after.bundlePosition,
            bundleCount: after.bundleCount,
            format: after.format === 'gfa' && after.orderId !== null ? 'zpl' : after.format,
            reprintOf: after.id,
            reason: `Printed again: ${operator} decided the uncertain label ${after.id} did not print.`,
          },
        ],
      });
      reprintRun = this.summary(run.runId);
    }
    return { entry: this.entryData(after), reprintRun };
  }

  // ── reading ──────────────────────────────────────────────────────────────

  summary(runId: string): RunSummaryData {
    const record = this.deps.journal.requireRun(runId);
    const live = this.runs.get(runId);
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
      printerName: this.deps.printers.get(run.environment, run.printerId)?.name ?? null,
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
      resumable: live ? run.state === 'paused' : (run.state === 'paused' || run.state === 'running') && this.isOrphan(run),
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
      printerName: this.deps.printers.get(entry.environment, entry.printerId)?.name ?? null,
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
    };
  }

  /** No live station process is printing the run (its owner is gone, or it never had one). */
  private isOrphan(run: RunRow): boolean {
    const owner = run.options.owner;
    if (!owner) return true;
    if (owner.instance === this.owner.instance) return !this.runs.has(run.id);
    // A process with this one's pid but another instance was an earlier life of the same pid.
    if (owner.pid === process.pid) return true;
    return !processAlive(owner.pid);
  }

  private requireRun(environment: Environment, runId: string): RunRow {
    const record = this.deps.journal.run(runId);
    if (!record || record.environment !== environment) throw new StationError('INVALID_INPUT', `There is no print run ${runId} in the ${environment} environment.`);
    return record;
  }

  // ── events and activity ──────────────────────────────────────────────────

  private readonly observer: RunObserver = {
    progress: (run, important) => this.progress(run, important),
    label: (run, entry) => {
      if (run.urgent || entry.state === 'failed' || entry.state === 'uncertain') this.deps.events.emit('printing.label', this.entryData(entry));
    },
    finished: (run) => {
      const timer = this.progressTimers.get(run.runId);
      if (timer) clearTimeout(timer);
      this.progressTimers.delete(run.runId);
      this.progressSentAt.delete(run.runId);
      this.runs.delete(run.runId);
      this.bundleDocuments.get(run.runId)?.clear();
      this.bundleDocuments.delete(run.runId);
      this.deps.events.emit('printing.finished', this.summary(run.runId));
      this.notifyIdleIfAll();
    },
  };

  private progress(run: PrintRun, important: boolean): void {
    const interval = this.deps.options?.progressIntervalMs ?? 250;
    const last = this.progressSentAt.get(run.runId) ?? 0;
    const now = Date.now();
    const emit = (): void => {
      this.progressTimers.delete(run.runId);
      this.progressSentAt.set(run.runId, Date.now());
      this.deps.events.emit('printing.progress', this.progressData(run));
    };
    if (important || now - last >= interval) {
      const timer = this.progressTimers.get(run.runId);
      if (timer) clearTimeout(timer);
      emit();
      return;
    }
    if (!this.progressTimers.has(run.runId)) {
      const timer = setTimeout(emit, interval - (now - last));
      timer.unref();
      this.progressTimers.set(run.runId, timer);
    }
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
      at: new Date().toISOString(),
    };
  }

  private publishPrinterState(entry: QueueEntry, state: PrinterQueueState): void {
    const at = new Date().toISOString();
    for (const printerId of entry.printerIds) {
      this.deps.events.emit('printers.state', { printerId, state: state.state, fault: state.fault, labelsPending: state.labelsPending, at });
    }
  }

  private isIdle(): boolean {
    for (const entry of this.queues.values()) if (!entry.queue.idle) return false;
    return this.runs.size === 0;
  }

  private notifyIdleIfAll(): void {
    if (!this.isIdle()) return;
    for (const listener of [...this.idleListeners]) {
      try {
        listener();
      } catch (error) {
        this.deps.logger.warn('print idle listener failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  /** Stops every queue after the label it is sending; unfinished runs are offered for resume next time. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const since = new Date().toISOString();
    for (const run of this.runs.values()) run.interrupt({ ...stationStopped, since });
    await Promise.all([...this.queues.values()].map((entry) => entry.queue.close()));
    for (const timer of this.progressTimers.values()) clearTimeout(timer);
    this.progressTimers.clear();
    // This process's runs are settled the way a crash would settle them; other processes' runs are theirs.
    const mine = new Set(this.runs.keys());
    this.runs.clear();
    this.recover((run) => mine.has(run.id));
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function elsewhere(run: RunRow): StationError {
  return new StationError('INVALID_INPUT', `This run is being printed by another window of the station (process ${run.options.owner?.pid ?? '?'}). Control it there.`);
}

function notRunning(runId: string): StationError {
  return new StationError('INVALID_INPUT', `Print run ${runId} is finished or cancelled; nothing is left to do.`);
}
