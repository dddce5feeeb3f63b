/**
 * A run in memory: its labels in order, the fetching ahead of their documents (the Delivery API
 * client's own limit caps the requests in flight), and what happens to each label, written to the
 * journal as it happens, in order. The printer queue pulls the run's labels through the
 * LabelSource interface. Two kinds build on it: a shift run (shift-run.ts), which carries on
 * through the service's and the station's stops, and the one label a person waits for
 * (waited-print.ts), which answers them as soon as its outcome is known.
 */
import type { PauseReasonData, RunCounts, SecondCopyData } from '../../../shared/contract/printing';
import { StationError, type ErrorCode } from '../../../shared/errors';
import type { PrinterFault } from '../../../shared/zebra/faults';
import type { Logger } from '../../logging/logger';
import type { JournalRow, LabelFormat, RunRow, RunState } from '../journal/journal-types';
import type { PrintJournal } from '../journal/print-journal';
import { systemClock, type QueueClock } from '../queue/clock';
import type { LabelSource, NextLabel, QueueLabel, Serving } from '../queue/label-source';
import type { LabelMarkStore } from '../queue/label-marks';
import type { PrinterQueue } from '../queue/printer-queue';
import { isUnreachable } from '../../store';
import { errorText } from '../../../shared/error-text';
import { writtenAheadOfDisk } from '../journal/run-kinds';

/** A lead who acted on this bench's run from the floor at another bench. */
export interface FloorLead {
  operator: string;
  benchName: string;
}

/** A label's document, checked and ready for the printer. */
export interface PreparedDocument {
  bytes: Uint8Array;
  /** ZPL formats in it (1 for a PDF). */
  formats: number;
  /** What was fetched: the service's ZPL, a PDF, or a PDF rasterised to ^GFA. */
  format: LabelFormat;
  sha256: string;
  /** What the station changed in it on the way (e.g. "removed ^JUS: …"), for the journal entry's reason. */
  note?: string;
}

/** What decides a label's document: its order or bundle page and the format its row asks for (a row not yet written has no id). */
export type LabelToFetch = Pick<JournalRow, 'orderId' | 'bundleId' | 'bundlePosition' | 'format'> & { id?: number };

export type DocumentSource = (entry: LabelToFetch) => Promise<PreparedDocument>;

/** Whether a failed fetch is about this label (it fails) or about reaching the service (the run waits). */
export type FetchFailureKind = 'label' | 'service';

export interface RunObserver {
  /** Counts or state changed; `important` for a change of state (the observer may throttle the rest). */
  progress(run: PrintRun, important: boolean): void;
  /** A label changed state in a way the screen shows (see printing.label). */
  label(run: PrintRun, entry: JournalRow): void;
  finished(run: PrintRun): void;
}

export interface PrintRunDeps {
  run: RunRow;
  entries: JournalRow[];
  /** The journal of the place the run began in (its print service's): it writes nowhere else. */
  journal: PrintJournal;
  /** What the printer said as each label reached it, kept beside that journal. */
  marks?: LabelMarkStore;
  queue: PrinterQueue;
  documents: DocumentSource;
  classifyFetchFailure(error: unknown): FetchFailureKind;
  observer: RunObserver;
  logger: Logger;
  /** Documents fetched or being fetched ahead of the printer. */
  fetchAhead: number;
  /** Wait before trying the Delivery API again after it could not be reached. */
  serviceRetryMs: number;
  clock?: QueueClock;
  /**
   * Resolves once the run's journal rows are on disk (a scan's run is written without waiting for
   * it; journal createRun): no label of the run is ready to send before. Default: already there.
   */
  rowsOnDisk?: Promise<void>;
}

type SlotStatus = 'pending' | 'fetching' | 'ready' | 'sending' | 'sent' | 'done';

export interface Slot {
  index: number;
  entry: JournalRow;
  status: SlotStatus;
  label: QueueLabel | null;
  /** A fetch written to the journal with the label's next change (see journalsFetchWithSent). */
  unrecordedFetch?: { sha256: string; format: LabelFormat } | null;
}

/** About ten minutes of a shared store gone before a journal write is given up (and logged). */
const unreachableWriteAttempts = 130;

