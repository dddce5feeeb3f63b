/**
 * A networked Zebra written for tests from Zebra's own documentation (ZPL II Programming Guide and
 * the SGD command reference), independently of the project's virtual Zebra in src/sandbox/printer:
 * its own stream reader, engine, answers and settings. It checks that the station reads the
 * documentation, not the project's model of it. What it follows, and where it chooses because the
 * documentation is silent:
 *
 * - `^JZ` (Reprint After Error): Y at power-up; with Y a label cut short by media out or head open
 *   "is reprinted as soon as the error condition is corrected"; with N the cut copy stands.
 * - The label counter (SGD `odometer.total_label_count`) counts labels that came out whole, once
 *   each: the cut-short copy is not counted (Zebra does not say it is, so the harder case).
 * - `~HS` eee, "number of formats in receive buffer": the guide does not say whether the format
 *   being printed still counts. Both are modelled (`formatsInBuffer`): `until-printed` counts each
 *   format until its last copy is out (the one under the head and one a fault cut short included);
 *   `until-printing` stops counting a format once its first copy starts. b paper out, o head up,
 *   q thermal transfer follows `^MT`; dddd the label length.
 * - `~HQES` error group 1: media out 0x1, head open 0x4; warnings: clean printhead 0x2.
 * - SGD `! U1 getvar "name"` answers `"value"`; an unknown name answers `"?"`; `setvar` sets.
 * - `~SD` darkness 00–30, `^MD` relative; `^PR` speed; `^MT` D/T; `^MN` N/Y/W/M; `^JUS` saves,
 *   `~JR` restarts with the saved settings (`^JZ` back to Y); `~JC` feeds blank labels, measures
 *   the roll and sets the label length; `~WC` prints the configuration label; `^HH` answers it.
 * - A format that draws nothing (no `^FD`, `^GF` or `^XG`) prints nothing.
 *
 * Answers can be made messy as real firmware is: CR/LF variations, padding inside SGD quotes,
 * trailing CR/LF after SGD answers, "?" for chosen variables (then `^HH` is the only source).
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';

export interface IndependentZebraOptions {
  dpi?: number;
  /** Dots the printhead has across (832 at 203 dpi is a 4-inch head). */
  headDots?: number;
  /** The loaded roll's label length in dots, as ~JC measures it (and the label length at power-up). */
  rollLengthDots?: number;
  /** The print width setting at power-up (ezpl.print_width), e.g. set to the roll's width. */
  printWidthDots?: number;
  /** Milliseconds each label takes to come out. */
  labelMs?: number;
  /** Labels counted before this test (odometer.total_label_count). */
  labelCountStart?: number;
  /** Inches since the printhead was last cleaned. */
  headCleanInches?: number;
  serial?: string;
  /** Line ending after each ~HS string and inside ^HH/~HQES; real firmware sends CR LF, some LF only. */
  lineEnd?: string;
  /** Spaces put inside the quotes of each SGD answer (`" 22.0 "`). */
  sgdPadding?: boolean;
  /** Bytes sent after an SGD answer's closing quote (some firmware adds CR LF). */
  sgdTrailer?: string;
  /** Variables this firmware does not know: getvar answers "?". */
  unknownVariables?: string[];
  /** Feed per calibration, in labels. */
  calibrationLabels?: number;
  /** Milliseconds the printer rests between one label and the next (nothing under the head then). */
  restBetweenLabelsMs?: number;
  /** What ~HS eee counts (see above); `until-printed` unless told. */
  formatsInBuffer?: 'until-printed' | 'until-printing';
}

export interface LabelOut {
  format: string;
  whole: boolean;
  /** The printer's own reprint of a label a fault cut short. */
  reprint: boolean;
  at: number;
}

interface Settings {
  darkness: number;
  relativeDarkness: number;
  speed: number;
  method: 'T' | 'D';
  tracking: 'N' | 'Y' | 'M';
  labelLength: number;
  printWidth: number;
}

