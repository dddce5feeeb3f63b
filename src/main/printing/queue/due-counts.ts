/**
 * The printer's marks (serial number, time since power-on, label counter) as the queue's verdicts
 * need them, and each label's due count: the label counter once it and every label ahead of it have
 * printed (print-proof.ts). Read over SGD on the queue's own connection; a count is taken only
 * exactly (no label finished while it was read), tried again when not, and never guessed: a wrong
 * count could only make a label uncertain, never printed.
 */
import { errorText } from '../../../shared/error-text';
import { parseHostStatus, type HostStatus } from '../../../shared/zebra/host-status';
import { hostStatusQuery } from '../../../shared/zebra/queries';
import type { Logger } from '../../logging/logger';
import { canQuery, type PrinterTransport } from '../transports/transport';
import type { QueueClock } from './clock';
import type { QueueLabel } from './label-source';
import { needsMarks, type LabelProof, type Outstanding } from './print-proof';
import { readPrinterMarks, type PrinterMarks } from './printer-marks';

/** The labels the marks speak about: still in the printer's buffer, and out of it awaiting a verdict. */
export interface LabelsInPrinter {
  readonly outstanding: readonly Outstanding[];
  readonly unjudged: readonly Outstanding[];
}

/** The printer's marks as read on one connection. */
interface EpochMarks {
  epoch: number;
  marks: PrinterMarks;
  /** The label counter once every label of ours sent on this connection so far has printed; null until a count was taken exactly. */
  odometerTail: number | null;
  /** Attempts at an exact count (one with no label finishing while it was taken). */
  countTries: number;
}

// A fast printer finishes a label every 25 ms: on a busy computer most tries see one finish. Without
// a due count a label judged on another connection rests on the whole-second time since power-on,
// which leaves labels of the last second uncertain.
const COUNT_TRIES = 20;

export interface DueCountsDeps {
  transport: PrinterTransport;
  logger: Logger;
  clock: QueueClock;
  /**
   * The serial number the printer registry identified at this address, asked once per connection
   * before its first label; without it the marks are asked of the printer itself.
   */
  identifiedSerial?: () => string | null;
}

export class DueCounts {
  private epochMarks: EpochMarks | null = null;
  /** The serial number last read from the printer at this address. */
  private knownSerial: string | null = null;
  /**
   * The label counter once every label sent so far has printed: from an exact count, on whatever
   * connection, plus the formats sent since; null until one was taken (or after a doubt).
   */
  private counterTail: number | null = null;

  constructor(private readonly deps: DueCountsDeps) {}

  /** Nothing chains on the label counter yet: a baseline taken now gives the labels sent next their due counts. */
  get wantBaseline(): boolean {
    return this.counterTail === null;
  }

  /** The count every label will be due at is not known any more (labels of an earlier session, a label that may or may not have moved the counter). */
  doubt(): void {
    this.counterTail = null;
  }

  /**
   * A fault may have cut a label short, and a cut copy may or may not move the counter
   * (undocumented): the connection's count chain is dropped and not taken again on it.
   */
  dropAfterCut(): void {
    if (this.epochMarks) {
      this.epochMarks.odometerTail = null;
      this.epochMarks.countTries = COUNT_TRIES;
    }
    this.counterTail = null;
  }

  /** What is known about the printer as the label reached it; the label counter target chains on the connection's marks. */
  proofAtSend(label: QueueLabel): LabelProof {
    const epoch = this.deps.transport.connectionCount ?? null;
    const marks = this.epochMarks && this.epochMarks.epoch === epoch ? this.epochMarks : null;
    let odometerTarget: number | null = null;
    if (this.counterTail !== null) this.counterTail += label.formats;
    if (marks && marks.odometerTail !== null) {
      marks.odometerTail += label.formats;
      odometerTarget = marks.odometerTail;
    }
    return { sentAtMs: this.deps.clock.now(), epoch, serial: marks?.marks.serial ?? null, odometerTarget };
  }

  /**
   * Nothing of ours is in the printer: its label counter now, read exactly, is the count every
   * label sent from here on chains on (a bulk label only: a scan does not wait for it, and gets
   * its due count while it prints).
   */
  async takeBaseline(seen: (status: HostStatus) => void): Promise<void> {
    let formats: number;
    try {
      const status = parseHostStatus(await this.deps.transport.query?.(hostStatusQuery) ?? '');
      formats = status.formatsInBuffer;
      seen(status);
    } catch {
      return;
    }
    if (formats !== 0) return;
    const exact = await this.exactCounter(0);
    if (exact && exact.formats === 0) this.counterTail = exact.counter;
  }