export abstract class PrintRun implements LabelSource {
  readonly runId: string;
  abstract readonly serving: Serving;
  readonly marks?: LabelMarkStore;
  protected record: RunRow;
  protected readonly slots: Slot[];
  private readonly bySlotEntry = new Map<number, Slot>();
  protected cursor = 0;
  protected cancelling = false;
  private finishedFlag = false;
  private serviceTimer: AbortController | null = null;
  private readonly clock: QueueClock;
  private readonly finishWaiters: (() => void)[] = [];
  /**
   * The run's journal writes, in the order things happened to its labels: each waits for the one
   * before (a pool of PostgreSQL connections would otherwise commit them in any order).
   */
  private writes: Promise<void> = Promise.resolve();

  constructor(protected readonly deps: PrintRunDeps) {
    this.record = deps.run;
    this.runId = deps.run.id;
    if (deps.marks) this.marks = deps.marks;
    this.clock = deps.clock ?? systemClock;
    this.slots = deps.entries.map((entry, index) => {
      const slot: Slot = { index, entry, status: initialStatus(entry), label: null };
      this.bySlotEntry.set(entry.id, slot);
      return slot;
    });
  }

  get run(): RunRow {
    return this.record;
  }

  get state(): RunState {
    return this.record.state;
  }

  get pauseReason(): PauseReasonData | null {
    return this.record.pauseReason;
  }

  get isFinished(): boolean {
    return this.finishedFlag;
  }

  get printerId(): string {
    return this.record.printerId;
  }

  counts(): RunCounts {
    const counts: RunCounts = { total: 0, queued: 0, fetched: 0, sent: 0, printed: 0, failed: 0, uncertain: 0 };
    for (const slot of this.slots) {
      counts[slot.entry.state] += 1;
      counts.total += 1;
    }
    return counts;
  }

  /** Labels that left the station: sent, printed, uncertain, or settled otherwise. */
  done(): number {
    let done = 0;
    for (const slot of this.slots) if (slot.entry.state !== 'queued' && slot.entry.state !== 'fetched') done += 1;
    return done;
  }

  /** Attaches to the printer queue; labels sent in an earlier session are handed over as in the printer. */
  async start(): Promise<void> {
    const adopted: QueueLabel[] = [];
    for (const slot of this.slots) {
      if (slot.status !== 'sent') continue;
      if (!this.deps.queue.tracksPrinting) {
        slot.status = 'done';
        continue;
      }
      slot.label = { entryId: slot.entry.id, runId: this.runId, bytes: new Uint8Array(0), formats: 1, ...sentAtOf(slot.entry) };
      adopted.push(slot.label);
    }
    if (adopted.length > 0) await this.deps.queue.adopt(this, adopted);
    this.deps.queue.attach(this);
    this.fill();
    this.checkFinished();
  }

  /** Resolves when the run is finished or cancelled and nothing of it is left in the printer. */
  whenFinished(): Promise<void> {
    if (this.finishedFlag) return Promise.resolve();
    return new Promise((resolve) => this.finishWaiters.push(resolve));
  }

  // ── LabelSource ──────────────────────────────────────────────────────────

  next(): NextLabel {
    if (this.record.state !== 'running' || this.cancelling) return { kind: 'none' };
    while (this.cursor < this.slots.length) {
      const status = this.slots[this.cursor]?.status;
      if (status === 'pending' || status === 'fetching' || status === 'ready') break;
      this.cursor += 1;
    }
    const slot = this.slots[this.cursor];
    if (!slot) return { kind: 'none' };
    this.fill();
    if (slot.status === 'ready' && slot.label) return { kind: 'label', label: slot.label };
    return { kind: 'wait' };
  }

  sending(label: QueueLabel): Promise<void> {
    const slot = this.slotOf(label);
    slot.status = 'sending';
    slot.entry.sentAt = this.now();
    // A scan's label: its run is on disk already (written during the GET), and this mark's wait for
    // the disk would sit between the service's answer and the printer (docs/printing-queue.md).
    // The queue sends no byte before this commit: a failure to write it stops the label here.
    return this.write(() => this.deps.journal.labels.markSending(slot.entry.id, { waitForDisk: !writtenAheadOfDisk(this.record) }), 'rethrow');
  }

