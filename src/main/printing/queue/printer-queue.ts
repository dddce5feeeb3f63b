/**
 * One serialised queue per printer. It pulls labels from the runs attached to it (single prints
 * first), sends one label at a time, and for Zebras asks ~HS after each label on the same
 * connection: the answer proves the printer read the whole label, and its formats-in-buffer count
 * says how many of this station's labels have printed since. It never lets more than the
 * printer's limit of formats wait in the printer, so pause and cancel act within that many labels.
 *
 * Faults (paper out, head open, pause, ribbon out, no answer, unreachable) stop the queue with the
 * reason and what to do; it polls and carries on by itself when the fault clears, or at once on
 * the user's word, from the first label not yet sent. Labels already in the printer's buffer are
 * never sent again. A label whose connection broke after some bytes left is uncertain: the run
 * lists it and a person decides.
 */
import type { HostStatus } from '../../../shared/zebra/host-status';
import { faultsFromStatus, printerFault, type PrinterFault } from '../../../shared/zebra/faults';
import { parseExtendedStatus } from '../../../shared/zebra/extended-status';
import { parseHostStatus } from '../../../shared/zebra/host-status';
import { extendedStatusQuery, hostStatusQuery } from '../../../shared/zebra/queries';
import type { PrinterStateName } from '../../../shared/contract/printers';
import type { Logger } from '../../logging/logger';
import { canQuery, PrinterTransportError, type PrinterTransport } from '../transports/transport';
import type { LabelSource, QueueLabel } from './label-source';

export interface PrinterQueueTiming {
  /** First wait between status polls while the printer's buffer is at the limit; adapts to the printer's speed. */
  pollMs: number;
  minPollMs: number;
  maxPollMs: number;
  /** Poll interval while a fault holds the queue. */
  faultPollMs: number;
  /** With labels pending and the count not moving for this long, ask ~HQES for faults ~HS does not show. */
  stallCheckMs: number;
}

export const defaultQueueTiming: PrinterQueueTiming = { pollMs: 40, minPollMs: 5, maxPollMs: 250, faultPollMs: 1000, stallCheckMs: 3000 };

export interface PrinterQueueState {
  state: PrinterStateName;
  fault: PrinterFault | null;
  /** Labels of this station pending: attached runs' unsent labels are not counted, only those in flight or in the printer. */
  labelsPending: number;
}

export interface PrinterQueueDeps {
  transport: PrinterTransport;
  /** Most formats of ours allowed in the printer's buffer (read each time, so a settings change applies at once). */
  maxFormatsInBuffer: () => number;
  timing?: Partial<PrinterQueueTiming>;
  logger: Logger;
  /** Called when the queue's state changes (for the screen's status area). */
  onState?: (state: PrinterQueueState) => void;
  /** Called when the queue has nothing left to do. */
  onIdle?: () => void;
}

interface Outstanding {
  label: QueueLabel;
  source: LabelSource;
}

export class PrinterQueue {
  private readonly transport: PrinterTransport;
  private readonly timing: PrinterQueueTiming;
  /** Zebras with status read-back: the queue knows when labels printed and bounds the buffer. */
  readonly tracksPrinting: boolean;
  private readonly sources: LabelSource[] = [];
  private readonly outstanding: Outstanding[] = [];
  /** Sources told about the current fault. */
  private readonly pausedSources = new Set<LabelSource>();
  private fault: PrinterFault | null = null;
  /** Labels of ours may have left the printer's buffer while it could not be reached. */
  private blind = false;
  /** After a broken connection, ask before the next label. */
  private checkBeforeNext = false;
  private pollMs: number;
  private lastProgressAt = Date.now();
  private stallChecked = false;
  private loopRunning = false;
  private closing = false;
  private sendingNow: QueueLabel | null = null;
  private wakers: (() => void)[] = [];
  /** Check a fault at once instead of at the next poll (a new label, or the user's word). */
  private forceCheck = false;
  private faultCheckedAt = 0;
  private lastState: PrinterQueueState | null = null;

  constructor(private readonly deps: PrinterQueueDeps) {
    this.transport = deps.transport;
    this.timing = { ...defaultQueueTiming, ...deps.timing };
    this.pollMs = this.timing.pollMs;
    this.tracksPrinting = canQuery(deps.transport);
  }

