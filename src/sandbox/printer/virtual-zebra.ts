// A TCP server that behaves like a networked Zebra on port 9100: it reads ZPL into a bounded
// receive buffer, prints formats at a set speed, answers status queries, keeps a label counter,
// can be power-cycled or swapped for another printer and given the faults a real printer has.
// docs/virtual-zebra.md describes it in full.
import { DiscoveryResponder } from './discovery-responder';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { z } from 'zod';
import { renderZplToPng } from '../labels/render';
import { PrinterConfiguration, type FormatAction } from './printer-configuration';
import type { PrinterSettingsValues } from './printer-memory';
import { defaultModel, defaultSerial, printerIdentityPatchSchema, type PrinterIdentityPatch } from './printer-identity';
import { RawCapture, type ReceivedBytes } from './raw-capture';
import {
  labelsPerSecondSchema,
  listenOptionsSchema,
  noFaults,
  printerFaultsPatchSchema,
  virtualZebraOptionsSchema,
  type ListenOptions,
  type PrinterFaults,
  type PrinterFaultsPatch,
  type VirtualZebraOptions,
  type VirtualZebraSettings,
} from './printer-settings';
import { labelLength, printQuantity } from './format-fields';
import { SgdVariables, type MediaOdometers, type SgdSettingTarget } from './sgd-variables';
import {
  configurationLines,
  configurationReply,
  dotsPerMillimetre,
  extendedStatusReply,
  hostStatusReply,
  identificationReply,
  odometerReply,
  printheadLifeReply,
  sgdReply,
  type ConfigurationText,
  type StatusSnapshot,
} from './status-replies';
import type {
  ConfigurationCommand,
  ConnectionInfo,
  DiscardReason,
  DiscardedFormat,
  FaultChange,
  PrintedLabel,
  PrinterState,
  ReceivedFormat,
  VirtualZebraStats,
} from './virtual-zebra-types';
import { ZplStreamParser, type ImmediateCommand, type ParserEvent, type SgdCommand } from './zpl-stream-parser';

export type {
  ListenOptions,
  PrinterFaults,
  PrinterFaultsPatch,
  VirtualZebraOptions,
  VirtualZebraSettings,
} from './printer-settings';
export type { StatusSnapshot } from './status-replies';
export type { PrinterIdentityPatch } from './printer-identity';
export type { ReceivedBytes } from './raw-capture';
export type {
  ConfigurationCommand,
  ConnectionInfo,
  DiscardReason,
  DiscardedFormat,
  FaultChange,
  PrintedLabel,
  PrinterIdentity,
  PrinterState,
  ReceivedFormat,
  VirtualZebraStats,
} from './virtual-zebra-types';

interface VirtualZebraEvents {
  printed: [label: PrintedLabel];
  received: [format: ReceivedFormat];
  discarded: [format: DiscardedFormat];
  fault: [change: FaultChange];
  connection: [connection: ConnectionInfo];
  power: [state: 'off' | 'on'];
  calibrated: [result: { labelLengthDots: number }];
}

interface QueuedFormat {
  id: number;
  byteLength: number;
  zpl: string;
  quantity: number;
  labelLengthDots: number | null;
  /** Downloads the format recalls (^XG, ^IM), prepended when the label is rendered. */
  recalled: string;
  /** The printer's own label (the configuration label ~WC prints): not a host's format, not counted by the label counter. */
  own: boolean;
}

/** A printed label and what is needed to render it as the printer that printed it would. */
interface PrintedRecord {
  label: PrintedLabel;
  dpi: number;
  printWidthDots: number;
  recalled: string;
}

interface PrintJob {
  format: QueuedFormat;
  copiesDone: number;
  timer: NodeJS.Timeout | null;
  labelStartedAt: number;
  /** ~JA arrived while a label was printing: finish that label, skip the remaining copies. */
  stopAfterLabel: boolean;
  /** The next copy is the printer's reprint of one a fault cut short (^JZY). */
  reprintNext: boolean;
}

interface Connection {
  info: ConnectionInfo;
  socket: net.Socket;
  parser: ZplStreamParser;
  pending: Buffer;
  blocked: boolean;
  ended: boolean;
  closed: boolean;
  /** Byte count at which this connection's current format is cut (drop fault), or null. */
  dropAt: number | null;
  /** One connection at a time: accepted, but not read until the connections before it close. */
  held: boolean;
}

const QUERY_COMMANDS = new Set<ImmediateCommand['kind']>(['host-status', 'host-identification', 'host-query']);
// Faults that stop the print engine at once, cutting the label in progress short; with ^JZY (a
// Zebra's power-up default, "reprint after error") that label is printed again once they clear.
const STOPPING_FAULTS = ['paperOut', 'headOpen', 'ribbonOut'] as const;
type StoppingFault = (typeof STOPPING_FAULTS)[number];
// ^JZY / ^JZN inside a format: the last one read wins.
const REPRINT_AFTER_ERROR = /\^JZ([YN])/gi;
// Commands that put something on a label; a format without any prints nothing (it only sets things).
const DRAWING_COMMAND = /\^(FD|FV|GB|GC|GD|GE|GF|GS|XG|IM|IL|XF)/i;
// A cut-short copy used about half a label of media.
const CUT_SHORT_SHARE = 0.5;
const DISCARD_LIMIT = 1000;
const DISCARD_SAMPLE_BYTES = 4096;
const MAX_UNREAD_REPLY_BYTES = 1024 * 1024;
// print.tone of a ZD421 as it leaves the factory.
const FACTORY_DARKNESS = 15;
// media.speed of a ZD421 as it leaves the factory.
const FACTORY_SPEED_IPS = 4;

export const powerCycleOptionsSchema = z.strictObject({
  /** How long the printer stays off before it is switched on again. */
  offMs: z.number().int().min(0).max(600_000).default(0),
});
export type PowerCycleOptions = z.input<typeof powerCycleOptionsSchema>;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const emptyStats = (): VirtualZebraStats => ({
  formatsReceived: 0,
  formatsPrinted: 0,
  labelsPrinted: 0,
  formatsDiscarded: 0,
  maxFormatsInBuffer: 0,
  idleMs: 0,
  busyMs: 0,
  bytesReceived: 0,
  connectionsAccepted: 0,
  readsPaused: 0,
});