  /** The label counter read between two status answers with the same formats in the buffer (nothing finished meanwhile). */
  private async exactCounter(formatsBefore: number): Promise<{ counter: number; formats: number } | null> {
    if (!canQuery(this.deps.transport)) return null;
    let before = formatsBefore;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const counter = await this.readCounter();
      if (counter === null) return null;
      let after: number;
      try {
        after = parseHostStatus(await this.deps.transport.query(hostStatusQuery)).formatsInBuffer;
      } catch {
        return null;
      }
      if (after === before) return { counter, formats: after };
      before = after;
    }
    return null;
  }

  private async readCounter(): Promise<number | null> {
    if (!canQuery(this.deps.transport)) return null;
    try {
      return (await readPrinterMarks(this.deps.transport, { serial: false, uptime: false })).odometer;
    } catch (error) {
      this.deps.logger.info('label counter not read', { printer: this.deps.transport.description, error: errorText(error) });
      return null;
    }
  }

  /**
   * The printer's marks for judging what left the buffer: read once per connection while labels of
   * ours are in its buffer or have left it on a connection other than their own (on a transport that
   * cannot tell its connections apart, each time a verdict needs them). Null: not needed, or could
   * not be read (the labels then wait for the next answer).
   */
  async marksFor(epoch: number | null, formatsSeen: number, labels: LabelsInPrinter, remember: (item: Outstanding) => void): Promise<PrinterMarks | null> {
    if (!canQuery(this.deps.transport)) return null;
    const verdictNeedsThem = labels.unjudged.some((item) => needsMarks(item.proof, epoch));
    if (epoch === null) return verdictNeedsThem ? this.readMarks(epoch, true) : null;
    const current = this.epochMarks?.epoch === epoch ? this.epochMarks : null;
    const ownLabelsWaiting = labels.outstanding.some((item) => item.proof.epoch === epoch);
    const countMissing = current !== null && current.odometerTail === null && current.marks.odometer !== null && current.countTries < COUNT_TRIES;
    // A verdict needs every mark as it is now; due counts need one exact count per connection.
    if (!verdictNeedsThem && !(ownLabelsWaiting && (current === null || countMissing))) return current?.marks ?? null;
    const marks = await this.readMarks(epoch, verdictNeedsThem);
    if (!marks) return null;
    if (current === null || countMissing) {
      // The count is exact only when no label finished between the status answer and the counter.
      const exact = marks.odometer !== null && (await this.bufferUnchanged(epoch, formatsSeen));
      this.settleMarks(epoch, marks, exact, (current?.countTries ?? 0) + 1, labels.outstanding, remember);
    }
    return marks;
  }

  /** True when the printer still holds `formats` formats, asked on the same connection. */
  private async bufferUnchanged(epoch: number, formats: number): Promise<boolean> {
    if (!canQuery(this.deps.transport)) return false;
    try {
      const status = parseHostStatus(await this.deps.transport.query(hostStatusQuery));
      return status.formatsInBuffer === formats && (this.deps.transport.connectionCount ?? null) === epoch;
    } catch {
      return false;
    }
  }

  /**
   * For a verdict, all three marks from the printer. For due counts only the counter: the serial is
   * the one the registry identified on this connection (when there is one), and the time since
   * power-on is not needed.
   */
  private async readMarks(epoch: number | null, forVerdict: boolean): Promise<PrinterMarks | null> {
    if (!canQuery(this.deps.transport)) return null;
    const identified = forVerdict ? null : (this.deps.identifiedSerial?.() ?? null);
    let marks: PrinterMarks;
    try {
      marks = await readPrinterMarks(this.deps.transport, forVerdict ? {} : { serial: identified === null, uptime: false });
      if (identified !== null) marks = { ...marks, serial: identified };
    } catch (error) {
      this.deps.logger.warn('printer marks not read', { printer: this.deps.transport.description, error: errorText(error) });
      return null;
    }
    // Read on another connection than the answer they go with: they say nothing about it.
    if ((this.deps.transport.connectionCount ?? null) !== epoch) return null;
    if (marks.serial !== null && this.knownSerial !== null && marks.serial !== this.knownSerial) {
      this.deps.logger.warn('another printer answers at this address', { printer: this.deps.transport.description, was: this.knownSerial, now: marks.serial });
    }
    if (marks.serial !== null) this.knownSerial = marks.serial;
    if (forVerdict && (marks.uptimeSeconds === null || marks.odometer === null || marks.serial === null)) {
      this.deps.logger.info('printer does not report every restart mark', { printer: this.deps.transport.description, ...marks });
    }
    return marks;
  }

  /** Labels still in the buffer that went on this connection: due at the label counter, in their order. */
  private settleMarks(epoch: number, marks: PrinterMarks, exactCount: boolean, countTries: number, outstanding: readonly Outstanding[], remember: (item: Outstanding) => void): void {
    let tail = exactCount ? marks.odometer : null;
    for (const item of outstanding) {
      if (tail !== null) tail += item.label.formats;
      if (item.proof.epoch !== epoch) continue;
      item.proof.serial ??= marks.serial;
      if (item.proof.odometerTarget === null && tail !== null) item.proof.odometerTarget = tail;
      remember(item);
    }
    this.epochMarks = { epoch, marks, odometerTail: tail, countTries };
    if (exactCount && marks.odometer !== null) {
      let all = marks.odometer;
      for (const item of outstanding) all += item.label.formats;
      this.counterTail = all;
    }
  }
}