  /** The fault holding the queue, or null. */
  get currentFault(): PrinterFault | null {
    return this.fault;
  }

  /** Nothing attached, nothing in flight, nothing of ours in the printer. */
  get idle(): boolean {
    return this.sources.length === 0 && this.outstanding.length === 0 && this.sendingNow === null;
  }

  get labelsPending(): number {
    return this.outstanding.length + (this.sendingNow ? 1 : 0);
  }

  attach(source: LabelSource): void {
    if (!this.sources.includes(source)) this.sources.push(source);
    this.forceCheck = true;
    this.wake();
  }

  detach(source: LabelSource): void {
    const index = this.sources.indexOf(source);
    if (index >= 0) this.sources.splice(index, 1);
    this.pausedSources.delete(source);
    this.wake();
  }

  /**
   * Labels sent before (a run resumed after the station stopped): they are in the printer's
   * buffer or already out; the next status answer says which.
   */
  adopt(source: LabelSource, labels: QueueLabel[]): void {
    for (const label of labels) this.outstanding.push({ label, source });
    this.wake();
  }

  /** Something changed (a label fetched, a run resumed): look again now. */
  wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const waker of wakers) waker();
    if (!this.loopRunning && !this.closing) void this.loop();
  }

  /** The user's word: check the printer now instead of at the next poll. */
  retryNow(): void {
    this.forceCheck = true;
    this.wake();
  }

  /** Stops after the label being sent (never cutting one in half). */
  async close(): Promise<void> {
    this.closing = true;
    this.wake();
    while (this.loopRunning) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private async loop(): Promise<void> {
    this.loopRunning = true;
    try {
      while (!this.closing) {
        if (this.fault) {
          // A fault with nothing waiting on it is left for the next label to check.
          if (this.sources.length === 0 && this.outstanding.length === 0) break;
          await this.waitOutFault();
          continue;
        }
        if (this.checkBeforeNext && this.tracksPrinting) {
          this.checkBeforeNext = false;
          await this.poll(false);
          continue;
        }
        const pick = this.pick();
        if (pick) {
          const ours = this.outstandingFormats();
          if (this.tracksPrinting && ours > 0 && ours + pick.label.formats > this.deps.maxFormatsInBuffer()) {
            // Only the printer can make room: wait a label's time, whatever else happens meanwhile.
            await sleep(this.pollMs);
            if (!this.closing) await this.poll(true);
            continue;
          }
          await this.send(pick.source, pick.label);
          continue;
        }
        if (this.tracksPrinting && this.outstanding.length > 0) {
          this.publishState();
          await this.sleepOrWake(this.pollMs);
          if (!this.closing && !this.pick()) await this.poll(false);
          continue;
        }
        if (this.sources.length === 0 && this.outstanding.length === 0) break;
        this.publishState();
        await this.sleepOrWake(Number.POSITIVE_INFINITY);
      }
    } catch (error) {
      this.deps.logger.error('print queue stopped unexpectedly', { printer: this.transport.description, error: errorText(error) });
    } finally {
      this.loopRunning = false;
      this.publishState();
      if (this.idle) this.deps.onIdle?.();
    }
  }

  private pick(): { source: LabelSource; label: QueueLabel } | null {
    for (const urgent of [true, false]) {
      for (const source of this.sources) {
        if (source.urgent !== urgent) continue;
        const next = source.next();
        if (next.kind === 'label') return { source, label: next.label };
      }
    }
    return null;
  }

  private outstandingFormats(): number {
    let formats = 0;
    for (const item of this.outstanding) formats += item.label.formats;
    return formats;
  }

  private async send(source: LabelSource, label: QueueLabel): Promise<void> {
    source.sending(label);
    this.sendingNow = label;
    this.publishState();
    try {
      const result = await this.transport.send(label.bytes, { confirm: this.tracksPrinting, jobName: `label ${label.entryId}` });
      this.sendingNow = null;
      const fault = result.status ? (faultsFromStatus(result.status)[0] ?? null) : null;
      if (this.tracksPrinting) this.outstanding.push({ label, source });
      source.sent(label, fault);
      if (result.status) this.applyStatus(result.status);
    } catch (error) {
      this.sendingNow = null;
      if (error instanceof PrinterTransportError && !error.uncertain) {
        // Nothing reached the printer: the label stays first in line for when it answers.
        source.notSent(label);
        this.setFault(faultOfFailure(error), error.failure === 'refused' || error.failure === 'unreachable' || error.failure === 'connect-timeout');
        return;
      }
      const reason =
        error instanceof PrinterTransportError
          ? `${error.message} Part or all of this label may have reached the printer, so it is not sent again by itself: check whether it printed.`
          : `Sending stopped unexpectedly (${errorText(error)}); this label may or may not have printed.`;
      source.uncertain(label, reason);
      this.deps.logger.warn('label uncertain', { printer: this.transport.description, entryId: label.entryId, error: errorText(error) });
      if (error instanceof PrinterTransportError && error.failure === 'no-answer') {
        this.setFault({ ...printerFault('offline'), message: 'The printer stopped answering status requests.' }, false);
      } else {
        this.checkBeforeNext = true;
      }
    }
  }

  /** One ~HS: learn what printed and whether a fault appeared. `adapt`: the wait before it was a label's time. */
  private async poll(adapt: boolean): Promise<boolean> {
    if (!canQuery(this.transport)) return true;
    try {
      const status = parseHostStatus(await this.transport.query(hostStatusQuery));
      const pendingBefore = this.outstanding.length;
      const gone = this.applyStatus(status);
      // Aim at about one label per poll: the printer's own speed decides how often to ask.
      if (adapt && gone >= 2) this.pollMs = Math.max(this.timing.minPollMs, this.pollMs / 1.5);
      else if (adapt && gone === 0 && pendingBefore > 0) this.pollMs = Math.min(this.timing.maxPollMs, this.pollMs * 1.5);
      await this.checkStall();
      return true;
    } catch (error) {
      const failure = error instanceof PrinterTransportError ? error.failure : 'bad-answer';
      this.setFault(
        error instanceof PrinterTransportError
          ? faultOfFailure(error)
          : { ...printerFault('offline'), message: 'The printer’s status answer could not be read.' },
        failure === 'refused' || failure === 'unreachable' || failure === 'connect-timeout',
      );
      return false;
    }
  }

  /** Counts what printed since the last answer; returns how many labels left the buffer. */
  private applyStatus(status: HostStatus): number {
    const ours = this.outstandingFormats();
    let left = ours - status.formatsInBuffer;
    const gone: Outstanding[] = [];
    while (this.outstanding.length > 0 && left >= (this.outstanding[0]?.label.formats ?? Infinity)) {
      const item = this.outstanding.shift() as Outstanding;
      left -= item.label.formats;
      gone.push(item);
    }
    if (gone.length > 0) {
      this.lastProgressAt = Date.now();
      this.stallChecked = false;
      const blind = this.blind;
      for (const [source, labels] of groupBySource(gone)) {
        if (blind) {
          for (const label of labels) {
            source.uncertain(
              label,
              'This label was in the printer’s buffer while the printer could not be reached. If the printer was switched off it was lost; check whether it printed.',
            );
          }
        } else {
          source.printed(labels);
        }
      }
    }
    this.blind = false;
    if (this.outstanding.length === 0) this.lastProgressAt = Date.now();
    const fault = faultsFromStatus(status)[0] ?? null;
    if (fault) this.setFault(fault, false);
    else this.publishState();
    return gone.length;
  }

  /** Labels pending and nothing printing for a while, yet ~HS shows no fault: ~HQES may know why. */
  private async checkStall(): Promise<void> {
    if (!canQuery(this.transport) || this.fault || this.stallChecked || this.outstanding.length === 0) return;
    if (Date.now() - this.lastProgressAt < this.timing.stallCheckMs) return;
    this.stallChecked = true;
    try {
      const extended = parseExtendedStatus(await this.transport.query(extendedStatusQuery));
      const host = parseHostStatus(await this.transport.query(hostStatusQuery));
      const fault = faultsFromStatus(host, extended)[0];
      if (fault) this.setFault(fault, false);
    } catch {
      // Older firmware without ~HQES: nothing more to learn.
    }
  }

  private setFault(fault: PrinterFault, unreachable: boolean): void {
    if (unreachable && this.outstanding.length > 0) this.blind = true;
    const changed = this.fault?.kind !== fault.kind || this.fault.message !== fault.message;
    const first = this.fault === null;
    this.fault = fault;
    if (changed) this.deps.logger.warn('printer fault holds the queue', { printer: this.transport.description, fault: fault.kind, message: fault.message });
    for (const source of [...this.sources]) {
      if (!changed && this.pausedSources.has(source)) continue;
      this.pausedSources.add(source);
      source.printerPaused(fault);
    }
    if (first) {
      this.pollMs = this.timing.pollMs;
      this.faultCheckedAt = Date.now();
    }
    this.publishState();
  }

  private clearFault(): void {
    if (!this.fault) return;
    this.deps.logger.info('printer fault cleared', { printer: this.transport.description, fault: this.fault.kind });
    this.fault = null;
    this.lastProgressAt = Date.now();
    const told = [...this.pausedSources];
    this.pausedSources.clear();
    for (const source of told) if (this.sources.includes(source)) source.printerResumed();
    this.publishState();
  }

  /** Polls while the fault lasts; the user's word (wake) polls at once. */
  private async waitOutFault(): Promise<void> {
    if (!this.forceCheck) {
      const waitMs = this.timing.faultPollMs - (Date.now() - this.faultCheckedAt);
      if (waitMs > 0) {
        await this.sleepOrWake(waitMs);
        // Woken for another reason (a label fetched): not yet time to ask again.
        if (!this.forceCheck && Date.now() - this.faultCheckedAt < this.timing.faultPollMs) return;
      }
    }
    this.forceCheck = false;
    this.faultCheckedAt = Date.now();
    if (this.closing) return;
    if (!canQuery(this.transport)) {
      // An OS queue cannot be asked; a person says when to try again (wake), or the next poll tries.
      this.clearFault();
      return;
    }
    let status: HostStatus;
    try {
      status = parseHostStatus(await this.transport.query(hostStatusQuery));
    } catch (error) {
      if (error instanceof PrinterTransportError) this.setFault(faultOfFailure(error), isUnreachable(error));
      return;
    }
    const faults = faultsFromStatus(status);
    if (faults.length > 0) {
      // Still (or differently) faulty: count what printed meanwhile, keep waiting.
      this.applyStatus(status);
      return;
    }
    this.clearFault();
    this.applyStatus(status);
  }

  private sleepOrWake(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      const done = (): void => {
        if (timer) clearTimeout(timer);
        resolve();
      };
      if (Number.isFinite(ms)) timer = setTimeout(done, ms);
      this.wakers.push(done);
    });
  }

  private publishState(): void {
    const state: PrinterQueueState = {
      state: stateName(this.fault, this.labelsPending > 0 || this.sources.length > 0),
      fault: this.fault,
      labelsPending: this.labelsPending,
    };
    const last = this.lastState;
    if (last && last.state === state.state && last.fault?.message === state.fault?.message && last.labelsPending === state.labelsPending) return;
    this.lastState = state;
    this.deps.onState?.(state);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function groupBySource(items: Outstanding[]): Map<LabelSource, QueueLabel[]> {
  const groups = new Map<LabelSource, QueueLabel[]>();
  for (const item of items) {
    const list = groups.get(item.source) ?? [];
    list.push(item.label);
    groups.set(item.source, list);
  }
  return groups;
}

function isUnreachable(error: PrinterTransportError): boolean {
  return error.failure === 'refused' || error.failure === 'unreachable' || error.failure === 'connect-timeout';
}

/** The fault a failed send or query stands for, worded for the bench. */
export function faultOfFailure(error: PrinterTransportError): PrinterFault {
  const offline = printerFault('offline');
  if (error.code === 'PRINTER_OFFLINE') return { ...offline, message: error.message };
  if (error.code === 'PAPER_OUT') return printerFault('paper-out');
  if (error.code === 'HEAD_OPEN') return printerFault('head-open');
  if (error.code === 'PRINTER_PAUSED') return printerFault('paused');
  if (error.code === 'RIBBON_OUT') return printerFault('ribbon-out');
  return { kind: 'printer-error', code: 'PRINTER_ERROR', message: error.message, action: 'Check the printer, then press Resume.' };
}

export function stateName(fault: PrinterFault | null, busy: boolean): PrinterStateName {
  if (!fault) return busy ? 'printing' : 'ready';
  switch (fault.kind) {
    case 'paper-out':
      return 'paperOut';
    case 'head-open':
      return 'headOpen';
    case 'paused':
      return 'paused';
    case 'offline':
      return 'offline';
    case 'ribbon-out':
    case 'printer-error':
      return 'error';
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