export class VirtualZebra extends EventEmitter<VirtualZebraEvents> {
  private current: VirtualZebraSettings;
  private readonly now: () => number;
  private readonly sgd = new SgdVariables();
  private readonly configuration: PrinterConfiguration;
  private readonly capture = new RawCapture();
  private poweredOff = false;
  private poweredOnAt: number;
  private odometer: number;
  /** ^JZ: Y at power-up, changed by ^JZ in a format until the power goes. */
  private reprintAfterErrorValue = true;
  private media: MediaOdometers;
  /** ~JC asked for a calibration; it starts between labels. */
  private calibrationPending = false;
  private calibrationTimer: NodeJS.Timeout | null = null;
  /** Labels of the printer's own (the configuration label) waiting for the engine. */
  private readonly ownLabels: QueuedFormat[] = [];
  private replacements = 0;
  // Power cycles and swaps run one after another.
  private powerSettled: Promise<void> = Promise.resolve();
  private currentFaults: PrinterFaults = noFaults();
  private labelsPerSecondValue: number;
  private server: net.Server | null = null;
  private host: string | null = null;
  private discovery: DiscoveryResponder | null = null;
  private port: number | null = null;
  private started = false;
  private stopped = false;
  private readonly connections = new Set<Connection>();
  private nextConnectionId = 1;
  private readonly queue: QueuedFormat[] = [];
  private job: PrintJob | null = null;
  private nextFormatId = 0;
  private nextLabelIndex = 0;
  private records: PrintedRecord[] = [];
  private discards: DiscardedFormat[] = [];
  private counters: VirtualZebraStats = emptyStats();
  private lastLabelEndedAt: number | null = null;
  private notReadyAtLastLabelEnd = 0;
  private notReadyTotalMs = 0;
  private notReadySince: number | null = null;
  // Listener changes run one after another; `listenerSettled` never rejects, so it can be chained.
  private listenerSettled: Promise<void> = Promise.resolve();
  private lastListenerChange: Promise<void> = Promise.resolve();

  constructor(options: VirtualZebraOptions = {}) {
    super();
    const { now = Date.now, ...settings } = options;
    this.now = now;
    this.current = virtualZebraOptionsSchema.parse(settings);
    this.labelsPerSecondValue = this.current.labelsPerSecond;
    this.configuration = new PrinterConfiguration(this.now, this.factorySettings());
    this.odometer = this.current.odometerStart;
    this.media = {
      totalDots: 0,
      headCleanDots: this.current.headCleanInchesStart * this.current.dpi,
      headNewDots: this.current.headNewInchesStart * this.current.dpi,
    };
    this.poweredOnAt = this.now();
    this.applyFaults(printerFaultsPatchSchema.parse(this.current.faults), 'control');
  }

  /** The printer's settings; model, dpi, printWidthDots and serial change with replaceWith. */
  get settings(): VirtualZebraSettings {
    return this.current;
  }

  get name(): string {
    return this.current.name;
  }

  /** Binds the port (0 picks a free one) and resolves with the port number. */
  async start(options: ListenOptions = {}): Promise<number> {
    if (this.started) throw new Error(`Virtual printer "${this.name}" was already started`);
    const { host, port } = listenOptionsSchema.parse(options);
    this.started = true;
    this.host = host;
    this.port = await this.listen(host, port);
    if (this.currentFaults.refuseConnections) this.closeListener();
    return this.port;
  }

  /**
   * Switches the printer off and on, as its power switch does: every open connection is reset,
   * what was in the receive buffer (the label printing included) is lost and recorded in
   * discarded() as 'power-cycle', connections are refused while off, the power-on time restarts,
   * settings not saved with ^JUS revert, RAM (R:) objects are lost and a pause clears. The label
   * counter, flash (E:) objects and physical faults (paper out, head open, ribbon out) stay.
   * Resolves once the printer is on again and listening (unless refuseConnections is set).
   */
  async powerCycle(options: PowerCycleOptions = {}): Promise<void> {
    const { offMs } = powerCycleOptionsSchema.parse(options);
    return this.cyclePower(offMs, () => undefined);
  }

  /**
   * Another printer at the same address: a power cycle during which the printer is swapped for
   * one with this identity (its own serial number, counter, settings and memory). Values left
   * out keep the old printer's, except the serial (a new one is derived) and the counter
   * (odometerStart, default 0); a model left out follows a changed dpi.
   */
  async replaceWith(identity: PrinterIdentityPatch): Promise<void> {
    const patch = printerIdentityPatchSchema.parse(identity);
    return this.cyclePower(0, () => this.becomeAnotherPrinter(patch));
  }

  /** Every byte read, per connection in order (the newest 16 MiB in all). */
  received(): ReceivedBytes[] {
    return this.capture.list();
  }

  /**
   * Commands that changed the printer itself or persisted settings, in the order they were read
   * (docs/virtual-zebra.md lists which): ^JU…, ~JR, network and password commands, writes to and
   * deletes from flash, firmware downloads, SGD setvar/do and their JSON form.
   */
  configurationCommands(): ConfigurationCommand[] {
    return this.configuration.commands();
  }

  /**
   * Answers Zebra's UDP network discovery on host:port (4201 on a real printer; 0 picks a free
   * one), with this printer's name, model, firmware, serial, resolution and raw port. Resolves with
   * the UDP port. Call after start().
   */
  async answerDiscovery(options: { host?: string; port?: number } = {}): Promise<number> {
    if (this.port === null) throw new Error(`Virtual printer "${this.name}" answers discovery only once it listens`);
    const address = options.host ?? this.host ?? '127.0.0.1';
    this.discovery = new DiscoveryResponder(() => ({
      systemName: this.current.name,
      model: this.current.model ?? `ZD421-${this.current.dpi}dpi`,
      firmware: this.current.firmware,
      serial: this.current.serial ?? this.current.name,
      dpi: this.current.dpi,
      printWidthDots: this.current.printWidthDots,
      address,
      port: this.port ?? 9100,
    }));
    return this.discovery.start(address, options.port ?? 0);
  }