  notSent(label: QueueLabel): void {
    const slot = this.slotOf(label);
    this.write(() => this.deps.journal.labels.clearSending(slot.entry.id));
    slot.entry.sentAt = null;
    if (this.cancelling) {
      this.fail(slot, this.cancelReason());
      this.checkFinished();
      return;
    }
    slot.status = 'ready';
    this.cursor = Math.min(this.cursor, slot.index);
  }

  abstract notBegun(label: QueueLabel, error: unknown): void;

  abstract sent(label: QueueLabel, fault: PrinterFault | null): void;

  /** A label that could not begin sending fails with the reason (nothing was sent). `answer` runs just after it is failed. */
  protected failNotBegun(label: QueueLabel, error: unknown, answer: () => void = () => undefined): void {
    const slot = this.slotOf(label);
    slot.entry.sentAt = null;
    this.fail(slot, this.cancelling ? this.cancelReason() : journalReason(error));
    answer();
    this.deps.observer.progress(this, false);
    this.checkFinished();
  }

  /** Marks the label's slot sent (the printer or the OS queue has it); the journal learns it from recordSent. */
  protected markSlotSent(label: QueueLabel): Slot {
    const slot = this.slotOf(label);
    slot.entry.state = 'sent';
    // Only a Zebra's status says when a label printed; an OS queue's job is as far as the station can see.
    slot.status = this.deps.queue.tracksPrinting ? 'sent' : 'done';
    label.bytes = new Uint8Array(0);
    return slot;
  }

  protected recordSent(slot: Slot): void {
    // A fetch kept back goes into the same commit: one wait for the disk, not two.
    const fetched = slot.unrecordedFetch ?? undefined;
    slot.unrecordedFetch = null;
    this.write(() => this.deps.journal.labels.markSent(slot.entry.id, fetched));
    this.labelMoved(slot);
    this.deps.observer.progress(this, false);
    this.checkFinished();
  }

  uncertain(label: QueueLabel, reason: string): void {
    const slot = this.slotOf(label);
    this.recordFetch(slot);
    // Kept as "CODE: English" like failures: the screen says "Not sure the label printed" in its language.
    this.write(() => this.deps.journal.labels.markUncertain(slot.entry.id, `PRINT_UNCERTAIN: ${reason}`));
    slot.status = 'done';
    slot.entry.state = 'uncertain';
    this.announce(slot);
    this.unproven(slot, reason);
    this.deps.observer.progress(this, true);
    this.checkFinished();
  }

  secondCopy(label: QueueLabel, secondCopy: SecondCopyData): void {
    const slot = this.slotOf(label);
    this.write(() => this.deps.journal.labels.markSecondCopy(slot.entry.id, secondCopy));
    this.deps.logger.warn('the printer may put a label out twice', { runId: this.runId, entryId: slot.entry.id, ...secondCopy });
    // A scan's screen hears of it with the label's next state; a bundle run lists it in its summary.
  }

  printed(labels: QueueLabel[]): void {
    const slots = labels.map((label) => this.slotOf(label));
    const printing = new Set(slots);
    // The run's last labels: closing it goes into the same commit (one wait for the disk, not two).
    const last = !this.finishedFlag && this.slots.every((slot) => slot.status === 'done' || printing.has(slot));
    const ids = slots.map((slot) => slot.entry.id);
    const finish = last ? { runId: this.runId, state: this.finalState() } : undefined;
    this.write(() => this.deps.journal.labels.markPrinted(ids, finish));
    const now = this.now();
    for (const slot of slots) {
      slot.status = 'done';
      slot.entry.state = 'printed';
      slot.entry.printedAt = now;
      this.labelMoved(slot);
    }
    this.deps.observer.progress(this, false);
    this.checkFinished(last);
  }

  printerPaused(fault: PrinterFault): void {
    // Waiting may be long: the journal says now what was fetched.
    for (const slot of this.slots) this.recordFetch(slot);
    this.heldByFault(fault);
    if (this.record.state === 'paused' && this.record.pauseReason?.by !== 'printer') return;
    this.setState('paused', {
      by: 'printer',
      code: fault.code,
      message: fault.message,
      action: `${fault.action} Printing carries on by itself once the printer is ready.`,
      fault,
      since: this.now(),
    });
  }