interface Job {
  format: string;
  copiesLeft: number;
  /** The copy under the head was cut short: the next copy out of it is the printer's reprint. */
  cut: boolean;
  /** A copy of it has begun printing. */
  started: boolean;
}

const STX = '\x02';
const ETX = '\x03';
const PRINTS = /\^(FD|GF|XG|IM)/i;

export class IndependentZebra extends EventEmitter {
  readonly dpi: number;
  readonly headDots: number;
  rollLengthDots: number;
  private readonly options: IndependentZebraOptions;
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly jobs: Job[] = [];
  private timer: NodeJS.Timeout | null = null;
  private printingSince: number | null = null;
  private resting: NodeJS.Timeout | null = null;
  private calibratingLeft = 0;
  private settings: Settings;
  private saved: Settings;
  private sgdValues = new Map<string, string>();
  /** ^JZ: reprint after error, Y at power-up and never saved. */
  reprintAfterError = true;
  labelCount: number;
  headCleanInches: number;
  mediaOut = false;
  headOpen = false;
  readonly out: LabelOut[] = [];
  /** Every byte read, as latin1 text, in order. */
  received = '';
  /** Settings-changing commands read, in order (`~SD22`, `^MTD`, `^JUS`, `setvar odometer.headclean 0`, `~JC`, `~WC`). */
  readonly commands: string[] = [];
  private poweredAt = Date.now();

  constructor(options: IndependentZebraOptions = {}) {
    super();
    this.options = options;
    this.dpi = options.dpi ?? 203;
    this.headDots = options.headDots ?? (this.dpi === 203 ? 832 : Math.round((832 * this.dpi) / 203 / 8) * 8);
    this.rollLengthDots = options.rollLengthDots ?? Math.round((148 * this.dpi) / 25.4);
    this.settings = {
      darkness: 15,
      relativeDarkness: 0,
      speed: 4,
      method: 'T',
      tracking: 'Y',
      labelLength: this.rollLengthDots,
      printWidth: options.printWidthDots ?? this.headDots,
    };
    this.saved = { ...this.settings };
    this.labelCount = options.labelCountStart ?? 0;
    this.headCleanInches = options.headCleanInches ?? 0;
  }

