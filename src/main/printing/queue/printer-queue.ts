/**
 * One serialised queue per printer. It pulls labels from the runs attached to it (a label a person
 * waits for first: label-source.ts, Serving), sends one label at a time, and for Zebras asks ~HS
 * after each label on the same connection: the answer proves the printer read the whole label, and
 * its formats-in-buffer count says how many of this station's labels have left the buffer since. It
 * never lets more than the printer's limit of formats wait in the printer, so pause and cancel act
 * within that many labels.
 *
 * A label that left the buffer is printed only when the printer proves it (print-proof.ts): seen
 * on the connection it was sent on, or on another connection with the printer's marks (serial,
 * time since power-on, label counter; read and chained into due counts by due-counts.ts) showing it
 * carried on. Otherwise it is uncertain, with why.
 *
 * Faults (paper out, head open, pause, ribbon out, no answer, unreachable) stop the queue with the
 * reason and what to do; it polls and carries on by itself when the fault clears, or at once on
 * the user's word, from the first label not yet sent. A label served status first is sent only
 * after a status answer read since it arrived (asked while its label is fetched), so a scan never
 * goes to a printer in a fault unasked. Labels already in the printer's buffer are never sent
 * again. A label whose connection broke after some bytes left is uncertain: the run lists it and a
 * person decides. The screen hears the queue's state through state-publisher.ts.
 */
import type { HostStatus } from '../../../shared/zebra/host-status';
import { faultsFromStatus, printerFault, type PrinterFault } from '../../../shared/zebra/faults';
import { parseExtendedStatus } from '../../../shared/zebra/extended-status';
import { parseHostStatus } from '../../../shared/zebra/host-status';
import { extendedStatusQuery, hostStatusQuery } from '../../../shared/zebra/queries';
import type { PrinterStateName } from '../../../shared/contract/printers';
import type { Logger } from '../../logging/logger';
import { canQuery, PrinterTransportError, type PrinterTransport } from '../transports/transport';
import { systemClock, type QueueClock } from './clock';
import type { LabelMarkStore } from './label-marks';
import type { LabelSource, QueueLabel } from './label-source';
import { DueCounts } from './due-counts';
import { judgeDrained, needsMarks, type LabelProof, type Outstanding } from './print-proof';
import type { PrinterMarks } from './printer-marks';
import { QueueStatePublisher, type PrinterQueueState } from './state-publisher';
import { CutShortWatch } from './cut-short';
import { FaultHold } from './fault-hold';
import { faultsBehindSilence, isSilence } from '../status/printer-status';
import { errorText } from '../../../shared/error-text';

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

export interface PrinterQueueDeps {
  transport: PrinterTransport;
  /** Most formats of ours allowed in the printer's buffer (read each time, so a settings change applies at once). */
  maxFormatsInBuffer: () => number;
  timing?: Partial<PrinterQueueTiming>;
  logger: Logger;
  clock?: QueueClock;
  /** Where what the printer said about each label is kept across a restart of the station. */
  marks?: LabelMarkStore;
  /**
   * The serial number the printer registry identified at this address, asked once per connection
   * before its first label; without it the queue asks the printer itself.
   */
  identifiedSerial?: () => string | null;
  /** Called when the queue's state changes (for the screen's status area). */
  onState?: (state: PrinterQueueState) => void;
  /** Called when the queue has nothing left to do. */
  onIdle?: () => void;
}

export class PrinterQueue {
  private readonly transport: PrinterTransport;
  private readonly timing: PrinterQueueTiming;
  private readonly clock: QueueClock;
  /** Zebras with status read-back: the queue knows when labels printed and bounds the buffer. */
  readonly tracksPrinting: boolean;
  private readonly sources: LabelSource[] = [];
  private readonly outstanding: Outstanding[] = [];
  /** Labels that left the buffer and wait for the printer's marks before a verdict. */
  private readonly unjudged: Outstanding[] = [];
  private readonly faultHold: FaultHold;
  private readonly dueCounts: DueCounts;
  private readonly cutShort: CutShortWatch;
  private readonly statePublisher: QueueStatePublisher;
  /** After a broken connection, ask before the next label. */
  private checkBeforeNext = false;
  private pollMs: number;
  private lastProgressAt: number;
  /** Sources served status first with a status answer read since they arrived: they may go without asking again. */
  private readonly readyChecked = new WeakSet<LabelSource>();
  private stallChecked = false;
  private loop: Promise<void> | null = null;
  private closing = false;
  private sendingNow: QueueLabel | null = null;
  private waker: AbortController | null = null;
  /** Check a fault at once instead of at the next poll (a new label, or the user's word). */
  private forceCheck = false;
  private faultCheckedAt = 0;
  private lastHost: { formatsInBuffer: number; atMs: number } | null = null;
  /** The fault holding the queue silences ~HS (newer firmware): ask ~HQES until it clears. */
  private hostStatusSilenced = false;