  printerResumed(): void {
    if (this.record.state === 'paused' && this.record.pauseReason?.by === 'printer') {
      this.setState('running', null);
      this.fill();
    }
  }

  // ── the user's controls ──────────────────────────────────────────────────

  /** `lead`: a lead who paused it from the floor at another bench (the bench's screen names them). */
  pause(operator: string, lead: FloorLead | null = null): void {
    if (this.finishedFlag || this.cancelling) return;
    if (this.record.state === 'paused' && this.record.pauseReason?.by === 'user') return;
    this.clearServiceTimer();
    const who = lead ? `${lead.operator} at ${lead.benchName}` : operator;
    this.setState('paused', {
      by: 'user',
      code: 'PRINTER_PAUSED',
      message: who ? `Paused by ${who}.` : 'Paused.',
      action: 'Press Resume to carry on from the first label not yet sent.',
      fault: null,
      since: this.now(),
      ...(lead ? { lead } : {}),
    });
  }

  resume(): void {
    if (this.finishedFlag || this.cancelling) return;
    this.clearServiceTimer();
    if (this.record.state === 'paused' && this.record.pauseReason?.by === 'printer') {
      // The printer decides: ask it now rather than at the next poll.
      this.deps.queue.retryNow();
      return;
    }
    if (this.record.state !== 'running') this.setState('running', null);
    this.deps.queue.attach(this);
    this.fill();
  }

  cancel(operator: string): void {
    if (this.finishedFlag || this.cancelling) return;
    this.cancelling = true;
    this.clearServiceTimer();
    const reason = this.cancelReason(operator);
    for (const slot of this.slots) this.recordFetch(slot);
    this.write(() => this.deps.journal.labels.failUnsent(this.runId, reason));
    const failedAt = this.now();
    for (const slot of this.slots) {
      if (slot.status === 'pending' || slot.status === 'fetching' || slot.status === 'ready') {
        slot.status = 'done';
        slot.entry.state = 'failed';
        slot.entry.reason = reason;
        slot.entry.failedAt = failedAt;
        slot.label = null;
        this.labelMoved(slot);
      }
    }
    this.cancelledUnsent(reason, operator);
    this.deps.observer.progress(this, true);
    this.deps.queue.wake();
    this.checkFinished();
  }

  /** The station is shutting down: nothing more is sent; the journal offers the run for resume next time. */
  interrupt(reason: PauseReasonData): void {
    this.clearServiceTimer();
    for (const slot of this.slots) this.recordFetch(slot);
    if (this.finishedFlag) return;
    this.deps.queue.detach(this);
    if (!this.cancelling) this.stoppedUnfinished(reason);
  }

  // ── fetching ahead ───────────────────────────────────────────────────────

  private fill(): void {
    const fetching = this.record.state === 'running' || (this.record.state === 'paused' && this.record.pauseReason?.by === 'printer');
    if (!fetching || this.cancelling) return;
    let inWindow = 0;
    for (let index = this.cursor; index < this.slots.length && inWindow < this.deps.fetchAhead; index++) {
      const slot = this.slots[index] as Slot;
      if (slot.status === 'fetching' || slot.status === 'ready') {
        inWindow += 1;
      } else if (slot.status === 'pending') {
        inWindow += 1;
        this.fetch(slot);
      }
    }
  }

  private fetch(slot: Slot): void {
    slot.status = 'fetching';
    const entry = slot.entry;
    const document = this.deps.documents(entry);
    (this.deps.rowsOnDisk ? Promise.all([document, this.deps.rowsOnDisk]).then(([ready]) => ready) : document).then(
      (document) => {
        if (slot.status !== 'fetching') return;
        if (this.journalsFetchWithSent(document)) {
          slot.unrecordedFetch = { sha256: document.sha256, format: document.format };
        } else {
          this.write(() => this.deps.journal.labels.markFetched(entry.id, document.sha256, document.format));
          const note = document.note;
          if (note) {
            this.write(async () => {
              entry.reason = await this.deps.journal.labels.addNote(entry.id, note);
            });
          }
        }
        entry.state = 'fetched';
        entry.format = document.format;
        entry.fetchedAt = this.now();
        slot.label = { entryId: entry.id, runId: this.runId, bytes: document.bytes, formats: Math.max(1, document.formats) };
        slot.status = 'ready';
        this.deps.queue.wake();
      },
      (error: unknown) => {
        if (slot.status !== 'fetching') return;
        this.fetchFailed(slot, error);
      },
    );
  }