  /** Discovery requests this printer answered. */
  get discoveryRequestsAnswered(): number {
    return this.discovery?.answered ?? 0;
  }

  /** Closes the port and every connection and stops the print engine. Records stay readable. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.discovery?.stop();
    await this.listenerSettled;
    this.closeListener();
    if (this.job?.timer) clearTimeout(this.job.timer);
    if (this.calibrationTimer) clearTimeout(this.calibrationTimer);
    for (const connection of this.connections) connection.socket.destroy();
    this.connections.clear();
  }

  /** The port the printer listens on (also while it refuses connections). */
  get boundPort(): number | null {
    return this.port;
  }

  faults(): PrinterFaults {
    return { ...this.currentFaults };
  }

  /**
   * Changes some faults; the rest keep their value. Accepts plain JSON (validated: unknown keys
   * or wrong types throw a ZodError). Resolves once the listening socket matches the faults.
   */
  async setFaults(patch: unknown): Promise<PrinterFaults> {
    const parsed = printerFaultsPatchSchema.parse(patch);
    this.applyFaults(parsed, 'control');
    await this.lastListenerChange;
    return this.faults();
  }

  /** Back to a healthy printer: every fault off. */
  async clearFaults(): Promise<PrinterFaults> {
    return this.setFaults(noFaults());
  }

  setPaperOut(value = true): Promise<PrinterFaults> {
    return this.setFaults({ paperOut: value });
  }

  runOutOfPaperAfter(labels: number | null): Promise<PrinterFaults> {
    return this.setFaults({ paperOutAfterLabels: labels });
  }

  setHeadOpen(value = true): Promise<PrinterFaults> {
    return this.setFaults({ headOpen: value });
  }

  setPaused(value = true): Promise<PrinterFaults> {
    return this.setFaults({ paused: value });
  }

  setRibbonOut(value = true): Promise<PrinterFaults> {
    return this.setFaults({ ribbonOut: value });
  }

  refuseConnections(value = true): Promise<PrinterFaults> {
    return this.setFaults({ refuseConnections: value });
  }

  dropConnectionAfter(bytes: number | null): Promise<PrinterFaults> {
    return this.setFaults({ dropConnectionAfterBytes: bytes });
  }

  ignoreStatusQueries(value = true): Promise<PrinterFaults> {
    return this.setFaults({ ignoreStatusQueries: value });
  }

  /** As ^JZY / ^JZN would: whether a label cut short by a fault is printed again once it clears (Y at power-up). */
  setReprintAfterError(value: boolean): void {
    this.reprintAfterErrorValue = value;
  }

  get reprintAfterError(): boolean {
    return this.reprintAfterErrorValue;
  }

  get labelsPerSecond(): number {
    return this.labelsPerSecondValue;
  }

  /** Changes the print speed; it applies from the next label. */
  setLabelsPerSecond(labelsPerSecond: number): void {
    this.labelsPerSecondValue = labelsPerSecondSchema.parse(labelsPerSecond);
  }

  /** Labels printed so far, oldest first (at most recordLimit of them). */
  printed(): PrintedLabel[] {
    return this.records.map((record) => ({ ...record.label }));
  }

  /** Formats thrown away: cut by a dropped or closed connection, too long, or cancelled by ~JA. */
  discarded(): DiscardedFormat[] {
    return [...this.discards];
  }

  /** Renders a printed label (by its index) to PNG with the sandbox's ZPL renderer. */
  async renderPng(index: number): Promise<Buffer> {
    const record = this.records.find((candidate) => candidate.label.index === index);
    if (!record) throw new RangeError(`Printer "${this.name}" has no printed label ${index}`);
    // The paper is as wide as the printhead that printed it and as long as the label's ^LL (or
    // the media's length); dots are that printer's dots, so a 300 dpi printer prints 203 dpi ZPL smaller.
    const dpmm = dotsPerMillimetre(record.dpi);
    const lengthDots = labelLength(record.label.zpl) ?? this.current.labelLengthDots;
    return renderZplToPng(record.recalled + record.label.zpl, { dpmm, widthMm: record.printWidthDots / dpmm, heightMm: lengthDots / dpmm });
  }

  /** Resolves with the printed labels once at least `count` labels have been printed since start. */
  waitForLabels(count: number, timeoutMs = 10_000): Promise<PrintedLabel[]> {
    if (this.nextLabelIndex >= count) return Promise.resolve(this.printed());
    return new Promise((resolve, reject) => {
      const onPrinted = (): void => {
        if (this.nextLabelIndex < count) return;
        clearTimeout(timer);
        this.off('printed', onPrinted);
        resolve(this.printed());
      };
      const timer = setTimeout(() => {
        this.off('printed', onPrinted);
        reject(new Error(`Printer "${this.name}" printed ${this.nextLabelIndex} of ${count} labels in ${timeoutMs} ms`));
      }, timeoutMs);
      this.on('printed', onPrinted);
    });
  }

  stats(): VirtualZebraStats {
    return { ...this.counters };
  }

  /** Zeroes the counters (not the records); idle time starts counting from the next label. */
  resetStats(): void {
    this.counters = { ...emptyStats(), maxFormatsInBuffer: this.formatsInBuffer() };
    this.lastLabelEndedAt = null;
  }

