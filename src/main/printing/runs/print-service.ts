/**
 * The printing core of one journal place: the runs in this process written to that journal, on
 * the station's one queue per printer (print-queues.ts, shared by the places). Single prints and
 * bundle runs (single-print.ts, bundle-print.ts) plan their labels and hand them to `launch`.
 * The rest lives in small parts this class wires together: the queues (queue-registry.ts), who
 * owns a run and what a stop left behind (run-ownership.ts), the user's controls
 * (run-controls.ts), what the screen reads (run-read-models.ts), progress events at a bearable
 * rate (progress-throttle.ts) and telling the updater when printing is quiet (idle-tracker.ts).
 */
import type { Environment } from '../../../shared/contract/app';
import type { JournalEntryData, RunProgressData, RunSummaryData } from '../../../shared/contract/printing';
import { StationError } from '../../../shared/errors';
import type { DeliveryClient } from '../../api';
import type { EventBus } from '../../contract/event-bus';
import type { Logger } from '../../logging/logger';
import type { IndexedOrder, OrderIndex } from '../../orders/order-index';
import type { StationSettings } from '../../settings/station-settings';
import type { PrintActivity } from '../../updates/print-activity';
import type { JournalRow, NewLabel, RunKind, RunOptions, RunRow } from '../journal/journal-types';
import type { PrintJournal } from '../journal/print-journal';
import { systemClock, type QueueClock } from '../queue/clock';
import type { LabelMarkStore } from '../queue/label-marks';
import { isUnreachable } from '../../store';
import type { PrinterQueue, PrinterQueueTiming } from '../queue/printer-queue';
import type { PrinterRecord, PrinterRegistry } from '../printers';
import type { PrinterLeases } from '../printer-leases';
import type { PrinterTransports } from '../transports/printer-transports';
import { BundleDocuments, classifyFetchFailure, createLabelDocuments } from './label-documents';
import type { DocumentSource, FloorLead, PreparedDocument, PrintRun, PrintRunDeps, RunObserver } from './print-run';
import { ShiftRun } from './shift-run';
import { WaitedPrint } from './waited-print';
import { personWaits, writtenAheadOfDisk, type WaitedKind } from '../journal/run-kinds';
import { ProgressThrottle } from './progress-throttle';
import { RunControls } from './run-controls';
import { heartbeatDefaults, RunOwnership, stationStopped } from './run-ownership';
import { currentBoot, type BootMark } from '../../boot-identity';
import { RunReadModels } from './run-read-models';
import { currentPrinter } from '../status/identity-watch';
import type { RollWatch } from '../status/roll-watch';
import type { PrintQueues } from './print-queues';
import { errorText } from '../../../shared/error-text';

export interface PrintingOptions {
  queueTiming?: Partial<PrinterQueueTiming>;
  /** Labels fetched ahead of the printer (the client's own limit caps requests in flight). Default 8. */
  fetchAhead?: number;
  /** Wait before fetching again after the Delivery API could not be reached. Default 5 s. */
  serviceRetryMs?: number;
  /** Least time between two progress events of a run. Default 250 ms. */
  progressIntervalMs?: number;
  /** The computer's boot this process runs in (run-ownership.ts). Default: read from the system. */
  boot?: BootMark;
  /** How often this bench renews the heartbeat of the runs it prints, and after how long another bench reads it as gone (run-ownership.ts). */
  heartbeat?: { intervalMs: number; goneAfterMs: number };
  /** The roll watch's quiet time after a label's look at a printer (status/roll-watch.ts). Default 500 ms. */
  rollQuietMs?: number;
}

export interface PrintServiceDeps {
  journal: PrintJournal;
  printers: PrinterRegistry;
  /** The station's queues, one per printer, shared with the print service of the other journal place. */
  queues: PrintQueues;
  /** The warehouse's printer leases (none on one bench). */
  leases?: PrinterLeases;
  transports: PrinterTransports;
  orders: OrderIndex;
  settings: StationSettings;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  events: EventBus;
  logger: Logger;
  /** What the printer said as each label reached it, kept beside the journal for runs resumed after a restart. */
  marks?: LabelMarkStore;
  clock?: QueueClock;
  options?: PrintingOptions;
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
  /** The first label's document, already asked for with fetchFirstLabel. */
  firstDocument?: Promise<PreparedDocument>;
}