  constructor(private readonly deps: PrinterQueueDeps) {
    this.transport = deps.transport;
    this.timing = { ...defaultQueueTiming, ...deps.timing };
    this.clock = deps.clock ?? systemClock;
    this.pollMs = this.timing.pollMs;
    this.lastProgressAt = this.clock.now();
    this.tracksPrinting = canQuery(deps.transport);
    this.dueCounts = new DueCounts({
      transport: deps.transport,
      logger: deps.logger,
      clock: this.clock,
      ...(deps.identifiedSerial ? { identifiedSerial: deps.identifiedSerial } : {}),
    });
    this.faultHold = new FaultHold({ transport: deps.transport, logger: deps.logger });
    this.cutShort = new CutShortWatch({ transport: deps.transport, logger: deps.logger });
    this.statePublisher = new QueueStatePublisher(
      () => ({ state: stateName(this.faultHold.current, this.labelsPending > 0 || this.sources.length > 0), fault: this.faultHold.current, labelsPending: this.labelsPending }),
      deps.onState,
    );
  }

  /** The fault holding the queue, or null. */
  get currentFault(): PrinterFault | null {
    return this.faultHold.current;
  }

  /** The printer's formats in buffer at its last ~HS answer to this queue, and when (clock ms); null before one. */
  get lastHostStatus(): { formatsInBuffer: number; atMs: number } | null {
    return this.lastHost;
  }

  /** Nothing attached, nothing in flight, nothing of ours in the printer. */
  get idle(): boolean {
    return this.sources.length === 0 && this.outstanding.length === 0 && this.unjudged.length === 0 && this.sendingNow === null;
  }

  get labelsPending(): number {
    return this.outstanding.length + this.unjudged.length + (this.sendingNow ? 1 : 0);
  }

  attach(source: LabelSource): void {
    if (!this.sources.includes(source)) this.sources.push(source);
    this.forceCheck = true;
    this.wake();
  }

  detach(source: LabelSource): void {
    const index = this.sources.indexOf(source);
    if (index >= 0) this.sources.splice(index, 1);
    this.faultHold.forget(source);
    this.wake();
  }

  /**
   * Labels sent before (a run resumed after the station stopped): they are in the printer's
   * buffer or already out, and the printer may have restarted since; the next answers say which.
   */
  async adopt(source: LabelSource, labels: QueueLabel[]): Promise<void> {
    // Labels from an earlier session: the label counter's due count is not known.
    this.dueCounts.doubt();
    const store = this.marksOf(source);
    const marks = await Promise.all(labels.map((label) => store?.get(label.entryId) ?? null));
    for (const [index, label] of labels.entries()) {
      const mark = marks[index] ?? null;
      const proof: LabelProof = {
        sentAtMs: mark?.sentAtMs ?? label.sentAtMs ?? this.clock.now(),
        epoch: null,
        serial: mark?.serial ?? null,
        odometerTarget: mark?.odometerTarget ?? null,
      };
      this.outstanding.push({ label, source, proof });
    }
    this.wake();
  }

  /** Something changed (a label fetched, a run resumed): look again now. */
  wake(): void {
    const waker = this.waker;
    this.waker = null;
    // A reason of our own: abort() without one builds a DOMException (and its stack) on every wake.
    waker?.abort('woken');
    if (!this.loop && !this.closing) this.loop = this.run();
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
    await this.loop;
  }

