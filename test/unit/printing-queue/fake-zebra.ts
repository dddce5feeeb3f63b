/**
 * A fake clock and a fake network Zebra for the print queue's unit tests, written from how a
 * Zebra behaves (ZPL II Programming Guide: ~HS answers, SGD getvar answers, "?" for an unknown
 * variable), not from the station's parsers. Time only moves when the test moves it.
 */
import type { QueueClock } from '../../../src/main/printing/queue/clock';
import { inTurn, personWaiting, type LabelSource, type NextLabel, type QueueLabel, type Serving } from '../../../src/main/printing/queue/label-source';
import type { SendOptions, SendResult, StatusTransport } from '../../../src/main/printing/transports/transport';
import { PrinterTransportError } from '../../../src/main/printing/transports/transport';
import { parseHostStatus } from '../../../src/shared/zebra/host-status';
import type { ZebraQuery } from '../../../src/shared/zebra/queries';
import type { SecondCopyData } from '../../../src/shared/contract/printing';
import type { PrinterFault } from '../../../src/shared/zebra/faults';
import { errorText } from '../../../src/shared/error-text';

interface Timer {
  at: number;
  resolve: () => void;
}

/** Wall-clock time that moves only in advance(); sleeps resolve as it passes them. */
export class FakeClock implements QueueClock {
  private current = Date.UTC(2026, 10, 24, 8, 0, 0);
  private timers: Timer[] = [];

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer: Timer = { at: this.current + ms, resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((other) => other !== timer);
          resolve();
        },
        { once: true },
      );
    });
  }

  /** Lets every promise chain run that can run without time passing. */
  async settle(): Promise<void> {
    for (let round = 0; round < 20; round++) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Moves time forward by `ms`, firing each sleep in order and letting the code run after each. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    await this.settle();
    for (;;) {
      const next = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter((timer) => timer !== next);
      this.current = Math.max(this.current, next.at);
      next.resolve();
      await this.settle();
    }
    this.current = end;
    await this.settle();
  }

  /** Time passes with nothing of the station running (no sleep ends): the printer alone moves on. */
  jump(ms: number): void {
    this.current += ms;
  }

  /** Advances in steps until the condition holds; fails after `limitMs` of fake time. */
  async until(condition: () => boolean, limitMs = 60_000, stepMs = 10): Promise<void> {
    for (let waited = 0; waited <= limitMs; waited += stepMs) {
      if (condition()) return;
      await this.advance(stepMs);
    }
    throw new Error(`condition not met within ${limitMs} ms of fake time`);
  }
}

export interface FakeZebraOptions {
  msPerLabel?: number;
  serial?: string;
  odometer?: number;
  /** Answer "?" to the restart marks (older firmware). */
  noRestartMarks?: boolean;
}

/**
 * A Zebra on TCP 9100: one connection at a time (a new one after a reset), a receive buffer
 * printed one format per `msPerLabel`, faults that stop printing, a label counter kept across
 * power cycles, a power-on time that restarts with them.
 */
export class FakeZebra implements StatusTransport {
  readonly kind = 'network-zebra' as const;
  readonly format = 'zpl' as const;
  readonly description = 'the fake printer';
  readonly printed: string[] = [];
  readonly received: string[] = [];
  paperOut = false;
  headOpen = false;
  /** The most formats ever waiting in the buffer. */
  maxBuffered = 0;
  /** Called as each question arrives: a test moves the clock here to model an answer that takes its time. */
  beforeAnswer: ((query: ZebraQuery) => void) | null = null;
  /** Called once an answer has left: a test switches the printer off here, between two steps of the queue. */
  afterAnswer: ((query: ZebraQuery) => void) | null = null;
  private buffer: string[] = [];
  private printingSince: number;
  private poweredOnAt: number;
  private epoch = 0;
  private link = false;
  private serial: string;
  private odometer: number;
  private readonly msPerLabel: number;

  constructor(
    private readonly clock: FakeClock,
    private readonly options: FakeZebraOptions = {},
  ) {
    this.msPerLabel = options.msPerLabel ?? 50;
    this.serial = options.serial ?? 'D8J224500001';
    this.odometer = options.odometer ?? 1000;
    this.poweredOnAt = clock.now() - 3_600_000;
    this.printingSince = clock.now();
  }

  get connectionCount(): number {
    return this.epoch;
  }

  get connected(): boolean {
    return this.link;
  }

  get buffered(): number {
    this.catchUp();
    return this.buffer.length;
  }

  async send(data: Uint8Array, options: SendOptions = {}): Promise<SendResult> {
    this.open();
    this.catchUp();
    const text = Buffer.from(data).toString('latin1');
    this.received.push(text);
    if (this.buffer.length === 0) this.printingSince = this.clock.now();
    this.buffer.push(text);
    this.maxBuffered = Math.max(this.maxBuffered, this.buffer.length);
    if (options.confirm === false) return { bytesWritten: data.byteLength, confirmed: false };
    return { bytesWritten: data.byteLength, confirmed: true, status: parseHostStatus(this.hostStatus()) };
  }

  async query(query: ZebraQuery): Promise<string> {
    this.open();
    this.beforeAnswer?.(query);
    this.catchUp();
    let answer: string;
    if (query.kind === 'host-status') answer = this.hostStatus();
    else if (query.kind === 'getvar') answer = `"${this.getvar(query.name)}"`;
    else throw new Error(`the fake printer does not answer ${query.kind}`);
    this.afterAnswer?.(query);
    return answer;
  }

  async close(): Promise<void> {
    this.link = false;
  }

  /** The connection breaks (a cable, a switch): the printer itself carries on. */
  resetConnection(): void {
    this.link = false;
  }