export class PrintService {
  private readonly runs = new Map<string, PrintRun>();
  // Who waits for this service's runs to end.
  private readonly runEnded = new Set<() => void>();
  private readonly bundleDocuments = new Map<string, BundleDocuments>();
  private readonly clock: QueueClock;
  private readonly ownership: RunOwnership;
  private readonly read: RunReadModels;
  private readonly controls: RunControls;
  private readonly throttle: ProgressThrottle;
  /** The roll each Zebra holds, read once per connection off the labels' path (status/roll-watch.ts). */
  readonly rolls: RollWatch;
  private closed = false;
  /** Stops the heartbeat of this process's runs (running only while it has runs). */
  private heartbeat: AbortController | null = null;

  constructor(private readonly deps: PrintServiceDeps) {
    this.clock = deps.clock ?? systemClock;
    this.rolls = deps.queues.rolls;
    deps.queues.join({
      none: () => this.runs.size === 0,
      interrupt: () => {
        const since = new Date(this.clock.now()).toISOString();
        for (const run of this.runs.values()) run.interrupt({ ...stationStopped, since });
      },
    });
    this.ownership = new RunOwnership(
      deps.journal,
      deps.logger,
      this.clock,
      (runId) => this.runs.has(runId),
      deps.options?.boot ?? currentBoot(),
      this.heartbeatTiming.goneAfterMs,
    );
    this.read = new RunReadModels({
      journal: deps.journal,
      printers: deps.printers,
      orders: deps.orders,
      clock: this.clock,
      liveRun: (runId) => this.runs.get(runId),
      isOrphan: (run) => this.ownership.isOrphan(run),
    });
    this.controls = new RunControls({
      journal: deps.journal,
      printers: deps.printers,
      claim: (printer) => this.claimPrinter(printer),
      events: deps.events,
      ownership: this.ownership,
      read: this.read,
      liveRun: (runId) => this.runs.get(runId),
      launch: (input) => this.launch(input),
      restart: (run, entries, printer) => this.startRun(run, entries, printer),
    });
    this.throttle = new ProgressThrottle(deps.options?.progressIntervalMs ?? 250, this.clock);
  }

  private get queues() {
    return this.deps.queues.registry;
  }

  get journal(): PrintJournal {
    return this.deps.journal;
  }

  get activity(): PrintActivity {
    return this.deps.queues.activity;
  }

  /**
   * At start-up: in runs whose station process is gone, labels that were being sent become
   * uncertain and the runs wait to be resumed. Runs another live process (the app next to a CLI
   * command) is printing are left alone.
   */
  async recover(which?: (run: RunRow) => boolean): Promise<void> {
    await this.ownership.recover(which);
  }

  /** The queue of a printer (one per physical route, shared by printers with the same address). */
  queueFor(printer: PrinterRecord): PrinterQueue {
    return this.queues.queueFor(printer);
  }

  /**
   * Before a run is launched on a printer: on a warehouse's shared store, takes the printer's
   * lease for this bench (PRINTER_LEASED when another bench drives it; queue-registry.ts).
   */
  claimPrinter(printer: PrinterRecord): Promise<void> {
    return this.queues.claim(printer, this.deps.leases);
  }

  /**
   * Looks at a printer as its next label would (status/identity-watch.ts): a network or USB Zebra's
   * connection opens, and a new connection's printer says who it is. A printer that does not
   * answer is left for the label to find out.
   */
  async lookAtPrinter(printer: PrinterRecord): Promise<void> {
    await currentPrinter({ printers: this.deps.printers, transport: this.deps.transports.forPrinter(printer.address), logger: this.deps.logger, looked: this.looked }, printer, { justRead: true });
  }