  private async run(): Promise<void> {
    try {
      while (!this.closing) {
        if (this.faultHold.current) {
          // A fault with nothing waiting on it is left for the next label to check.
          if (this.sources.length === 0 && this.outstanding.length === 0 && this.unjudged.length === 0) break;
          await this.waitOutFault();
          continue;
        }
        if (this.checkBeforeNext && this.tracksPrinting) {
          this.checkBeforeNext = false;
          await this.poll(false);
          continue;
        }
        if (this.unjudged.length > 0 && this.tracksPrinting) {
          // Labels left the buffer on a connection the marks were not read on yet: read them now.
          await this.poll(false);
          if (this.unjudged.length > 0 && !this.faultHold.current) await this.sleepOrWake(this.timing.faultPollMs);
          continue;
        }
        const pick = this.pick();
        if (pick.label) {
          const { source, label } = pick.label;
          if (source.serving.statusFirst && this.tracksPrinting && !this.readyChecked.has(source)) {
            // A scan goes only to a printer known to be ready: ask first (a fault makes it wait).
            await this.poll(false);
            continue;
          }
          if (this.tracksPrinting && this.outstanding.some((item) => !this.onLiveConnection(item.proof))) {
            // Labels sent on a connection that is gone may have been lost with a restart. Our next
            // label would move the printer's label counter towards their due counts, so they are
            // judged first, on a status answer alone, before anything else is sent.
            await this.poll(false);
            if (!this.closing && !this.faultHold.current && this.outstanding.some((item) => !this.onLiveConnection(item.proof))) await this.sleepOrWake(this.pollMs);
            continue;
          }
          const ours = this.outstandingFormats();
          if (this.tracksPrinting && ours > 0 && ours + label.formats > this.deps.maxFormatsInBuffer()) {
            // Only the printer can make room: wait a label's time, whatever else happens meanwhile.
            await this.clock.sleep(this.pollMs);
            if (!this.closing) await this.poll(true);
            continue;
          }
          if (this.tracksPrinting && !source.serving.answerFirst && this.dueCounts.wantBaseline && this.outstanding.length === 0) await this.dueCounts.takeBaseline((status) => this.cutShort.noteStatus(status));
          await this.send(source, label);
          continue;
        }
        if (pick.statusWanted && this.tracksPrinting) {
          // A scan's label is being fetched: ask the printer meanwhile, off the scan's critical path.
          await this.poll(false);
          continue;
        }
        if (this.tracksPrinting && this.outstanding.length > 0) {
          this.statePublisher.publish();
          await this.sleepOrWake(this.pollMs);
          if (!this.closing && !this.pick().label) await this.poll(false);
          continue;
        }
        if (this.sources.length === 0 && this.outstanding.length === 0) break;
        this.statePublisher.publish();
        await this.sleepOrWake(Number.POSITIVE_INFINITY);
      }
    } catch (error) {
      this.deps.logger.error('print queue stopped unexpectedly', { printer: this.transport.description, error: errorText(error) });
    } finally {
      this.loop = null;
      this.statePublisher.publish();
      if (this.idle) this.deps.onIdle?.();
    }
  }

  /**
   * The next label to send, those that go first before the rest; `statusWanted`: a source whose
   * label goes only after a fresh status is still fetching it, and the printer was not asked since.
   */
  private pick(): { label: { source: LabelSource; label: QueueLabel } | null; statusWanted: boolean } {
    let statusWanted = false;
    for (const first of [true, false]) {
      for (const source of this.sources) {
        if (source.serving.goesFirst !== first) continue;
        const next = source.next();
        if (next.kind === 'label') return { label: { source, label: next.label }, statusWanted };
        if (next.kind === 'wait' && source.serving.statusFirst && !this.readyChecked.has(source)) statusWanted = true;
      }
    }
    return { label: null, statusWanted };
  }

  /** True when the label went on the connection that is open now (or the transport cannot tell its connections apart). */
  private onLiveConnection(proof: LabelProof): boolean {
    const count = this.transport.connectionCount;
    if (count === undefined) return true;
    return this.transport.connected !== false && proof.epoch === count;
  }

  private outstandingFormats(): number {
    let formats = 0;
    for (const item of this.outstanding) formats += item.label.formats;
    return formats;
  }