  async start(): Promise<number> {
    const server = net.createServer((socket) => this.serve(socket));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as net.AddressInfo).port;
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.resting) clearTimeout(this.resting);
    this.resting = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A label is coming out now: a media out or head open would cut it. */
  get labelUnderHead(): boolean {
    return this.printingSince !== null && this.calibratingLeft === 0;
  }

  /** Nothing printing and nothing left to print. */
  get idle(): boolean {
    return this.printingSince === null && this.jobs.every((job) => job.copiesLeft === 0);
  }

  /** Resting between two labels of the buffer: a fault now cuts nothing short. */
  get betweenLabels(): boolean {
    return this.resting !== null && this.jobs.some((job) => job.copiesLeft > 0);
  }

  get currentSettings(): Readonly<Settings> {
    return { ...this.settings };
  }

  get savedSettings(): Readonly<Settings> {
    return { ...this.saved };
  }

  setMediaOut(value: boolean): void {
    this.mediaOut = value;
    this.faultChanged();
  }

  setHeadOpen(value: boolean): void {
    this.headOpen = value;
    this.faultChanged();
  }

  /** Power switched off and on: the buffer is lost, settings go back to the saved ones. */
  restart(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.resting) clearTimeout(this.resting);
    this.resting = null;
    this.printingSince = null;
    this.calibratingLeft = 0;
    this.jobs.length = 0;
    this.settings = { ...this.saved };
    this.reprintAfterError = true;
    this.poweredAt = Date.now();
    for (const socket of this.sockets) socket.resetAndDestroy();
  }

  private get stopped(): boolean {
    return this.mediaOut || this.headOpen;
  }

  private faultChanged(): void {
    if (this.stopped && this.printingSince !== null) {
      // Stopped in the middle of the label: the part printed comes out as a cut-short copy.
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.printingSince = null;
      if (this.calibratingLeft > 0) return;
      const job = this.jobs[0] as Job;
      this.out.push({ format: job.format, whole: false, reprint: job.cut, at: Date.now() });
      this.emit('label', this.out.at(-1));
      if (this.reprintAfterError) {
        job.cut = true;
      } else {
        // ^JZN: the cut copy stands for this copy.
        job.copiesLeft -= 1;
        if (job.copiesLeft === 0) this.jobs.shift();
      }
      return;
    }
    this.pump();
  }

  private serve(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => this.sockets.delete(socket));
    const reader = { pending: '', format: null as string | null };
    socket.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      this.received += text;
      reader.pending += text;
      this.read(reader, socket);
    });
  }

  /** Reads what it can of the connection's bytes; keeps an incomplete command for the next packet. */
  private read(reader: { pending: string; format: string | null }, socket: net.Socket): void {
    for (;;) {
      const text = reader.pending;
      if (text.length === 0) return;
      if (reader.format !== null) {
        // Inside a format: tilde queries act at once, the rest waits for ^XZ.
        const end = text.search(/\^XZ/i);
        const tilde = text.search(/~(HS|HQES|HI)/i);
        if (tilde >= 0 && (end < 0 || tilde < end)) {
          const command = /^~(HQES|HS|HI)/i.exec(text.slice(tilde))?.[1]?.toUpperCase() as string;
          reader.format += text.slice(0, tilde);
          reader.pending = text.slice(tilde + 1 + command.length);
          this.answerTilde(command, '', socket);
          continue;
        }
        if (end < 0) {
          // Keep a possible cut "^X" or "~H…" for the next packet.
          const keep = Math.max(text.lastIndexOf('^'), text.lastIndexOf('~'));
          const cut = keep >= 0 && text.length - keep < 5 ? keep : text.length;
          reader.format += text.slice(0, cut);
          reader.pending = text.slice(cut);
          return;
        }
        const format = reader.format + text.slice(0, end);
        reader.format = null;
        reader.pending = text.slice(end + 3);
        this.takeFormat(format, socket);
        continue;
      }
      const start = text.search(/[\^~!]/);
      if (start < 0) {
        reader.pending = '';
        return;
      }
      const rest = text.slice(start);
      if (rest[0] === '^') {
        if (rest.length < 3) {
          reader.pending = rest;
          return;
        }
        reader.pending = rest.slice(rest.slice(0, 3).toUpperCase() === '^XA' ? 3 : 1);
        if (rest.slice(0, 3).toUpperCase() === '^XA') reader.format = '';
        continue;
      }
      if (rest[0] === '!') {
        const line = /^! U1 ([^\r\n]*)(\r\n|\r|\n)/.exec(rest);
        if (!line) {
          if (rest.length > 300 || !/^(!|! |! U|! U1|! U1 .*)$/s.test(rest)) reader.pending = rest.slice(1);
          else {
            reader.pending = rest;
            return;
          }
          continue;
        }
        reader.pending = rest.slice(line[0].length);
        this.sgd(line[1] as string, socket);
        continue;
      }
      // A tilde command outside a format: two letters; ~SD takes two digits, ~HQ a query type.
      if (rest.length < 3) {
        reader.pending = rest;
        return;
      }
      const command = rest.slice(1, 3).toUpperCase();
      const needs = command === 'SD' || command === 'HQ' ? 5 : 3;
      if (rest.length < needs) {
        reader.pending = rest;
        return;
      }
      const parameter = rest.slice(3, needs);
      reader.pending = rest.slice(needs);
      if (command === 'SD' && !/^\d{2}$/.test(parameter)) continue;
      this.answerTilde(command === 'HQ' ? `HQ${parameter.toUpperCase()}` : command, parameter, socket);
    }
  }

  private answerTilde(command: string, parameter: string, socket: net.Socket): void {
    switch (command) {
      case 'HS':
        socket.write(this.hostStatus(), 'latin1');
        return;
      case 'HQES':
        socket.write(this.extendedStatus(), 'latin1');
        return;
      case 'HI':
        socket.write(`${STX}ZD421-${this.dpi}dpi,V84.20.18Z,${Math.round(this.dpi / 25.4)},8176KB${ETX}${this.lineEnd}`, 'latin1');
        return;
      case 'SD':
        this.settings.darkness = Math.min(30, Number.parseInt(parameter, 10));
        this.commands.push(`~SD${parameter}`);
        return;
      case 'JC':
        this.commands.push('~JC');
        this.calibratingLeft = this.options.calibrationLabels ?? 2;
        this.pump();
        return;
      case 'WC':
        this.commands.push('~WC');
        if (this.jobs.length === 0 && this.printingSince === null) this.jobs.push({ format: `^FD${this.configurationText()}^FS`, copiesLeft: 1, cut: false, started: false });
        this.pump();
        return;
      case 'JR':
        this.commands.push('~JR');
        this.restart();
        return;
      default:
        return;
    }
  }

  private get lineEnd(): string {
    return this.options.lineEnd ?? '\r\n';
  }

  /** ~HS: three strings, STX … ETX each, as the ZPL II Programming Guide lays them out. */
  hostStatus(): string {
    const counted = this.options.formatsInBuffer === 'until-printing' ? this.jobs.filter((job) => !job.started).length : this.jobs.length;
    const eee = String(counted).padStart(3, '0');
    const dddd = String(this.settings.labelLength).padStart(4, '0');
    const q = this.settings.method === 'T' ? 1 : 0;
    const remaining = String(this.jobs.find((job) => job.copiesLeft > 0)?.copiesLeft ?? 0).padStart(8, '0');
    const end = this.lineEnd;
    return (
      `${STX}030,${this.mediaOut ? 1 : 0},0,${dddd},${eee},0,0,0,000,0,0,0${ETX}${end}` +
      `${STX}001,0,${this.headOpen ? 1 : 0},0,${q},2,6,0,${remaining},1,000${ETX}${end}` +
      `${STX}1234,0${ETX}${end}`
    );
  }

  /** ~HQES: error flags (media out 0x1, head open 0x4) and warnings (clean printhead 0x2). */
  extendedStatus(): string {
    const errors = (this.mediaOut ? 1 : 0) + (this.headOpen ? 4 : 0);
    const cleanDue = this.headCleanInches >= 3000 ? 2 : 0;
    const hex = (value: number): string => value.toString(16).toUpperCase().padStart(8, '0');
    const end = this.lineEnd;
    return (
      `${STX}${end}${end}  PRINTER STATUS${end}` +
      `   ERRORS:         ${errors ? 1 : 0} 00000000 ${hex(errors)}${end}` +
      `   WARNINGS:       ${cleanDue ? 1 : 0} 00000000 ${hex(cleanDue)}${end}${ETX}`
    );
  }

  /** The SGD value of a name, as the SGD command reference words it; null: not known here. */
  private sgdValue(name: string): string | null {
    if (this.options.unknownVariables?.includes(name)) return null;
    const s = this.settings;
    const inches = (value: number): string => `${Math.round(value)} INCHES, ${Math.round(value * 2.54)} CENTIMETERS`;
    const up = Math.floor((Date.now() - this.poweredAt) / 1000);
    switch (name) {
      case 'device.languages':
        return 'zpl';
      case 'head.resolution.in_dpi':
        return String(this.dpi);
      case 'ezpl.print_width':
        return String(s.printWidth);
      case 'device.unique_id':
        return this.options.serial ?? 'IZ4471100093';
      case 'device.product_name':
        return 'ZD421';
      case 'device.uptime':
        return `${Math.floor(up / 86400)} days ${String(Math.floor(up / 3600) % 24).padStart(2, '0')} hours ${String(Math.floor(up / 60) % 60).padStart(2, '0')} mins ${String(up % 60).padStart(2, '0')} secs`;
      case 'odometer.total_label_count':
        return String(this.labelCount);
      case 'print.tone':
        return (s.darkness + s.relativeDarkness).toFixed(1);
      case 'media.speed':
        return String(s.speed);
      case 'ezpl.print_method':
        return s.method === 'T' ? 'thermal trans' : 'direct thermal';
      case 'ezpl.media_type':
        return s.tracking === 'N' ? 'continuous' : s.tracking === 'M' ? 'mark' : 'gap/notch';
      case 'zpl.label_length':
        return String(s.labelLength);
      case 'ezpl.reprint_mode':
        return this.reprintAfterError ? 'on' : 'off';
      case 'odometer.headclean':
        return inches(this.headCleanInches);
      case 'odometer.headnew':
        return inches(this.headCleanInches + 10_000);
      case 'media.status':
        return this.mediaOut ? 'out' : 'ok';
      case 'head.latch':
        return this.headOpen ? 'open' : 'ok';
      default:
        return this.sgdValues.get(name) ?? null;
    }
  }

  private sgd(line: string, socket: net.Socket): void {
    const getvar = /^getvar\s+"([^"]+)"/i.exec(line);
    if (getvar) {
      const value = this.sgdValue(getvar[1] as string);
      const shown = value === null ? '?' : this.options.sgdPadding ? ` ${value} ` : value;
      socket.write(`"${shown}"${this.options.sgdTrailer ?? ''}`, 'latin1');
      return;
    }
    const setvar = /^setvar\s+"([^"]+)"\s+"([^"]*)"/i.exec(line);
    if (!setvar) return;
    const [, name, value] = setvar as unknown as [string, string, string];
    this.commands.push(`setvar ${name} ${value}`);
    if (name === 'odometer.headclean' && value === '0') this.headCleanInches = 0;
    else if (name === 'ezpl.reprint_mode') this.reprintAfterError = value.toLowerCase() === 'on';
    else if (name === 'print.tone') this.settings.darkness = Math.round(Number(value));
    else this.sgdValues.set(name, value);
  }

  /** The configuration as ^HH returns it: value first, name after, in one framed block. */
  configurationText(): string {
    const s = this.settings;
    const end = this.lineEnd;
    const line = (value: string, name: string): string => `  ${value.padEnd(20)}${name}${end}`;
    return (
      line(`+${(s.darkness + s.relativeDarkness).toFixed(1)}`, 'DARKNESS') +
      line(`${s.speed} IPS`, 'PRINT SPEED') +
      line('TEAR OFF', 'PRINT MODE') +
      line(s.tracking === 'N' ? 'CONTINUOUS' : 'GAP/NOTCH', 'MEDIA TYPE') +
      line(s.tracking === 'M' ? 'MARK' : 'WEB', 'SENSOR TYPE') +
      line(s.method === 'T' ? 'THERMAL-TRANS.' : 'DIRECT-THERMAL', 'PRINT METHOD') +
      line(String(s.printWidth), 'PRINT WIDTH') +
      line(String(s.labelLength), 'LABEL LENGTH') +
      line(this.reprintAfterError ? 'ENABLED' : 'DISABLED', 'REPRINT MODE') +
      line('V84.20.18Z', 'FIRMWARE') +
      line(`${this.labelCount} LABELS`, 'NONRESET CNTR')
    );
  }

  /** The format's commands act as it is read; a format that draws something is queued to print. */
  private takeFormat(format: string, socket: net.Socket): void {
    for (const match of format.matchAll(/\^([A-Z]{2})([^^~]*)/gi)) {
      const command = (match[1] as string).toUpperCase();
      const parameter = (match[2] ?? '').trim();
      switch (command) {
        case 'MD':
          this.settings.relativeDarkness = Number.parseFloat(parameter) || 0;
          break;
        case 'PR': {
          const letter = { A: 2, B: 3, C: 4, D: 6, E: 8 }[parameter.charAt(0).toUpperCase()];
          const speed = letter ?? Number.parseInt(parameter, 10);
          if (Number.isFinite(speed)) this.settings.speed = Math.max(2, Math.min(6, speed));
          this.commands.push(`^PR${parameter}`);
          break;
        }
        case 'MT':
          if (/^[TD]/i.test(parameter)) this.settings.method = parameter.charAt(0).toUpperCase() as 'T' | 'D';
          this.commands.push(`^MT${parameter}`);
          break;
        case 'MN': {
          const letter = parameter.charAt(0).toUpperCase();
          if (letter === 'N' || letter === 'Y' || letter === 'M') this.settings.tracking = letter;
          else if (letter === 'W') this.settings.tracking = 'Y';
          this.commands.push(`^MN${parameter}`);
          break;
        }
        case 'JZ':
          this.reprintAfterError = parameter.charAt(0).toUpperCase() !== 'N';
          this.commands.push(`^JZ${parameter}`);
          break;
        case 'JU':
          if (parameter.charAt(0).toUpperCase() === 'S') this.saved = { ...this.settings };
          if (parameter.charAt(0).toUpperCase() === 'R') this.settings = { ...this.saved };
          this.commands.push(`^JU${parameter}`);
          break;
        case 'LL':
          if (/^\d+$/.test(parameter)) this.settings.labelLength = Number.parseInt(parameter, 10);
          break;
        case 'PW':
          // The print width cannot exceed the printhead.
          if (/^\d+$/.test(parameter)) this.settings.printWidth = Math.min(this.headDots, Number.parseInt(parameter, 10));
          break;
        case 'HH':
          socket.write(`${STX}${this.configurationText()}${ETX}${this.lineEnd}`, 'latin1');
          break;
        default:
          break;
      }
    }
    const sd = /~SD(\d{2})/i.exec(format);
    if (sd) this.settings.darkness = Math.min(30, Number.parseInt(sd[1] as string, 10));
    // A format that draws nothing still waits its turn in the buffer (behind a calibration, say), then prints nothing.
    const copies = PRINTS.test(format) ? Number.parseInt(/\^PQ(\d+)/i.exec(format)?.[1] ?? '1', 10) || 1 : 0;
    this.jobs.push({ format, copiesLeft: copies, cut: false, started: false });
    this.pump();
  }

  private pump(): void {
    if (this.printingSince !== null || this.resting !== null) return;
    while (this.calibratingLeft === 0 && this.jobs[0]?.copiesLeft === 0) this.jobs.shift();
    if (this.stopped) return;
    if (this.calibratingLeft === 0 && this.jobs.length === 0) return;
    this.printingSince = Date.now();
    if (this.calibratingLeft === 0) (this.jobs[0] as Job).started = true;
    this.timer = setTimeout(() => this.finishLabel(), this.options.labelMs ?? 100);
  }

  private finishLabel(): void {
    this.timer = null;
    this.printingSince = null;
    const inchesPerLabel = this.settings.labelLength / this.dpi;
    this.headCleanInches += inchesPerLabel;
    if (this.calibratingLeft > 0) {
      // Calibration feeds blank media (not labels) and then knows the roll's label length.
      this.calibratingLeft -= 1;
      if (this.calibratingLeft === 0) this.settings.labelLength = this.rollLengthDots;
    } else {
      const job = this.jobs[0] as Job;
      this.labelCount += 1;
      this.out.push({ format: job.format, whole: true, reprint: job.cut, at: Date.now() });
      job.cut = false;
      job.copiesLeft -= 1;
      if (job.copiesLeft === 0) this.jobs.shift();
      this.emit('label', this.out.at(-1));
    }
    const rest = this.options.restBetweenLabelsMs ?? 0;
    if (rest > 0) {
      this.resting = setTimeout(() => {
        this.resting = null;
        this.pump();
      }, rest);
      return;
    }
    this.pump();
  }
}