  /** Everything a control API or a test may want to show about the printer, as plain JSON. */
  state(): PrinterState {
    return {
      name: this.name,
      host: this.host,
      port: this.port,
      listening: this.server !== null,
      faults: this.faults(),
      status: this.statusSnapshot(),
      bufferedBytes: this.bufferedBytes(),
      receiveBufferBytes: this.current.receiveBufferBytes,
      labelsPerSecond: this.labelsPerSecondValue,
      connections: this.connections.size,
      identity: { model: this.current.model, dpi: this.current.dpi, printWidthDots: this.current.printWidthDots, serial: this.current.serial },
      odometer: this.odometer,
      poweredOn: !this.poweredOff,
      poweredOnAt: this.poweredOnAt,
      storedObjects: this.configuration.storedObjects(),
      reprintAfterError: this.reprintAfterErrorValue,
      labelInProgress: this.job?.timer != null,
      settings: { ...this.configuration.current },
      savedSettings: this.configuration.saved(),
      labelCounter: this.current.labelCounter,
      calibrating: this.calibrationPending || this.calibrationTimer !== null,
      mediaInches: {
        total: Math.floor(this.media.totalDots / this.current.dpi),
        sinceHeadCleaned: Math.floor(this.media.headCleanDots / this.current.dpi),
        sinceHeadNew: Math.floor(this.media.headNewDots / this.current.dpi),
      },
    };
  }

  // ── power ────────────────────────────────────────────────────────────────

  private cyclePower(offMs: number, whileOff: () => void): Promise<void> {
    if (!this.started || this.stopped) return Promise.reject(new Error(`Printer "${this.name}" is not running`));
    const cycle = this.powerSettled.then(async () => {
      if (this.stopped) return;
      this.switchOff();
      whileOff();
      await this.listenerSettled;
      if (offMs > 0) await sleep(offMs);
      if (this.stopped) return;
      this.switchOn();
      await this.lastListenerChange;
    });
    this.powerSettled = cycle.catch(() => undefined);
    return cycle;
  }

  private switchOff(): void {
    this.poweredOff = true;
    this.updateListener();
    const now = this.now();
    const job = this.job;
    this.job = null;
    if (job) {
      if (job.timer) {
        clearTimeout(job.timer);
        this.counters.busyMs += now - job.labelStartedAt;
      }
      if (!job.format.own) this.recordDiscard('power-cycle', job.format.zpl, job.format.byteLength);
    }
    // A calibration or a configuration label under way is lost with the power.
    if (this.calibrationTimer) clearTimeout(this.calibrationTimer);
    this.calibrationTimer = null;
    this.calibrationPending = false;
    this.ownLabels.splice(0);
    for (const format of this.queue.splice(0)) this.recordDiscard('power-cycle', format.zpl, format.byteLength);
    for (const connection of [...this.connections]) this.loseConnection(connection);
    // Idle time is time the engine could have printed; an off printer could not.
    this.lastLabelEndedAt = null;
    this.emit('power', 'off');
  }

  private switchOn(): void {
    this.poweredOff = false;
    // ^JZ lasts until the power goes; Y at power-up.
    this.reprintAfterErrorValue = true;
    this.poweredOnAt = this.now();
    this.configuration.powerOn();
    this.updateListener();
    this.emit('power', 'on');
    // A pause does not survive power-off; paper out, head open and ribbon out are physical.
    this.applyFaults({ paused: false }, 'printer');
  }

  /** The power went: the connection is reset and whatever it held is lost. */
  private loseConnection(connection: Connection): void {
    connection.closed = true;
    // Bytes read from the socket but not yet taken into the buffer were the printer's too: they
    // continue the format in progress, if any, and may hold whole formats.
    const partial = connection.parser.abandonFormat() ?? Buffer.alloc(0);
    const unread = Buffer.concat([partial, connection.pending]);
    connection.pending = Buffer.alloc(0);
    if (unread.length > 0) {
      const reader = new ZplStreamParser({ maxFormatBytes: Number.MAX_SAFE_INTEGER });
      for (let rest = unread; rest.length > 0; ) {
        const { consumed, events } = reader.feed(rest);
        for (const event of events) if (event.type === 'format') this.recordDiscard('power-cycle', event.bytes, event.bytes.length);
        if (consumed === 0) break;
        rest = rest.subarray(consumed);
      }
      const tail = reader.abandonFormat();
      if (tail) this.recordDiscard('power-cycle', tail, tail.length);
    }
    this.connections.delete(connection);
    connection.socket.resetAndDestroy();
  }

  private becomeAnotherPrinter(patch: z.output<typeof printerIdentityPatchSchema>): void {
    const dpi = patch.dpi ?? this.current.dpi;
    this.replacements += 1;
    this.current = {
      ...this.current,
      dpi,
      model: patch.model ?? (patch.dpi !== undefined ? defaultModel(dpi) : this.current.model),
      printWidthDots: patch.printWidthDots ?? this.current.printWidthDots,
      serial: patch.serial ?? defaultSerial(this.current.name, this.replacements),
      odometerStart: patch.odometerStart ?? 0,
    };
    this.odometer = this.current.odometerStart;
    this.media = { totalDots: 0, headCleanDots: 0, headNewDots: 0 };
    this.sgd.clear();
    this.configuration.replace(this.factorySettings());
  }

  private factorySettings(): PrinterSettingsValues {
    return {
      darkness: FACTORY_DARKNESS,
      relativeDarkness: 0,
      labelLengthDots: this.current.labelLengthDots,
      speedIps: FACTORY_SPEED_IPS,
      printMethod: this.current.thermalTransfer ? 'thermal transfer' : 'direct thermal',
      mediaTracking: 'gap',
    };
  }

  // ── listening ────────────────────────────────────────────────────────────