  private async send(source: LabelSource, label: QueueLabel): Promise<void> {
    // "Sending began" is committed before the first byte leaves (an await on the store, no timer).
    try {
      await source.sending(label);
    } catch (error) {
      // Nothing left for the printer. The queue goes on serving its other labels; a run's label is
      // tried again after a pause, not in a tight loop against a store that is away.
      this.deps.logger.warn('label not sent: its start could not be journalled', { printer: this.transport.description, entryId: label.entryId, error: errorText(error) });
      source.notBegun(label, error);
      if (!source.serving.answerFirst) await this.sleepOrWake(this.pollMs);
      return;
    }
    this.sendingNow = label;
    // The screen hears of a scan's label in the printer after the printer's answer (applyStatus
    // below): an event between the label's bytes and that answer would hold the answer up.
    if (!source.serving.answerFirst) this.statePublisher.publish();
    try {
      const result = await this.transport.send(label.bytes, { confirm: this.tracksPrinting, jobName: `label ${label.entryId}` });
      this.sendingNow = null;
      const fault = result.status ? (faultsFromStatus(result.status)[0] ?? null) : null;
      const proof = this.tracksPrinting ? this.dueCounts.proofAtSend(label) : null;
      if (proof) {
        this.outstanding.push({ label, source, proof, sentIntoFault: this.cutShort.faultShown });
        // Kept for a resumed run; reaches the disk with the label's "sent" (see LabelSource.sent). A
        // scan's answer goes first: its marks are written on the next turn of the event loop, queued
        // before the "sent" the source writes on that turn too, so that commit still takes them to disk.
        if (source.serving.answerFirst) setImmediate(() => this.remember(source, label, proof, false));
        else this.remember(source, label, proof, false);
      }
      source.sent(label, fault);
      // The caller's answer goes out first (a scan waits on it); the rest of the bookkeeping for
      // the proof of printing follows on the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      if (result.status) await this.applyStatus(result.status);
      else this.statePublisher.publish();
    } catch (error) {
      this.sendingNow = null;
      this.statePublisher.publish();
      if (error instanceof PrinterTransportError && !error.uncertain) {
        // Nothing reached the printer: the label stays first in line for when it answers.
        source.notSent(label);
        this.setFault(faultOfFailure(error));
        return;
      }
      const reason =
        error instanceof PrinterTransportError
          ? `${error.message} Part or all of this label may have reached the printer, so it is not sent again by itself: check whether it printed.`
          : `Sending stopped unexpectedly (${errorText(error)}); this label may or may not have printed.`;
      source.uncertain(label, reason);
      // It may or may not move the label counter: the count due is not known any more.
      this.dueCounts.doubt();
      this.deps.logger.warn('label uncertain', { printer: this.transport.description, entryId: label.entryId, error: errorText(error) });
      if (error instanceof PrinterTransportError && error.failure === 'no-answer') {
        if (!(await this.nameTheSilence(error, { label, source, proof: { sentAtMs: this.clock.now(), epoch: null, serial: null, odometerTarget: null } }))) this.setFault({ ...printerFault('offline'), message: 'The printer stopped answering status requests.' });
      } else {
        this.checkBeforeNext = true;
      }
    }
  }

  private marksOf(source: LabelSource): LabelMarkStore | undefined {
    return source.marks ?? this.deps.marks;
  }

  private remember(source: LabelSource, label: QueueLabel, proof: LabelProof, waitForDisk = true): void {
    // Asked of the store before the source journals the label's "sent" (on SQLite, calls are taken in order).
    const written = this.marksOf(source)?.record({ entryId: label.entryId, sentAtMs: proof.sentAtMs, serial: proof.serial, odometerTarget: proof.odometerTarget }, { waitForDisk });
    written?.catch((error: unknown) => {
      // Only a resumed run needs these; printing goes on, and that run will say it cannot prove it.
      this.deps.logger.warn('label marks not kept', { entryId: label.entryId, error: errorText(error) });
    });
  }

