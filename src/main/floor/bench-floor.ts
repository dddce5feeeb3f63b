/**
 * The floor at one bench: on a warehouse's shared store it reports this bench (while the station
 * runs as the app or the web host), follows every bench's reports, sends a lead's actions and
 * applies the ones sent here. On a bench's own file the floor is this bench alone, read when
 * asked: nothing is written or followed, so a scan never shares the file's one connection with it.
 */
import type { Environment } from '../../shared/contract/app';
import type { BenchReportData, FloorActInput, FloorBenchData, FloorCommandData, FloorListData } from '../../shared/contract/floor';
import type { PrinterStatusData, PrinterStateName } from '../../shared/contract/printers';
import type { RunProgressData } from '../../shared/contract/printing';
import { StationError } from '../../shared/errors';
import type { EventBus, EventListener } from '../contract/event-bus';
import type { Logger } from '../logging/logger';
import type { PrinterRegistry } from '../printing/printers';
import { isUnreachable, type StoreEngine } from '../store';
import { benchReport, type BenchStateDeps, type SeenPrinter } from './bench-state';
import { FloorCommands, type Applied } from './floor-commands';
import { FloorReporter, type FloorReporterTiming } from './floor-reporter';
import { FloorStore, type StoredCommand } from './floor-store';
import { systemTimers, type FloorTimers } from './floor-timers';
import { defaultSilentAfterMs, FloorView } from './floor-view';
import { errorText } from '../../shared/error-text';

export interface FloorOptions {
  /** After how long without a report a bench reads as not answering. Default 30 s. */
  silentAfterMs?: number;
  reporter?: Partial<FloorReporterTiming>;
  /** How often an idle printer of this bench is asked how it is (a queue at work says so itself). Default 10 s. */
  printerCheckMs?: number;
  /** How long a lead's action waits for its bench's answer. Default 8 s. */
  answerWithinMs?: number;
  /** An action older than this when its bench sees it is not applied. Default 30 s. */
  expireAfterMs?: number;
  timers?: FloorTimers;
}

export interface BenchFloorDeps {
  engine: StoreEngine;
  benchId: string;
  settings: BenchStateDeps['settings'];
  state: Omit<BenchStateDeps, 'benchId' | 'settings' | 'floor' | 'startedAt'>;
  printers: PrinterRegistry;
  /** Applies a lead's action at this bench with its own controls. */
  apply(command: StoredCommand): Promise<Applied>;
  /** Asks one of this bench's printers how it is (the printers.status call). */
  printerStatus(printerId: string): Promise<PrinterStatusData>;
  events: EventBus;
  logger: Logger;
  options?: FloorOptions;
}

export class BenchFloor {
  private readonly store: FloorStore;
  private readonly timers: FloorTimers;
  private readonly silentAfterMs: number;
  private readonly view: FloorView | null;
  private readonly commands: FloorCommands;
  private readonly printersSeen = new Map<string, SeenPrinter>();
  private readonly progress = new Map<string, RunProgressData>();
  private lastScanAt: string | null = null;
  private checking = false;
  private closed = false;
  private retryFollow: (() => void) | null = null;
  private reporter: FloorReporter | null = null;
  private stopListening: (() => void) | null = null;
  private stopChecks: (() => void) | null = null;
  private readonly startedAt: string;

  constructor(private readonly deps: BenchFloorDeps) {
    this.store = new FloorStore(deps.engine);
    this.timers = deps.options?.timers ?? systemTimers;
    this.silentAfterMs = deps.options?.silentAfterMs ?? defaultSilentAfterMs;
    this.startedAt = new Date(this.timers.now()).toISOString();
    this.view = deps.engine.sharedByBenches
      ? new FloorView({ store: this.store, selfId: deps.benchId, silentAfterMs: this.silentAfterMs, timers: this.timers, emit: (bench) => deps.events.emit('floor.bench', bench), logger: deps.logger })
      : null;
    this.commands = new FloorCommands({
      store: this.store,
      self: { id: deps.benchId, name: () => deps.settings.stationName() },
      operator: () => deps.settings.operator(),
      bench: (benchId) => this.bench(benchId),
      apply: (command) => deps.apply(command),
      events: deps.events,
      clock: () => this.timers.now(),
      ...(deps.options?.answerWithinMs !== undefined ? { answerWithinMs: deps.options.answerWithinMs } : {}),
      ...(deps.options?.expireAfterMs !== undefined ? { expireAfterMs: deps.options.expireAfterMs } : {}),
      logger: deps.logger,
    });
    // What this station's queues and runs say, kept for its report (on its own file too, where the report is built when asked).
    this.stopListening = deps.events.subscribe(this.observe);
  }

  /**
   * A long-running host (the app, the web host) on a shared store: report this bench, follow the
   * floor, apply the actions sent here. Called once the store answers.
   */
  async start(): Promise<void> {
    if (!this.view || this.reporter) return;
    const reporter = new FloorReporter({
      build: (stoppedAt) => this.report(stoppedAt),
      write: async (report, at, changed) => {
        await this.store.writeReport(report, at, changed);
      },
      timers: this.timers,
      ...(this.deps.options?.reporter ? { timing: this.deps.options.reporter } : {}),
      logger: this.deps.logger,
    });
    this.reporter = reporter;
    reporter.start();
    await this.follow(1_000);
    const checkMs = this.deps.options?.printerCheckMs ?? 10_000;
    this.stopChecks = this.timers.every(checkMs, () => void this.checkPrinters());
  }