  /** Off and on: the buffer is lost, the connection breaks, the counter stays. */
  powerCycle(offMs: number): void {
    this.catchUp();
    this.buffer = [];
    this.link = false;
    this.poweredOnAt = this.clock.now() + offMs;
  }

  /** Another printer at the address (its own serial number and counter), buffer empty. */
  swap(serial: string, odometer: number): void {
    this.powerCycle(0);
    this.serial = serial;
    this.odometer = odometer;
  }

  /** Prints what its time has come for (nothing while a fault stops it). */
  catchUp(): void {
    if (this.paperOut || this.headOpen) {
      this.printingSince = this.clock.now();
      return;
    }
    while (this.buffer.length > 0 && this.clock.now() - this.printingSince >= this.msPerLabel) {
      this.printed.push(this.buffer.shift() as string);
      this.odometer += 1;
      this.printingSince += this.msPerLabel;
    }
    if (this.buffer.length === 0) this.printingSince = this.clock.now();
  }

  private open(): void {
    if (this.clock.now() < this.poweredOnAt) {
      throw new PrinterTransportError('PRINTER_OFFLINE', 'The fake printer refused the connection.', { failure: 'refused', delivery: 'none' });
    }
    if (!this.link) {
      this.link = true;
      this.epoch += 1;
    }
  }

  private getvar(name: string): string {
    if (this.options.noRestartMarks) return '?';
    switch (name) {
      case 'odometer.total_label_count':
        return String(this.odometer);
      case 'device.unique_id':
        return this.serial;
      case 'device.uptime': {
        const seconds = Math.floor((this.clock.now() - this.poweredOnAt) / 1000);
        const pad = (value: number) => String(value).padStart(2, '0');
        return `${Math.floor(seconds / 86_400)} days ${pad(Math.floor(seconds / 3600) % 24)} hours ${pad(Math.floor(seconds / 60) % 60)} mins ${pad(seconds % 60)} secs`;
      }
      default:
        return '?';
    }
  }

  /** ~HS: three framed strings; b paper out, eee formats in buffer; string 2 field o head open. */
  private hostStatus(): string {
    const formats = String(this.buffer.length).padStart(3, '0');
    const one = `030,${this.paperOut ? 1 : 0},0,1184,${formats},0,0,0,000,0,0,0`;
    const two = `000,0,${this.headOpen ? 1 : 0},0,0,2,4,0,00000000,1,000`;
    const three = '1234,0';
    return `\x02${one}\x03\r\n\x02${two}\x03\r\n\x02${three}\x03\r\n`;
  }
}

/** A run as the queue sees it: labels in order, and a record of what the queue told it. */
export class RecordingSource implements LabelSource {
  readonly runId: string;
  readonly events: string[] = [];
  readonly printedIds: number[] = [];
  readonly uncertainReasons = new Map<number, string>();
  readonly sentIds: number[] = [];
  fault: PrinterFault | null = null;
  private readonly waiting: QueueLabel[];
  private inFlight: QueueLabel | null = null;

  readonly serving: Serving;

  /** `personWaits`: a scan's label, served as one (label-source.ts); otherwise a run's. */
  constructor(
    labels: number[],
    private readonly personWaits = false,
  ) {
    this.serving = personWaits ? personWaiting : inTurn;
    this.runId = personWaits ? 'single' : 'bundles';
    this.waiting = labels.map((entryId) => ({ entryId, runId: this.runId, bytes: new TextEncoder().encode(`^XA^FDlabel ${entryId}^FS^XZ`), formats: 1 }));
  }

  next(): NextLabel {
    if (this.fault) return { kind: 'none' };
    const label = this.waiting[0];
    return label ? { kind: 'label', label } : { kind: 'none' };
  }

  /** How many of the next "sending began" writes fail (the shared store away). */
  sendingFailures = 0;

  async sending(label: QueueLabel): Promise<void> {
    if (this.sendingFailures > 0) {
      this.sendingFailures -= 1;
      throw new Error('The store cannot be reached: connect ECONNREFUSED 127.0.0.1:5432');
    }
    this.inFlight = label;
    this.waiting.shift();
  }

  notSent(label: QueueLabel): void {
    this.inFlight = null;
    this.waiting.unshift(label);
  }

  /** As a print run does: a scan's label fails, a run's stays next in line. */
  notBegun(label: QueueLabel, error: unknown): void {
    if (this.personWaits) this.waiting.shift();
    this.events.push(`not begun ${label.entryId}: ${errorText(error)}`);
  }

  sent(label: QueueLabel, fault: PrinterFault | null): void {
    this.inFlight = null;
    this.sentIds.push(label.entryId);
    this.events.push(fault ? `sent ${label.entryId} with ${fault.kind}` : `sent ${label.entryId}`);
  }

  uncertain(label: QueueLabel, reason: string): void {
    this.uncertainReasons.set(label.entryId, reason);
    this.events.push(`uncertain ${label.entryId}`);
  }

  secondCopy(label: QueueLabel, secondCopy: SecondCopyData): void {
    this.events.push(`second copy ${label.entryId} ${secondCopy.certainty} ${secondCopy.fault}`);
  }

  printed(labels: QueueLabel[]): void {
    for (const label of labels) this.printedIds.push(label.entryId);
    this.events.push(`printed ${labels.map((label) => label.entryId).join(',')}`);
  }

  printerPaused(fault: PrinterFault): void {
    this.fault = fault;
    this.events.push(`paused ${fault.kind}`);
  }

  printerResumed(): void {
    this.fault = null;
    this.events.push('resumed');
  }

  get settled(): number {
    return this.printedIds.length + this.uncertainReasons.size;
  }

  get inFlightLabel(): QueueLabel | null {
    return this.inFlight;
  }
}