  /** A printer's settings changed: the buffer limit applies from the next label. */
  printerChanged(printer: PrinterRecord): void {
    this.queues.printerChanged(printer);
  }

  /** Runs of this process on this printer, live in memory. */
  async runsOn(environment: Environment, printer: PrinterRecord): Promise<RunRow[]> {
    const unfinished = await this.deps.journal.runRecords.runs(environment, { unfinished: true });
    return unfinished.filter((run) => run.printerId === printer.id && this.liveRun(run.id) !== undefined);
  }

  /**
   * Runs on this printer that another live station process is printing (the app while a CLI
   * command asks, or the other way round): running, or paused by a printer fault (its queue then
   * keeps asking the printer). Their process holds the printer's connection.
   */
  async runsHoldingPrinterElsewhere(environment: Environment, printer: PrinterRecord): Promise<RunRow[]> {
    const unfinished = await this.deps.journal.runRecords.runs(environment, { unfinished: true });
    return unfinished.filter(
      (run) =>
        run.printerId === printer.id &&
        this.liveRun(run.id) === undefined &&
        !this.ownership.isOrphan(run) &&
        (run.state === 'running' || run.pauseReason?.by === 'printer'),
    );
  }

  /** Labels of this station pending on a printer (in flight or in its buffer). */
  pendingOn(printer: PrinterRecord): number {
    return this.queues.pendingOn(printer);
  }

  /**
   * A scan's label, asked for before its run is written, so that the service's answer is awaited
   * while the journal and the queue get ready (hand the promise to launch as `firstDocument`).
   * What refuses a launch before anything is journalled refuses here before the service is asked.
   */
  fetchFirstLabel(environment: Environment, printer: PrinterRecord, label: NewLabel): Promise<PreparedDocument> {
    this.requireLaunchable(printer);
    // The caller chose the printer a moment ago, from the registry: its record is as fresh as a second read.
    const document = this.documentsFor(environment, printer, { printerJustRead: true })(label);
    // Its failure is the run's to report, once launched; until then nobody else listens.
    document.catch(() => undefined);
    return document;
  }

  private requireLaunchable(printer: PrinterRecord): void {
    if (this.closed) throw new StationError('INTERNAL', 'The station is shutting down; nothing more is printed.');
    // A printer that cannot be reached this way at all (say, PDF on Windows without SumatraPDF) fails before anything is journalled.
    this.queueFor(printer);
  }

  private documentsFor(
    environment: Environment,
    printer: PrinterRecord,
    { given, bundles, printerJustRead = false }: { given?: DocumentSource; bundles?: BundleDocuments; printerJustRead?: boolean } = {},
  ): DocumentSource {
    return createLabelDocuments({
      printerJustRead,
      client: () => this.deps.clientFor(environment),
      printer,
      bundles: bundles ?? new BundleDocuments(() => this.deps.clientFor(environment)),
      given,
      printers: this.deps.printers,
      transport: this.deps.transports.forPrinter(printer.address),
      logger: this.deps.logger,
      looked: this.looked,
    });
  }

  /** Each look at a printer for a label: the roll watch keeps quiet meanwhile and reads a new connection's roll after. */
  private readonly looked = (printer: PrinterRecord, connection: 'known' | 'new'): void => this.rolls.looked(printer, connection);

  /**
   * Journal rows for a new run, then the run itself, started: the one label a person waits for
   * (waited-print.ts) or a shift run (shift-run.ts), as its kind says.
   */
  async launch(input: LaunchInput & { kind: WaitedKind }): Promise<WaitedPrint>;
  async launch(input: LaunchInput & { kind: Exclude<RunKind, WaitedKind> }): Promise<ShiftRun>;
  async launch(input: LaunchInput): Promise<PrintRun> {
    this.requireLaunchable(input.printer);
    const { run, entries, onDisk } = await this.deps.journal.runRecords.createRun({
      environment: input.environment,
      kind: input.kind,
      printerId: input.printer.id,
      operator: input.operator,
      options: { ...input.options, owner: this.ownership.owner },
      labels: input.labels,
      // A scan's run reaches the disk while its label's GET is under way (journal: createRun).
      waitForDisk: !writtenAheadOfDisk(input),
    });
    return this.startRun(run, entries, input.printer, input.documents, input.bundles, input.firstDocument, onDisk);
  }