  /**
   * Follows the floor and takes the actions sent here. A store that cannot be reached as the bench
   * starts (a LISTEN connection that timed out) is tried again after a pause that grows to 10 s:
   * until then the bench still reports, but would not hear the floor or a lead's action.
   */
  private async follow(pauseMs: number): Promise<void> {
    try {
      await this.view?.follow();
      await this.commands.applyHere();
    } catch (error) {
      if (!isUnreachable(error) || this.closed) throw error;
      this.deps.logger.warn('the floor could not be followed yet; trying again', { error: errorText(error) });
      this.retryFollow = this.timers.after(pauseMs, () => void this.follow(Math.min(pauseMs * 2, 10_000)).catch((failure: unknown) => this.deps.logger.error('the floor could not be followed', { error: String(failure) })));
    }
  }

  /**
   * Follows the floor without reporting this bench (the command line's `floor --watch`): each
   * change is a `floor.bench` event. False on a bench's own file, where there is nothing to follow.
   */
  async watch(): Promise<boolean> {
    if (!this.view) return false;
    await this.view.follow();
    return true;
  }

  /** A scan arrived (before it is handled): only remembered, written with the next report. */
  scanned(): void {
    if (!this.reporter) return;
    this.lastScanAt = new Date(this.timers.now()).toISOString();
    this.reporter.changed();
  }

  /** Something the report shows may have changed (a setting, an action applied). */
  changed(): void {
    this.reporter?.changed();
  }

  /** The shared store answers again: report at once. */
  storeBack(): void {
    this.reporter?.storeBack();
  }

  async list(): Promise<FloorListData> {
    if (this.view) return this.view.list();
    return { mode: 'local', benchId: this.deps.benchId, silentAfterMs: this.silentAfterMs, benches: [await this.ownBench()] };
  }

  act(input: FloorActInput): Promise<FloorCommandData> {
    if (!this.view && input.benchId !== this.deps.benchId) {
      throw new StationError('NOT_FOUND', 'This bench works on its own file: the floor is this bench alone.', undefined, { facts: { subject: 'bench', id: input.benchId } });
    }
    return this.commands.act(input, !this.view);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.retryFollow?.();
    this.stopChecks?.();
    this.stopListening?.();
    await this.reporter?.stop();
    await this.commands.close();
    await this.view?.close();
  }

  private async bench(benchId: string): Promise<FloorBenchData | null> {
    if (!this.view) return benchId === this.deps.benchId ? this.ownBench() : null;
    return this.view.bench(benchId) ?? (await this.view.list()).benches.find((bench) => bench.benchId === benchId) ?? null;
  }

  private async ownBench(): Promise<FloorBenchData> {
    const report = await this.report(null);
    return { ...report, answering: 'yes', heardAt: new Date(this.timers.now()).toISOString(), self: true };
  }

  private report(stoppedAt: string | null): Promise<BenchReportData> {
    return benchReport(
      { ...this.deps.state, benchId: this.deps.benchId, settings: this.deps.settings, floor: this.store, startedAt: this.startedAt },
      { printers: this.printersSeen, progress: this.progress, lastScanAt: this.lastScanAt },
      new Date(this.timers.now()),
      stoppedAt,
    );
  }

  /** Events of this station that change its report; each only marks it changed. */
  private readonly observe: EventListener = (name, payload) => {
    switch (name) {
      case 'printers.state': {
        const event = payload as { printerId: string; state: PrinterStateName; fault: SeenPrinter['fault']; labelsPending: number };
        this.printersSeen.set(event.printerId, { state: event.state, fault: event.fault, labelsPending: event.labelsPending });
        break;
      }
      case 'printing.progress': {
        const progress = payload as RunProgressData;
        this.progress.set(progress.runId, progress);
        break;
      }
      case 'printing.finished':
        this.progress.delete((payload as { runId: string }).runId);
        break;
      case 'store.health':
        if ((payload as { state: string }).state === 'online') this.reporter?.storeBack();
        return;
      case 'printing.label':
      case 'floor.actedHere':
      case 'store.offlineMerged':
        break;
      default:
        return;
    }
    this.reporter?.changed();
  };

  /** Idle printers are asked how they are (paper out, switched off); printers at work say so through their queue. */
  private async checkPrinters(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    const environment: Environment = this.deps.settings.environment();
    try {
      const printers = [await this.deps.printers.defaultFor(environment, 'single'), await this.deps.printers.defaultFor(environment, 'bundles')];
      const asked = new Set<string>();
      for (const printer of printers) {
        if (!printer || asked.has(printer.id) || this.deps.state.service.pendingOn(printer) > 0) continue;
        asked.add(printer.id);
        // A printer another bench drives is left alone: a Zebra may serve one connection at a time.
        const holder = await this.deps.state.leases?.holder(printer);
        if (holder && holder.bench !== this.deps.benchId) continue;
        const status = await this.deps.printerStatus(printer.id);
        // Another process prints on it, or the answer came from a queue: that queue reports it.
        if (status.source !== 'printer') continue;
        const before = this.printersSeen.get(printer.id);
        const seen: SeenPrinter = { state: status.state, fault: status.faults[0] ?? null, labelsPending: status.labelsPending };
        this.printersSeen.set(printer.id, seen);
        if (before?.state !== seen.state || before?.fault?.kind !== seen.fault?.kind) this.reporter?.changed();
      }
    } catch (error) {
      this.deps.logger.warn('a printer of this bench could not be asked for the floor', { error: errorText(error) });
    } finally {
      this.checking = false;
    }
  }
}