  /** One ~HS: learn what left the buffer and whether a fault appeared. `adapt`: the wait before it was a label's time. */
  private async poll(adapt: boolean): Promise<boolean> {
    if (!canQuery(this.transport)) return true;
    try {
      const status = parseHostStatus(await this.transport.query(hostStatusQuery));
      const pendingBefore = this.outstanding.length;
      const gone = await this.applyStatus(status);
      // Aim at about one label per poll: the printer's own speed decides how often to ask.
      if (adapt && gone >= 2) this.pollMs = Math.max(this.timing.minPollMs, this.pollMs / 1.5);
      else if (adapt && gone === 0 && pendingBefore > 0) this.pollMs = Math.min(this.timing.maxPollMs, this.pollMs * 1.5);
      await this.checkStall();
      return true;
    } catch (error) {
      if (!(error instanceof PrinterTransportError)) this.deps.logger.warn('printer status not understood', { printer: this.transport.description, error: errorText(error) });
      if (await this.nameTheSilence(error)) return false;
      this.setFault(
        error instanceof PrinterTransportError ? faultOfFailure(error) : { ...printerFault('offline'), message: 'The printer’s status answer could not be read.' },
      );
      return false;
    }
  }

  /**
   * No ~HS answer: Zebra's newer firmware sends none while media or ribbon is out or the head is
   * open, and still answers ~HQES. When ~HQES names the fault, that is the fault holding the queue
   * (not "offline"), and it is watched through ~HQES until it clears. True when it named one.
   */
  private async nameTheSilence(error: unknown, unconfirmed?: Outstanding): Promise<boolean> {
    if (!isSilence(error) || !canQuery(this.transport)) return false;
    const behind = await faultsBehindSilence(this.transport);
    const fault = behind?.faults[0];
    if (!fault) return false;
    this.hostStatusSilenced = true;
    this.setFault(fault);
    await this.judgeCutShort(fault, null, unconfirmed);
    return true;
  }

  /** Labels a cutting fault may have caught under the head (cut-short.ts), and the due counts it puts in doubt. */
  private async judgeCutShort(fault: PrinterFault, formatsAtFault: number | null, unconfirmed?: Outstanding): Promise<void> {
    if (!(await this.cutShort.judge(fault, formatsAtFault, this.outstanding, unconfirmed))) return;
    // A cut copy may or may not move the counter (undocumented): due counts could be one short, which
    // would read a lost label as printed. They are dropped, and not taken again on this connection.
    for (const item of this.outstanding) {
      if (item.proof.odometerTarget === null) continue;
      item.proof.odometerTarget = null;
      this.remember(item.source, item.label, item.proof);
    }
    this.dueCounts.dropAfterCut();
  }

  /**
   * Counts what left the buffer since the last answer and judges it (print-proof.ts); returns how
   * many labels left. Reads the printer's marks when a verdict needs them.
   */
  private async applyStatus(status: HostStatus): Promise<number> {
    const epoch = this.transport.connectionCount ?? null;
    this.lastHost = { formatsInBuffer: status.formatsInBuffer, atMs: this.clock.now() };
    for (const source of this.sources) if (source.serving.statusFirst) this.readyChecked.add(source);
    const ours = this.outstandingFormats();
    let left = ours - status.formatsInBuffer;
    const gone: Outstanding[] = [];
    while (this.outstanding.length > 0 && left >= (this.outstanding[0]?.label.formats ?? Infinity)) {
      const item = this.outstanding.shift() as Outstanding;
      left -= item.label.formats;
      gone.push(item);
    }
    this.unjudged.push(...gone);
    if (gone.length > 0) {
      this.cutShort.left(gone.at(-1) as Outstanding);
      this.lastProgressAt = this.clock.now();
      this.stallChecked = false;
    }
    if (this.outstanding.length === 0) this.lastProgressAt = this.clock.now();
    const fault = faultsFromStatus(status)[0] ?? null;
    if (fault) this.setFault(fault);
    else this.statePublisher.publish();
    this.cutShort.noteStatus(status);
    // Before the verdicts, so a run's last label is not reported before its copies are.
    if (fault) await this.judgeCutShort(fault, status.formatsInBuffer);
    // Nothing in the buffer and nothing left of a batch: no label is printing (~HS eee and uuuuuuuu).
    else if (status.formatsInBuffer === 0 && status.labelsRemainingInBatch === 0) this.cutShort.nothingPrinting();
    const marks = await this.dueCounts.marksFor(epoch, status.formatsInBuffer, { outstanding: this.outstanding, unjudged: this.unjudged }, (item) => this.remember(item.source, item.label, item.proof));
    this.judge(epoch, marks);
    return gone.length;
  }