  private async startRun(
    run: RunRow,
    entries: JournalRow[],
    printer: PrinterRecord,
    documents?: DocumentSource,
    planned?: BundleDocuments,
    firstDocument?: Promise<PreparedDocument>,
    onDisk: Promise<void> = Promise.resolve(),
  ): Promise<PrintRun> {
    const queue = this.queueFor(printer);
    const bundles = planned ?? new BundleDocuments(() => this.deps.clientFor(run.environment));
    this.bundleDocuments.set(run.id, bundles);
    const routed = this.documentsFor(run.environment, printer, { given: documents, bundles });
    let first = firstDocument;
    const deps: PrintRunDeps = {
      run,
      entries,
      journal: this.deps.journal,
      ...(this.deps.marks ? { marks: this.deps.marks } : {}),
      queue,
      // The document asked for ahead is the first label's, once; anything after is fetched as usual.
      documents: (entry) => {
        const ahead = first;
        if (!ahead || entry.id !== entries[0]?.id) return routed(entry);
        first = undefined;
        return ahead;
      },
      rowsOnDisk: onDisk,
      classifyFetchFailure,
      observer: this.observer,
      logger: this.deps.logger,
      fetchAhead: this.deps.options?.fetchAhead ?? 8,
      serviceRetryMs: this.deps.options?.serviceRetryMs ?? 5000,
      clock: this.clock,
    };
    const printRun = personWaits(run) ? new WaitedPrint(deps) : new ShiftRun(deps);
    this.runs.set(run.id, printRun);
    this.keepHeartbeat();
    await printRun.start();
    return printRun;
  }

  /**
   * Resolves once no run of this service is live any more (local-only printing hands the bench's
   * labels to the merge only then: printing/offline).
   */
  async runsEnded(): Promise<void> {
    while (this.runs.size > 0) {
      await new Promise<void>((resolve) => {
        const ended = () => {
          this.runEnded.delete(ended);
          resolve();
        };
        this.runEnded.add(ended);
      });
    }
  }

  private get heartbeatTiming(): { intervalMs: number; goneAfterMs: number } {
    return this.deps.options?.heartbeat ?? heartbeatDefaults;
  }

  /**
   * While this process prints runs, it renews their heartbeat at a fixed interval, so another
   * bench can tell a run whose bench is gone from one still printing (run-ownership.ts).
   */
  private keepHeartbeat(): void {
    if (this.heartbeat || this.closed) return;
    const stop = new AbortController();
    this.heartbeat = stop;
    void (async () => {
      while (!stop.signal.aborted && this.runs.size > 0) {
        await this.clock.sleep(this.heartbeatTiming.intervalMs, stop.signal);
        if (stop.signal.aborted) break;
        await this.deps.journal.runRecords.renewHeartbeat([...this.runs.keys()]).catch((error: unknown) => {
          this.deps.logger.warn('run heartbeat not renewed', { error: errorText(error) });
        });
      }
      if (this.heartbeat === stop) this.heartbeat = null;
    })();
  }

  /** The bundle documents a planned run shares with its labels (fetched during planning). */
  bundleDocumentsFor(runId: string): BundleDocuments | undefined {
    return this.bundleDocuments.get(runId);
  }

  liveRun(runId: string): PrintRun | undefined {
    return this.runs.get(runId);
  }

  // ── controls (run-controls.ts) ───────────────────────────────────────────

  /** `lead`: a lead who paused it from the floor at another bench. */
  pause(environment: Environment, runId: string, operator: string, lead: FloorLead | null = null): Promise<RunSummaryData> {
    return this.controls.pause(environment, runId, operator, lead);
  }

  resume(environment: Environment, runId: string): Promise<RunSummaryData> {
    return this.controls.resume(environment, runId);
  }