  private listen(host: string, port: number): Promise<number> {
    const server = net.createServer({ allowHalfOpen: true }, (socket) => this.accept(socket));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, () => {
        server.off('error', reject);
        // A listening error after start (none expected on loopback) must not crash the host.
        server.on('error', () => undefined);
        this.server = server;
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  private closeListener(): void {
    // Stops accepting at once; connections already open are independent of the listener.
    this.server?.close();
    this.server = null;
  }

  private updateListener(): void {
    if (!this.started || this.stopped) return;
    const change = this.listenerSettled.then(async () => {
      if (this.stopped) return;
      const refuse = this.currentFaults.refuseConnections || this.poweredOff;
      if (refuse && this.server) this.closeListener();
      if (!refuse && !this.server && this.host !== null && this.port !== null) {
        await this.listen(this.host, this.port);
      }
    });
    // setFaults awaits `change` and so reports a failed re-bind; nobody else has to.
    change.catch(() => undefined);
    this.lastListenerChange = change;
    this.listenerSettled = change.catch(() => undefined);
  }

  // ── connections ──────────────────────────────────────────────────────────

  private accept(socket: net.Socket): void {
    if (this.stopped || this.poweredOff || this.currentFaults.refuseConnections) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    const connection: Connection = {
      info: { id: this.nextConnectionId++, remoteAddress: socket.remoteAddress ?? '', remotePort: socket.remotePort ?? 0 },
      socket,
      parser: new ZplStreamParser({ maxFormatBytes: this.current.maxFormatBytes, discardSampleBytes: DISCARD_SAMPLE_BYTES }),
      pending: Buffer.alloc(0),
      blocked: false,
      ended: false,
      closed: false,
      dropAt: null,
      held: this.currentFaults.oneConnectionAtATime && this.connections.size > 0,
    };
    this.connections.add(connection);
    if (connection.held) connection.socket.pause();
    this.counters.connectionsAccepted += 1;
    socket.on('data', (chunk: Buffer) => {
      if (connection.closed) return;
      this.counters.bytesReceived += chunk.length;
      this.capture.add(connection.info.id, chunk);
      connection.pending = connection.pending.length > 0 ? Buffer.concat([connection.pending, chunk]) : chunk;
      this.read(connection);
    });
    socket.on('end', () => {
      connection.ended = true;
      if (connection.pending.length === 0) this.finishConnection(connection);
    });
    // Resets and broken pipes are normal for a printer's peers; 'close' follows.
    socket.on('error', () => undefined);
    socket.on('close', () => this.closeConnection(connection, 'connection-closed'));
    this.emit('connection', { ...connection.info });
  }

  /** Reads as much of a connection's pending bytes as the receive buffer and faults allow. */
  private read(connection: Connection): void {
    if (connection.held) return;
    while (connection.pending.length > 0 && !connection.closed) {
      const { parser } = connection;
      const dropArmed = this.currentFaults.dropConnectionAfterBytes !== null;
      // Only printing frees the buffer. With no complete format in it, holding this connection
      // back would wait forever (a format whose ^XZ straddles the limit would never end), so the
      // format being read goes on past the limit, as a Zebra formats a label larger than its free
      // buffer as it arrives. One format at a time: once it is queued the limit applies again.
      const mayDrain = this.formatsInBuffer() > 0;
      let budget = mayDrain ? this.formatByteRoom() : Number.POSITIVE_INFINITY;
      if (connection.dropAt !== null && parser.inFormat) {
        budget = Math.min(budget, Math.max(0, connection.dropAt - parser.partialBytes));
      }
      const result = parser.feed(connection.pending, {
        formatByteBudget: budget,
        stopAfterFormatStart: dropArmed,
        stopAfterFormatEnd: !mayDrain,
      });
      connection.pending = connection.pending.subarray(result.consumed);
      for (const event of result.events) this.handle(connection, event);
      if (connection.closed) return;
      if (connection.dropAt !== null && parser.inFormat && parser.partialBytes >= connection.dropAt) {
        this.dropConnection(connection);
        return;
      }
      if (result.consumed === 0) break;
    }
    if (connection.pending.length > 0) {
      if (!connection.blocked) {
        connection.blocked = true;
        this.counters.readsPaused += 1;
        connection.socket.pause();
      }
      return;
    }
    if (connection.blocked) {
      connection.blocked = false;
      connection.socket.resume();
    }
    if (connection.ended) this.finishConnection(connection);
  }

  /** Format bytes the receive buffer can still take. */
  private formatByteRoom(): number {
    return Math.max(0, this.current.receiveBufferBytes - this.bufferedBytes());
  }

  /** Gives blocked connections another go after the buffer freed up or a fault changed. */
  private readBlocked(): void {
    for (const connection of this.connections) {
      if (connection.pending.length > 0 && !connection.closed) this.read(connection);
    }
  }

  private handle(connection: Connection, event: ParserEvent): void {
    switch (event.type) {
      case 'format-start':
        if (this.currentFaults.dropConnectionAfterBytes !== null && connection.dropAt === null) {
          connection.dropAt = this.currentFaults.dropConnectionAfterBytes;
        }
        return;
      case 'format':
        connection.dropAt = null;
        this.enqueue(event.bytes, connection);
        return;
      case 'format-discarded':
        connection.dropAt = null;
        this.recordDiscard('oversize', event.bytes, event.byteLength);
        return;
      case 'command':
        this.runCommand(connection, event.command);
        return;
      case 'sgd':
        this.runSgd(connection, event.command);
        return;
    }
  }

  private dropConnection(connection: Connection): void {
    this.closeConnection(connection, 'connection-dropped');
    this.applyFaults({ dropConnectionAfterBytes: null }, 'printer');
    connection.socket.resetAndDestroy();
  }

  /** The peer half-closed and everything it sent has been read. */
  private finishConnection(connection: Connection): void {
    if (connection.closed) return;
    this.closeConnection(connection, 'connection-closed');
    connection.socket.end();
  }

  private closeConnection(connection: Connection, reason: DiscardReason): void {
    if (connection.closed) return;
    connection.closed = true;
    connection.pending = Buffer.alloc(0);
    const partial = connection.parser.abandonFormat();
    if (partial) this.recordDiscard(reason, partial, partial.length);
    this.connections.delete(connection);
    this.serveNextHeld();
    this.readBlocked();
  }

  /** One connection at a time: the oldest held connection is served once no other is open. */
  private serveNextHeld(): void {
    const open = [...this.connections];
    if (open.some((candidate) => !candidate.held)) return;
    const next = open[0];
    if (!next) return;
    next.held = false;
    next.socket.resume();
    if (next.ended && next.pending.length === 0) this.finishConnection(next);
    else this.read(next);
  }

  private reply(connection: Connection, text: string): void {
    // A host that asks without ever reading gets no more answers once this much is waiting,
    // so it cannot make the printer hold unbounded memory.
    if (!connection.socket.writable || connection.socket.writableLength > MAX_UNREAD_REPLY_BYTES) return;
    connection.socket.write(text, 'latin1');
  }

  private runCommand(connection: Connection, command: ImmediateCommand): void {
    if (QUERY_COMMANDS.has(command.kind) && this.currentFaults.ignoreStatusQueries) return;
    switch (command.kind) {
      case 'host-status':
        if (!this.hostStatusSilent()) this.reply(connection, hostStatusReply(this.statusSnapshot()));
        return;
      case 'host-query':
        // ES (extended status), OD (odometer) and PH (printhead life) are modelled; a Zebra ignores query types it does not know.
        if (command.query === 'ES') this.reply(connection, extendedStatusReply(this.statusSnapshot()));
        if (command.query === 'OD') this.reply(connection, odometerReply(this.media.totalDots, this.current.dpi));
        if (command.query === 'PH') this.reply(connection, printheadLifeReply(this.media.headCleanDots, this.media.headNewDots, this.current.dpi));
        return;
      case 'host-identification':
        this.reply(connection, identificationReply(this.settings));
        return;
      case 'cancel-all':
        this.cancelAll();
        return;
      case 'pause':
        this.applyFaults({ paused: true }, 'command');
        return;
      case 'start-print':
        this.applyFaults({ paused: false }, 'command');
        return;
      case 'download':
        this.configuration.download(command.download);
        return;
      case 'darkness':
        this.configuration.setDarkness(command.value);
        return;
      case 'tilde': {
        const action = this.configuration.tilde(command.code);
        if (action) this.carryOut(action, connection);
        return;
      }
    }
  }

  /** What a command asked of the printer beyond its settings: a reset, a calibration, the configuration label or its text. */
  private carryOut(action: FormatAction, connection: Connection): void {
    switch (action) {
      case 'reset':
        // ~JR: "the same function as a manual power-on reset" (ZPL II Programming Guide).
        void this.cyclePower(0, () => undefined).catch(() => undefined);
        return;
      case 'calibrate':
        this.calibrationPending = true;
        this.runEngine();
        return;
      case 'configuration-label':
        // ~WC "works only when the printer is idle" (ZPL II Programming Guide).
        if (this.busy()) return;
        this.ownLabels.push(this.configurationLabel());
        this.runEngine();
        return;
      case 'configuration-return':
        this.reply(connection, configurationReply(this.configurationText()));
        return;
    }
  }

  /** Printing, calibrating, or holding formats or labels of its own. */
  private busy(): boolean {
    return this.job !== null || this.queue.length > 0 || this.ownLabels.length > 0 || this.calibrationPending || this.calibrationTimer !== null;
  }

  private configurationText(): ConfigurationText {
    const settings = this.configuration.current;
    return {
      darkness: settings.darkness,
      speedIps: settings.speedIps,
      mediaTracking: settings.mediaTracking,
      printMethod: settings.printMethod,
      printWidthDots: Number.parseInt(this.sgd.get('ezpl.print_width', this.sgdContext()), 10) || this.current.printWidthDots,
      labelLengthDots: settings.labelLengthDots,
      reprintAfterError: this.reprintAfterErrorValue,
      firmware: this.current.firmware,
      totalDots: this.media.totalDots,
      headCleanDots: this.media.headCleanDots,
      dpi: this.current.dpi,
    };
  }

  /** The configuration label ~WC prints: its lines as text fields, one under the other. */
  private configurationLabel(): QueuedFormat {
    const fields = configurationLines(this.configurationText())
      .map((line, row) => `^FO30,${30 + row * 34}^A0N,28,28^FD${line.replace(/[\^~]/g, ' ')}^FS`)
      .join('');
    const zpl = `^XA^LL${this.configuration.current.labelLengthDots}${fields}^XZ`;
    return { id: -1, byteLength: 0, zpl, quantity: 1, labelLengthDots: null, recalled: '', own: true };
  }

  private runSgd(connection: Connection, command: SgdCommand): void {
    switch (command.kind) {
      case 'setvar':
        this.configuration.recordCommand(`! U1 setvar "${command.name}" "${command.value}"`);
        this.sgd.set(command.name, command.value, this.settingTarget());
        return;
      case 'do':
        this.configuration.recordCommand(`! U1 do "${command.name}" "${command.value}"`);
        return;
      case 'getvar':
        if (this.currentFaults.ignoreStatusQueries) return;
        if (command.name.toLowerCase() === 'device.host_status' && this.hostStatusSilent()) return;
        this.reply(connection, sgdReply(this.sgdValue(command.name)));
        return;
      case 'json': {
        const entries = Object.entries(command.entries);
        if (entries.some(([, value]) => value !== null)) this.configuration.recordCommand(command.text);
        for (const [name, value] of entries) if (value !== null) this.sgd.set(name, String(value), this.settingTarget());
        if (this.currentFaults.ignoreStatusQueries) return;
        const answer = Object.fromEntries(entries.map(([name]) => [name, this.sgdValue(name)]));
        this.reply(connection, JSON.stringify(answer));
        return;
      }
    }
  }

  /** Zebra's newer firmware sends no ~HS answer while media or ribbon is out or the head is open. */
  private hostStatusSilent(): boolean {
    const f = this.currentFaults;
    return f.silentHostStatusInFaults && (f.paperOut || f.ribbonOut || f.headOpen);
  }

  private sgdValue(name: string): string {
    return this.sgd.get(name, this.sgdContext());
  }

  private sgdContext(): Parameters<SgdVariables['get']>[1] {
    return {
      status: this.statusSnapshot(),
      model: this.current.model,
      firmware: this.current.firmware,
      dpi: this.current.dpi,
      printWidthDots: this.current.printWidthDots,
      friendlyName: this.name,
      serial: this.current.serial,
      odometer: this.odometer,
      uptimeMs: this.now() - this.poweredOnAt,
      settings: this.configuration.current,
      reprintAfterError: this.reprintAfterErrorValue,
      media: this.media,
    };
  }

  /** What a setvar of a setting changes: the same setting its ZPL command changes. */
  private settingTarget(): SgdSettingTarget {
    const configuration = this.configuration;
    return {
      setDarkness: (value) => configuration.setDarkness(value),
      setSpeed: (ips) => configuration.setSpeed(ips),
      setPrintMethod: (method) => configuration.setPrintMethod(method),
      setMediaTracking: (tracking) => configuration.setMediaTracking(tracking),
      setLabelLength: (dots) => configuration.setLabelLength(dots),
      setReprintAfterError: (value) => {
        this.reprintAfterErrorValue = value;
      },
      resetHeadClean: () => {
        this.media.headCleanDots = 0;
      },
      resetHeadNew: () => {
        this.media.headNewDots = 0;
      },
    };
  }

  // ── receive buffer and print engine ──────────────────────────────────────

  private enqueue(bytes: Buffer, connection: Connection): void {
    const zpl = bytes.toString('utf8');
    // A Zebra acts on ^JZ as it reads the format, not when the label prints.
    for (const match of zpl.matchAll(REPRINT_AFTER_ERROR)) this.reprintAfterErrorValue = match[1]?.toUpperCase() === 'Y';
    const { recalled, actions } = this.configuration.runFormat(zpl);
    const format: QueuedFormat = {
      id: this.nextFormatId++,
      byteLength: bytes.length,
      zpl,
      // A format that draws nothing only sets things: it leaves the buffer without a label.
      quantity: DRAWING_COMMAND.test(zpl) ? printQuantity(zpl) : 0,
      labelLengthDots: labelLength(zpl),
      recalled,
      own: false,
    };
    for (const action of actions) this.carryOut(action, connection);
    this.queue.push(format);
    this.counters.formatsReceived += 1;
    this.counters.maxFormatsInBuffer = Math.max(this.counters.maxFormatsInBuffer, this.formatsInBuffer());
    this.emit('received', { formatId: format.id, byteLength: format.byteLength, receivedAt: this.now() });
    this.runEngine();
  }

  private cancelAll(): void {
    for (const format of this.queue.splice(0)) this.recordDiscard('cancelled', format.zpl, format.byteLength);
    if (this.job) {
      if (this.job.timer) {
        this.job.stopAfterLabel = true;
      } else {
        this.recordDiscard('cancelled', this.job.format.zpl, this.job.format.byteLength);
        this.job = null;
      }
    }
    for (const connection of this.connections) {
      const partial = connection.parser.abandonFormat();
      connection.dropAt = null;
      if (partial) this.recordDiscard('cancelled', partial, partial.length);
    }
    // Other connections may be waiting for room; this one continues in its own read loop.
    queueMicrotask(() => this.readBlocked());
  }

  private engineReady(): boolean {
    const f = this.currentFaults;
    return !this.poweredOff && !f.paperOut && !f.headOpen && !f.ribbonOut && !f.paused && !f.headTooHot;
  }

  private runEngine(): void {
    if (this.stopped || this.job?.timer || this.calibrationTimer || !this.engineReady()) return;
    if (this.calibrationPending && !this.job) {
      this.calibrate();
      return;
    }
    if (!this.job) {
      const next = this.ownLabels.shift() ?? this.queue.shift();
      if (!next) return;
      if (next.quantity === 0) {
        // Settings only: nothing to print, the format is done.
        this.counters.formatsPrinted += 1;
        this.readBlocked();
        this.runEngine();
        return;
      }
      this.job = { format: next, copiesDone: 0, timer: null, labelStartedAt: 0, stopAfterLabel: false, reprintNext: false };
    }
    const now = this.now();
    if (this.lastLabelEndedAt !== null) {
      const notReadyInGap = this.notReadyMs(now) - this.notReadyAtLastLabelEnd;
      this.counters.idleMs += Math.max(0, now - this.lastLabelEndedAt - notReadyInGap);
      this.lastLabelEndedAt = null;
    }
    const job = this.job;
    job.labelStartedAt = now;
    job.timer = setTimeout(() => this.finishLabel(job), 1000 / this.labelsPerSecondValue);
  }

  private finishLabel(job: PrintJob): void {
    job.timer = null;
    const now = this.now();
    this.counters.busyMs += now - job.labelStartedAt;
    this.markLabelEnd(now);
    const reprint = job.reprintNext;
    job.reprintNext = false;
    job.copiesDone += 1;
    const label = this.recordCopy(job, now, null, reprint);
    if (job.copiesDone >= job.format.quantity || job.stopAfterLabel) {
      this.job = null;
      if (!job.format.own) this.counters.formatsPrinted += 1;
    }
    this.emit('printed', { ...label });
    const remaining = this.currentFaults.paperOutAfterLabels;
    if (remaining !== null) {
      if (remaining <= 1) this.applyFaults({ paperOutAfterLabels: null, paperOut: true }, 'printer');
      else this.currentFaults.paperOutAfterLabels = remaining - 1;
    }
    this.readBlocked();
    this.runEngine();
  }

  /** A copy left the printer (whole, or cut short by a fault): recorded and counted by the odometer. */
  private recordCopy(job: PrintJob, now: number, cutShortBy: StoppingFault | null, reprint: boolean): PrintedLabel {
    const label: PrintedLabel = {
      index: this.nextLabelIndex++,
      zpl: job.format.zpl,
      printedAt: now,
      copy: cutShortBy !== null && this.reprintAfterErrorValue ? job.copiesDone + 1 : job.copiesDone,
      formatId: job.format.id,
      cutShortBy,
      reprint,
    };
    this.records.push({ label, dpi: this.current.dpi, printWidthDots: this.current.printWidthDots, recalled: job.format.recalled });
    if (this.records.length > this.current.recordLimit) this.records.shift();
    this.counters.labelsPrinted += 1;
    // The label counter counts labels, not the printer's own (odometer.total_label_count's note:
    // no form feeds or calibration labels); whether it counts a cut-short copy is this printer's choice.
    if (!job.format.own && (cutShortBy === null || this.current.labelCounter === 'every-copy')) this.odometer += 1;
    if (job.format.labelLengthDots !== null) this.configuration.current.labelLengthDots = job.format.labelLengthDots;
    this.moveMedia(this.configuration.current.labelLengthDots * (cutShortBy === null ? 1 : CUT_SHORT_SHARE));
    return label;
  }

  /** Media ran under the printhead: the length odometers move. */
  private moveMedia(dots: number): void {
    this.media.totalDots += dots;
    this.media.headCleanDots += dots;
    this.media.headNewDots += dots;
  }

  /**
   * ~JC: the printer feeds a few blank labels while it measures them, then knows the label length
   * of the roll loaded (the `labelLengthDots` it was built with). Formats wait meanwhile; the
   * labels fed are media, not labels printed.
   */
  private calibrate(): void {
    this.calibrationPending = false;
    const labels = this.current.calibrationLabels;
    this.calibrationTimer = setTimeout(() => {
      this.calibrationTimer = null;
      this.configuration.setLabelLength(this.current.labelLengthDots);
      this.moveMedia(labels * this.current.labelLengthDots);
      this.emit('calibrated', { labelLengthDots: this.current.labelLengthDots });
      this.readBlocked();
      this.runEngine();
    }, (labels * 1000) / this.labelsPerSecondValue);
  }

  /**
   * A stopping fault hit while a label was printing: the part already printed leaves the printer
   * and the media it used is counted. With ^JZY the label is printed again, whole, once the fault
   * clears (a second copy of it); with ^JZN the cut-short copy stands for that copy.
   */
  private interruptLabel(fault: StoppingFault): void {
    const job = this.job;
    if (!job?.timer) return;
    clearTimeout(job.timer);
    job.timer = null;
    const now = this.now();
    this.counters.busyMs += now - job.labelStartedAt;
    this.markLabelEnd(now);
    if (this.reprintAfterErrorValue) {
      const label = this.recordCopy(job, now, fault, job.reprintNext);
      job.reprintNext = true;
      this.emit('printed', { ...label });
      return;
    }
    job.copiesDone += 1;
    const label = this.recordCopy(job, now, fault, job.reprintNext);
    job.reprintNext = false;
    if (job.copiesDone >= job.format.quantity || job.stopAfterLabel) {
      this.job = null;
      if (!job.format.own) this.counters.formatsPrinted += 1;
    }
    this.emit('printed', { ...label });
    this.readBlocked();
  }

  private markLabelEnd(now: number): void {
    this.lastLabelEndedAt = now;
    this.notReadyAtLastLabelEnd = this.notReadyMs(now);
  }

  private notReadyMs(now: number): number {
    return this.notReadyTotalMs + (this.notReadySince === null ? 0 : now - this.notReadySince);
  }

  private applyFaults(patch: PrinterFaultsPatch, cause: FaultChange['cause']): void {
    const wasReady = this.engineReady();
    const before = this.currentFaults;
    const next: PrinterFaults = { ...before };
    for (const [key, value] of Object.entries(patch) as [keyof PrinterFaults, unknown][]) {
      if (value !== undefined) (next as Record<keyof PrinterFaults, unknown>)[key] = value;
    }
    if (next.paperOutAfterLabels === 0) {
      next.paperOutAfterLabels = null;
      next.paperOut = true;
    }
    this.currentFaults = next;

    const now = this.now();
    const ready = this.engineReady();
    if (wasReady && !ready) this.notReadySince = now;
    if (!wasReady && ready && this.notReadySince !== null) {
      this.notReadyTotalMs += now - this.notReadySince;
      this.notReadySince = null;
    }
    const stopping = STOPPING_FAULTS.find((fault) => next[fault] && !before[fault]);
    if (stopping) this.interruptLabel(stopping);
    if (next.refuseConnections !== before.refuseConnections) this.updateListener();
    if (before.oneConnectionAtATime && !next.oneConnectionAtATime) {
      for (const connection of [...this.connections]) {
        if (!connection.held) continue;
        connection.held = false;
        connection.socket.resume();
        this.read(connection);
      }
    }

    for (const key of Object.keys(next) as (keyof PrinterFaults)[]) {
      if (next[key] !== before[key]) this.emit('fault', { fault: key, value: next[key], cause, faults: this.faults() });
    }
    this.runEngine();
  }

  // ── status ───────────────────────────────────────────────────────────────

  private formatsInBuffer(): number {
    return this.queue.length + (this.job && !this.job.format.own ? 1 : 0);
  }

  private bufferedBytes(): number {
    let bytes = this.job && !this.job.format.own ? this.job.format.byteLength : 0;
    for (const format of this.queue) bytes += format.byteLength;
    for (const connection of this.connections) bytes += connection.parser.partialBytes;
    return bytes;
  }

  private statusSnapshot(): StatusSnapshot {
    const f = this.currentFaults;
    let partialFormat = false;
    let blocked = false;
    for (const connection of this.connections) {
      partialFormat ||= connection.parser.inFormat;
      blocked ||= connection.blocked;
    }
    return {
      paperOut: f.paperOut,
      paused: f.paused,
      headOpen: f.headOpen,
      ribbonOut: f.ribbonOut,
      labelLengthDots: this.configuration.current.labelLengthDots,
      formatsInBuffer: this.formatsInBuffer(),
      bufferFull: blocked || this.bufferedBytes() >= this.current.receiveBufferBytes,
      partialFormat,
      labelsRemainingInBatch: this.job ? this.job.format.quantity - this.job.copiesDone : 0,
      thermalTransfer: this.configuration.current.printMethod === 'thermal transfer',
      headTooHot: f.headTooHot,
      headTooCold: f.headTooCold,
      headElementBad: f.headElementBad,
    };
  }

  private recordDiscard(reason: DiscardReason, content: Buffer | string, byteLength: number): void {
    const text = typeof content === 'string' ? content : content.subarray(0, DISCARD_SAMPLE_BYTES).toString('utf8');
    const record: DiscardedFormat = { reason, zpl: text, byteLength, discardedAt: this.now() };
    this.discards.push(record);
    if (this.discards.length > DISCARD_LIMIT) this.discards.shift();
    this.counters.formatsDiscarded += 1;
    this.emit('discarded', { ...record });
  }
}