  /** Gives every label that left the buffer its verdict, once the marks it needs are known. */
  private judge(epoch: number | null, marks: PrinterMarks | null): void {
    const printed: Outstanding[] = [];
    const kept: Outstanding[] = [];
    for (const item of this.unjudged.splice(0)) {
      if (needsMarks(item.proof, epoch) && !marks && canQuery(this.transport)) {
        kept.push(item);
        continue;
      }
      const verdict = judgeDrained(item.proof, { epoch, marks, nowMs: this.clock.now() });
      if (verdict.printed) {
        printed.push(item);
      } else {
        this.deps.logger.warn('label left the printer unproven', { printer: this.transport.description, entryId: item.label.entryId, reason: verdict.reason });
        item.source.uncertain(item.label, verdict.reason);
      }
    }
    this.unjudged.push(...kept);
    for (const [source, labels] of groupBySource(printed)) source.printed(labels);
  }

  /** Labels pending and nothing printing for a while, yet ~HS shows no fault: ~HQES may know why. */
  private async checkStall(): Promise<void> {
    if (!canQuery(this.transport) || this.faultHold.current || this.stallChecked || this.outstanding.length === 0) return;
    if (this.clock.now() - this.lastProgressAt < this.timing.stallCheckMs) return;
    this.stallChecked = true;
    try {
      const extended = parseExtendedStatus(await this.transport.query(extendedStatusQuery));
      const host = parseHostStatus(await this.transport.query(hostStatusQuery));
      const fault = faultsFromStatus(host, extended)[0];
      if (fault) this.setFault(fault);
    } catch {
      // Older firmware without ~HQES: nothing more to learn.
    }
  }

  private setFault(fault: PrinterFault): void {
    if (this.faultHold.hold(fault, this.sources)) {
      this.pollMs = this.timing.pollMs;
      this.faultCheckedAt = this.clock.now();
    }
    this.statePublisher.publish();
  }

  private clearFault(): void {
    this.cutShort.statusCleared(this.outstanding);
    const told = this.faultHold.release();
    if (!told) return;
    this.cutShort.faultEnded();
    this.lastProgressAt = this.clock.now();
    for (const source of told) if (this.sources.includes(source)) source.printerResumed();
    this.statePublisher.publish();
  }

  /** Polls while the fault lasts; the user's word (wake) polls at once. */
  private async waitOutFault(): Promise<void> {
    if (!this.forceCheck) {
      const waitMs = this.timing.faultPollMs - (this.clock.now() - this.faultCheckedAt);
      if (waitMs > 0) {
        await this.sleepOrWake(waitMs);
        // Woken for another reason (a label fetched): not yet time to ask again.
        if (!this.forceCheck && this.clock.now() - this.faultCheckedAt < this.timing.faultPollMs) return;
      }
    }
    this.forceCheck = false;
    this.faultCheckedAt = this.clock.now();
    if (this.closing) return;
    if (!canQuery(this.transport)) {
      // An OS queue cannot be asked; a person says when to try again (wake), or the next poll tries.
      this.clearFault();
      return;
    }
    if (this.hostStatusSilenced) {
      // ~HS stays silent while this fault lasts; ~HQES says when it is gone.
      const behind = await faultsBehindSilence(this.transport);
      const fault = behind?.faults[0];
      if (fault) {
        this.setFault(fault);
        return;
      }
      this.hostStatusSilenced = false;
    }
    let status: HostStatus;
    try {
      status = parseHostStatus(await this.transport.query(hostStatusQuery));
    } catch (error) {
      if (await this.nameTheSilence(error)) return;
      if (error instanceof PrinterTransportError) this.setFault(faultOfFailure(error));
      return;
    }
    if (faultsFromStatus(status).length === 0) this.clearFault();
    // Still (or differently) faulty: count what left the buffer meanwhile, keep waiting.
    await this.applyStatus(status);
  }

  private async sleepOrWake(ms: number): Promise<void> {
    const waker = new AbortController();
    this.waker = waker;
    await this.clock.sleep(ms, waker.signal);
    if (this.waker === waker) this.waker = null;
  }

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