  cancel(environment: Environment, runId: string, operator: string): Promise<RunSummaryData> {
    return this.controls.cancel(environment, runId, operator);
  }

  retryFailed(environment: Environment, runId: string, operator: string): Promise<RunSummaryData> {
    return this.controls.retryFailed(environment, runId, operator);
  }

  decide(environment: Environment, entryId: number, decision: 'printed' | 'print-again', operator: string): Promise<{ entry: JournalEntryData; reprintRun: RunSummaryData | null }> {
    return this.controls.decide(environment, entryId, decision, operator);
  }

  // ── reading (run-read-models.ts) ─────────────────────────────────────────

  summary(runId: string): Promise<RunSummaryData> {
    return this.read.summary(runId);
  }

  runSummaries(environment: Environment, options: { unfinished?: boolean; limit?: number }): Promise<RunSummaryData[]> {
    return this.read.runSummaries(environment, options);
  }

  runEntries(environment: Environment, runId: string): Promise<JournalEntryData[]> {
    return this.read.runEntries(environment, runId);
  }

  journalEntries(environment: Environment, options: { orderId?: string; limit?: number }): Promise<JournalEntryData[]> {
    return this.read.journalEntries(environment, options);
  }

  entryData(entry: JournalRow): Promise<JournalEntryData> {
    return this.read.entryData(entry);
  }

  /** The entry with its order as the caller already read it (see RunReadModels.entryDataOf). */
  entryDataOf(entry: JournalRow, order: IndexedOrder | null): JournalEntryData {
    return this.read.entryDataOf(entry, order);
  }

  progressData(run: PrintRun): RunProgressData {
    return this.read.progressData(run);
  }

  // ── events ───────────────────────────────────────────────────────────────

  /**
   * A label's and a finished run's events read the order index (the store engine, asynchronous):
   * each is read at once and emitted after the ones before it, so they go out in the order they happened.
   */
  private emitted: Promise<void> = Promise.resolve();

  private emitInOrder(ready: Promise<() => void>): void {
    this.emitted = this.emitted
      .then(() => ready)
      .then(
        (emit) => emit(),
        (error: unknown) => this.deps.logger.warn('a printing event could not be read', { reason: errorText(error) }),
      );
  }

  private readonly observer: RunObserver = {
    // Progress needs no order facts: it goes out at once. (A run's finish forgets its throttle,
    // so no progress follows its printing.finished.)
    progress: (run, important) => this.throttle.offer(run.runId, important, () => this.deps.events.emit('printing.progress', this.read.progressData(run))),
    label: (_run, entry) => this.emitInOrder(this.read.entryData(entry).then((data) => () => this.deps.events.emit('printing.label', data))),
    finished: (run) => {
      this.throttle.forget(run.runId);
      this.runs.delete(run.runId);
      for (const ended of [...this.runEnded]) ended();
      this.bundleDocuments.get(run.runId)?.clear();
      this.bundleDocuments.delete(run.runId);
      this.emitInOrder(this.read.summary(run.runId).then((summary) => () => this.deps.events.emit('printing.finished', summary)));
      this.deps.queues.notifyIfIdle();
    },
  };

  /**
   * Stops every queue after the label it is sending (the runs of each journal place first);
   * unfinished runs are offered for resume next time.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.heartbeat?.abort();
    await this.deps.queues.close();
    this.throttle.clear();
    await this.emitted;
    for (const run of this.runs.values()) await run.journalled();
    // This process's runs are settled the way a crash would settle them; other processes' runs are theirs.
    const mine = new Set(this.runs.keys());
    this.runs.clear();
    for (const ended of [...this.runEnded]) ended();
    if (mine.size === 0) return;
    try {
      await this.ownership.recover((run) => mine.has(run.id));
    } catch (error) {
      // The shared store is out of reach: the next start settles these runs as a crash's (their owner is gone then).
      if (!isUnreachable(error)) throw error;
      this.deps.logger.warn('runs left for the next start to settle: the store cannot be reached', { runs: mine.size });
    }
  }
}