  /** The label's document could not be fetched: it fails with the reason. `answer` runs just after it is failed. */
  protected failFetch(slot: Slot, error: unknown, answer: () => void = () => undefined): void {
    this.fail(slot, journalReason(error));
    answer();
    this.deps.observer.progress(this, false);
    this.deps.queue.wake();
    this.checkFinished();
  }

  /** The Delivery API could not be reached: the run waits and tries again by itself after the retry time. */
  protected pauseForService(error: unknown): void {
    if (this.record.state !== 'running') return;
    const code: ErrorCode = error instanceof StationError ? error.code : 'NETWORK';
    const seconds = Math.round(this.deps.serviceRetryMs / 1000);
    this.setState('paused', {
      by: 'service',
      code,
      message: `Labels could not be fetched: ${errorText(error)}`,
      action: `The station tries again by itself in ${seconds} s; press Resume to try now.`,
      fault: null,
      since: this.now(),
    });
    const timer = new AbortController();
    this.serviceTimer = timer;
    void this.clock.sleep(this.deps.serviceRetryMs, timer.signal).then(() => {
      if (timer.signal.aborted) return;
      this.serviceTimer = null;
      if (this.record.state === 'paused' && this.record.pauseReason?.by === 'service') this.resume();
    });
  }

  // ── bookkeeping ──────────────────────────────────────────────────────────

  /** Writes a fetch kept back for the label's "sent" to the journal, before any other change of its row. */
  private recordFetch(slot: Slot): void {
    const fetched = slot.unrecordedFetch;
    if (!fetched) return;
    slot.unrecordedFetch = null;
    this.write(() => this.deps.journal.labels.markFetched(slot.entry.id, fetched.sha256, fetched.format));
  }

  private fail(slot: Slot, reason: string): void {
    this.recordFetch(slot);
    this.write(() => this.deps.journal.labels.markFailed(slot.entry.id, reason));
    slot.status = 'done';
    slot.label = null;
    slot.entry.state = 'failed';
    slot.entry.reason = reason;
    slot.entry.failedAt = this.now();
    this.announce(slot);
  }

  /** `journaled`: the run was closed in the journal already, with its last labels. */
  private checkFinished(journaled = false): void {
    if (this.finishedFlag) return;
    if (this.slots.some((slot) => slot.status !== 'done')) return;
    this.finishedFlag = true;
    this.clearServiceTimer();
    this.deps.queue.detach(this);
    const state = this.finalState();
    this.write(async () => {
      if (!journaled) await this.deps.journal.runRecords.finishRun(this.runId, state);
      this.record = await this.deps.journal.runRecords.requireRun(this.runId);
    });
    // Heard once the journal says the run is closed (the summary reads its final row).
    void this.writes.then(() => {
      this.ended();
      this.deps.observer.progress(this, true);
      this.deps.observer.finished(this);
      for (const waiter of this.finishWaiters.splice(0)) waiter();
    });
  }

  /** Resolves once every journal write the run has made so far is committed. */
  journalled(): Promise<void> {
    return this.writes;
  }

  private finalState(): 'finished' | 'cancelled' {
    return this.cancelling ? 'cancelled' : 'finished';
  }

  protected setState(state: 'running' | 'paused', reason: PauseReasonData | null): void {
    this.write(() => this.deps.journal.runRecords.setRunState(this.runId, state, reason));
    this.record = { ...this.record, state, pauseReason: reason, updatedAt: this.now() };
    this.deps.observer.progress(this, true);
  }

  // ── what each kind of run does differently (shift-run.ts, waited-print.ts) ───

  /** A label's document came back from the service; true: its fetch goes into the journal with its "sent". */
  protected abstract journalsFetchWithSent(document: PreparedDocument): boolean;

  /** The label's document could not be fetched (failFetch, or wait for the service). */
  protected abstract fetchFailed(slot: Slot, error: unknown): void;

  /** The station stops with the run unfinished and not cancelled. */
  protected abstract stoppedUnfinished(reason: PauseReasonData): void;

  /** Whether the screen hears of this state of a label (printing.label). */
  protected abstract screenHears(entry: JournalRow): boolean;

  // What a person waiting on the run's label hears (waited-print.ts); a shift run's summary and
  // progress tell the same.

  /** The label was sent, printed or cancelled (its failures and doubts are announced anyway). */
  protected labelMoved(_slot: Slot): void {}

  /** A fault stopped the printer; the run pauses by the printer just after. */
  protected heldByFault(_fault: PrinterFault): void {}

  /** The label left the printer unproven, for `reason`. */
  protected unproven(_slot: Slot, _reason: string): void {}

  /** The run was cancelled: its unsent labels failed with `reason`. */
  protected cancelledUnsent(_reason: string, _operator: string): void {}

  /** The run is finished and closed in the journal. */
  protected ended(): void {}

  /**
   * Queues a journal write after the run's earlier ones. A failed write is logged and the run goes
   * on (the row stays as the last write that succeeded left it, which recovery reads safely), except
   * where the caller must not go on: 'rethrow' hands the failure back.
   */
  private write(work: () => Promise<unknown>, onFailure: 'log' | 'rethrow' = 'log'): Promise<void> {
    const done = this.writes.then(async () => {
      // "Sending began" is the caller's to retry (nothing is sent without it); what the printer did
      // meanwhile is written once a shared store that went away answers again, in order.
      if (onFailure === 'rethrow') await work();
      else await this.persist(work);
    });
    this.writes = done.catch((error: unknown) => {
      this.deps.logger.error('print journal write failed', { runId: this.runId, error: errorText(error) });
    });
    return onFailure === 'rethrow' ? done : this.writes;
  }

  /** Runs a journal write, again and again while the store cannot be reached (a restart, a failover). */
  private async persist(work: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await work();
        return;
      } catch (error) {
        if (!isUnreachable(error) || attempt >= unreachableWriteAttempts) throw error;
        await this.clock.sleep(Math.min(5_000, 100 * 2 ** attempt));
      }
    }
  }

  /** Tells the screen about the label as the journal has it, once the run's writes so far are in. */
  protected announce(slot: Slot): void {
    // In the chain of writes, so the screen hears of a label before it hears the run finished.
    void this.write(async () => {
      const fresh = await this.deps.journal.labels.entry(slot.entry.id).catch(() => null);
      if (fresh) slot.entry = fresh;
      if (this.screenHears(slot.entry)) this.deps.observer.label(this, slot.entry);
    });
  }

  protected slotOf(label: QueueLabel): Slot {
    const slot = this.bySlotEntry.get(label.entryId);
    if (!slot) throw new Error(`label ${label.entryId} is not part of run ${this.runId}`);
    return slot;
  }

  private cancelReason(operator?: string): string {
    return operator ? `Cancelled by ${operator} before it was sent.` : 'Cancelled before it was sent.';
  }

  private clearServiceTimer(): void {
    this.serviceTimer?.abort();
    this.serviceTimer = null;
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

function initialStatus(entry: JournalRow): SlotStatus {
  switch (entry.state) {
    case 'queued':
    case 'fetched':
      // A row with "sending began" is settled as uncertain by recovery before a run is rebuilt.
      return 'pending';
    case 'sent':
      return 'sent';
    default:
      return 'done';
  }
}

/** When sending of an adopted label began, per the journal. */
function sentAtOf(entry: JournalRow): { sentAtMs?: number } {
  const ms = entry.sentAt ? Date.parse(entry.sentAt) : Number.NaN;
  return Number.isFinite(ms) ? { sentAtMs: ms } : {};
}

/**
 * A failure as the journal keeps it: "CODE: English", so the screen can word the code in its own
 * language (reason-words.ts) while the CSV export and the CLI keep the sentence.
 */
function journalReason(error: unknown): string {
  if (error instanceof StationError) return `${error.code}: ${error.message}`;
  return errorText(error);
}

export function asStationError(error: unknown): StationError {
  if (error instanceof StationError) return error;
  return new StationError('INTERNAL', errorText(error));
}
