// Incremental reader of the byte stream a host sends to a Zebra on port 9100.
// It cuts the stream into formats (^XA…^XZ), immediate tilde commands and SGD commands,
// whatever the TCP packet boundaries are, and never holds more than one format in memory.
import { readDownload, type Download } from './download-commands';

/** Tilde commands a Zebra executes the moment it reads them, even inside a format. */
export type ImmediateCommand =
  | { kind: 'host-status' } // ~HS
  | { kind: 'host-identification' } // ~HI
  | { kind: 'host-query'; query: string } // ~HQxx, e.g. ~HQES
  | { kind: 'cancel-all' } // ~JA
  | { kind: 'pause' } // ~PP
  | { kind: 'start-print' } // ~PS
  | { kind: 'download'; download: Download } // ~DG, ~DY, ~DB, ~DE, ~DS, ~DT, ~DU before a format
  | { kind: 'darkness'; value: number } // ~SDnn before a format
  | { kind: 'tilde'; code: string }; // any other tilde command before a format (~JR, ~JO, ~TA…)

export type SgdCommand =
  | { kind: 'getvar'; name: string }
  | { kind: 'setvar'; name: string; value: string }
  | { kind: 'do'; name: string; value: string }
  /** The JSON form, {}{"name":null,"other":"value"}: null reads a variable, a value sets it. */
  | { kind: 'json'; text: string; entries: Record<string, unknown> };

export type DiscardReason = 'oversize';

export type ParserEvent =
  | { type: 'format-start' }
  | { type: 'format'; bytes: Buffer }
  | { type: 'format-discarded'; reason: DiscardReason; bytes: Buffer; byteLength: number }
  | { type: 'command'; command: ImmediateCommand }
  | { type: 'sgd'; command: SgdCommand };

export interface FeedOptions {
  /** Most format bytes this call may take in; the rest of the input is left unconsumed. */
  formatByteBudget?: number;
  /** Return right after the ^XA of a new format, so the caller can decide how to go on. */
  stopAfterFormatStart?: boolean;
  /** Return right after the ^XZ that completes a format, so the caller can count it before reading on. */
  stopAfterFormatEnd?: boolean;
}

export interface FeedResult {
  /**
   * Bytes of the input taken (bytes of an incomplete token are taken and held). Reading stops
   * early after an immediate command, so the caller can act on it before the bytes that follow.
   */
  consumed: number;
  events: ParserEvent[];
}

export interface ZplStreamParserOptions {
  /** A format that grows past this many bytes without ^XZ is thrown away. */
  maxFormatBytes: number;
  /** How much of a discarded format is kept for the record. */
  discardSampleBytes?: number;
}

const CARET = 0x5e; // ^
const TILDE = 0x7e; // ~
const BANG = 0x21; // !
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CR = 0x0d;
const LF = 0x0a;

// An SGD line longer than this is not an SGD command but noise.
const MAX_SGD_BYTES = 2048;
const SGD_PATTERN = /^!\s+U1\s+(getvar|setvar|do)\s+"([^"]*)"(?:\s+"([^"]*)")?/i;

type State = 'outside' | 'inside' | 'discarding' | 'sgd' | 'json';

const upper = (byte: number | undefined): number => (byte !== undefined && byte >= 0x61 && byte <= 0x7a ? byte - 0x20 : (byte ?? -1));

export class ZplStreamParser {
  private state: State = 'outside';
  private held: Buffer = Buffer.alloc(0);
  private parts: Buffer[] = [];
  private partBytes = 0;
  private sgd: number[] = [];
  /** Bytes of binary ^GF data still to come in the format being read. */
  private binaryRemaining = 0;
  private json: { depth: number; inString: boolean; escaped: boolean; objects: number } = { depth: 0, inString: false, escaped: false, objects: 0 };
  private readonly maxFormatBytes: number;
  private readonly discardSampleBytes: number;

  constructor(options: ZplStreamParserOptions) {
    this.maxFormatBytes = options.maxFormatBytes;
    this.discardSampleBytes = options.discardSampleBytes ?? 4096;
  }

  /** True while a format has begun (^XA) and not yet ended (^XZ). */
  get inFormat(): boolean {
    return this.state === 'inside';
  }

  /** Bytes of the format in progress, counting its ^XA. */
  get partialBytes(): number {
    return this.state === 'inside' ? this.partBytes : 0;
  }

  /** Throws away the format in progress (connection lost, ~JA) and returns what it held. */
  abandonFormat(): Buffer | null {
    if (this.state !== 'inside') return null;
    const bytes = Buffer.concat(this.parts);
    this.resetFormat();
    this.state = 'outside';
    return bytes;
  }

  feed(input: Buffer, options: FeedOptions = {}): FeedResult {
    const events: ParserEvent[] = [];
    const data = this.held.length > 0 ? Buffer.concat([this.held, input]) : input;
    const heldLength = this.held.length;
    this.held = Buffer.alloc(0);
    let budget = options.formatByteBudget ?? Number.POSITIVE_INFINITY;
    let i = 0;

    const finish = (position: number): FeedResult => ({ consumed: Math.max(0, position - heldLength), events });
    const hold = (position: number): FeedResult => {
      this.held = Buffer.from(data.subarray(position));
      return { consumed: input.length, events };
    };
    // Bytes already counted as consumed (held from the previous call) may not be given back.
    const mayStop = (position: number): boolean => position >= heldLength;

    while (i < data.length) {
      if (this.state === 'sgd') {
        const byte = data[i] as number;
        if (byte === CARET || byte === TILDE) {
          // Not an SGD command after all: let the normal scanner read this byte.
          this.sgd = [];
          this.state = 'outside';
          continue;
        }
        if (byte === CR || byte === LF || this.sgd.length >= MAX_SGD_BYTES) {
          this.sgd = [];
          this.state = 'outside';
          i += 1;
          continue;
        }
        this.sgd.push(byte);
        i += 1;
        const command = this.completeSgd();
        if (command) {
          events.push({ type: 'sgd', command });
          this.sgd = [];
          this.state = 'outside';
        }
        continue;
      }

      if (this.state === 'json') {
        const command = this.readJson(data[i] as number);
        i += 1;
        if (command) events.push({ type: 'sgd', command });
        continue;
      }

      if (this.state === 'outside') {
        const next = nextSpecial(data, i, true);
        if (next < 0) return finish(data.length);
        i = next;
        const byte = data[i];
        if (byte === BANG) {
          this.state = 'sgd';
          this.sgd = [BANG];
          i += 1;
          continue;
        }
        if (byte === OPEN_BRACE) {
          this.state = 'json';
          this.sgd = [];
          this.json = { depth: 0, inString: false, escaped: false, objects: 0 };
          continue;
        }
        if (byte === CARET) {
          if (i + 2 >= data.length) return hold(i);
          if (upper(data[i + 1]) === 0x58 && upper(data[i + 2]) === 0x41) {
            // ^XA: a format begins.
            if (budget < 3 && mayStop(i)) return finish(i);
            budget -= 3;
            this.resetFormat();
            this.state = 'inside';
            this.append(data.subarray(i, i + 3));
            events.push({ type: 'format-start' });
            i += 3;
            if (options.stopAfterFormatStart && mayStop(i)) return finish(i);
            continue;
          }
          i += 1;
          continue;
        }
        // A tilde outside a format.
        const tilde = readTilde(data, i) ?? readOutsideTilde(data, i, this.maxFormatBytes);
        if (tilde === 'incomplete') return hold(i);
        if (tilde) {
          events.push({ type: 'command', command: tilde.command });
          // A command that ends where the bytes held from the last call end (a download ended by
          // the next command) was read entirely before this input: read on, or nothing would be consumed.
          if (i + tilde.length > heldLength) return finish(i + tilde.length);
          i += tilde.length;
          continue;
        }
        i += 1;
        continue;
      }

      // inside or discarding a format
      if (this.binaryRemaining > 0) {
        // Binary ^GF data: any byte, "^XZ" included, is image data.
        const available = Math.min(this.binaryRemaining, data.length - i);
        let room = this.state === 'inside' ? Math.max(0, Math.min(budget, available)) : available;
        if (room === 0) {
          if (mayStop(i)) return finish(i);
          // Bytes held from the previous call were already reported as read: take them anyway.
          room = Math.min(available, heldLength - i);
        }
        this.take(data.subarray(i, i + room), events);
        if (this.state === 'inside') budget -= room;
        this.binaryRemaining -= room;
        i += room;
        continue;
      }
      const next = nextSpecial(data, i, false);
      const end = next < 0 ? data.length : next;
      if (end > i) {
        const room = this.state === 'inside' ? Math.max(0, Math.min(budget, end - i)) : end - i;
        if (room < end - i && mayStop(i + room)) {
          this.take(data.subarray(i, i + room), events);
          return finish(i + room);
        }
        this.take(data.subarray(i, end), events);
        if (this.state === 'inside') budget -= end - i;
        i = end;
        continue;
      }
      const byte = data[i];
      if (byte === CARET) {
        if (i + 2 >= data.length) return hold(i);
        if (upper(data[i + 1]) === 0x58 && upper(data[i + 2]) === 0x5a) {
          // ^XZ: the format is complete.
          const completed = this.state === 'inside';
          if (completed) {
            if (budget < 3 && mayStop(i)) return finish(i);
            budget -= 3;
            this.append(data.subarray(i, i + 3));
            events.push({ type: 'format', bytes: Buffer.concat(this.parts) });
          }
          this.resetFormat();
          this.state = 'outside';
          i += 3;
          if (completed && options.stopAfterFormatEnd && mayStop(i)) return finish(i);
          continue;
        }
        const graphic = readBinaryGraphicHeader(data, i);
        if (graphic === 'incomplete') return hold(i);
        if (graphic) {
          if (this.state === 'inside' && budget < graphic.headerLength && mayStop(i)) return finish(i);
          this.take(data.subarray(i, i + graphic.headerLength), events);
          if (this.state === 'inside') budget -= graphic.headerLength;
          this.binaryRemaining = graphic.dataBytes;
          i += graphic.headerLength;
          continue;
        }
        if (this.state === 'inside' && budget < 1 && mayStop(i)) return finish(i);
        this.take(data.subarray(i, i + 1), events);
        if (this.state === 'inside') budget -= 1;
        i += 1;
        continue;
      }
      // A tilde inside a format: immediate commands run now and leave the format;
      // any other tilde sequence is format text.
      const tilde = readTilde(data, i);
      if (tilde === 'incomplete') return hold(i);
      if (tilde) {
        events.push({ type: 'command', command: tilde.command });
        // The command may change what happens to the rest of the stream (~JA), so the
        // caller acts on it before reading on.
        return finish(i + tilde.length);
      }
      if (this.state === 'inside' && budget < 1 && mayStop(i)) return finish(i);
      this.take(data.subarray(i, i + 1), events);
      if (this.state === 'inside') budget -= 1;
      i += 1;
    }
    return finish(data.length);
  }

  private take(chunk: Buffer, events: ParserEvent[]): void {
    if (chunk.length === 0) return;
    if (this.state === 'discarding') return;
    if (this.partBytes + chunk.length > this.maxFormatBytes) {
      const sample = Buffer.concat(this.parts).subarray(0, this.discardSampleBytes);
      events.push({
        type: 'format-discarded',
        reason: 'oversize',
        bytes: Buffer.from(sample),
        byteLength: this.partBytes + chunk.length,
      });
      this.parts = [];
      this.partBytes = 0;
      this.state = 'discarding';
      return;
    }
    this.append(chunk);
  }

  private append(chunk: Buffer): void {
    // Copy: the socket may reuse the memory behind the chunk.
    this.parts.push(Buffer.from(chunk));
    this.partBytes += chunk.length;
  }

  private resetFormat(): void {
    this.parts = [];
    this.partBytes = 0;
    this.binaryRemaining = 0;
  }

  /**
   * One byte of a JSON SGD envelope, {}{…}: two objects back to back. Returns the command once the
   * second object closes; anything that is not such an envelope is dropped as noise.
   */
  private readJson(byte: number): SgdCommand | null {
    const j = this.json;
    this.sgd.push(byte);
    const abandon = (): null => {
      this.sgd = [];
      this.state = 'outside';
      return null;
    };
    if (this.sgd.length > MAX_SGD_BYTES) return abandon();
    if (j.inString) {
      if (j.escaped) j.escaped = false;
      else if (byte === BACKSLASH) j.escaped = true;
      else if (byte === QUOTE) j.inString = false;
      return null;
    }
    if (j.depth === 0) {
      if (byte === OPEN_BRACE) {
        j.depth = 1;
        return null;
      }
      if (byte === CR || byte === LF || byte === 0x20) return null;
      return abandon();
    }
    if (byte === QUOTE) j.inString = true;
    else if (byte === OPEN_BRACE) j.depth += 1;
    else if (byte === CLOSE_BRACE && --j.depth === 0 && ++j.objects === 2) {
      const text = Buffer.from(this.sgd).toString('utf8').trim();
      abandon();
      return parseJsonSgd(text);
    }
    return null;
  }

  private completeSgd(): SgdCommand | null {
    const last = this.sgd[this.sgd.length - 1];
    if (last !== 0x22) return null; // only a closing quote can complete a command
    const text = Buffer.from(this.sgd).toString('latin1');
    const match = SGD_PATTERN.exec(text);
    if (!match) return null;
    const verb = (match[1] ?? '').toLowerCase();
    const name = match[2] ?? '';
    if (verb === 'getvar') return { kind: 'getvar', name };
    const value = match[3];
    if (value === undefined) return null; // setvar/do wait for their value
    return verb === 'setvar' ? { kind: 'setvar', name, value } : { kind: 'do', name, value };
  }
}

function nextSpecial(data: Buffer, from: number, outside: boolean): number {
  for (let i = from; i < data.length; i += 1) {
    const byte = data[i];
    if (byte === CARET || byte === TILDE || (outside && (byte === BANG || byte === OPEN_BRACE))) return i;
  }
  return -1;
}

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x30 && byte <= 0x39;
const isAlphanumeric = (byte: number | undefined): boolean => byte !== undefined && (isDigit(byte) || (upper(byte) >= 0x41 && upper(byte) <= 0x5a));

/** Tilde commands a Zebra acts on outside formats besides the immediate ones: downloads, ~SD, others. */
function readOutsideTilde(data: Buffer, at: number, maxBytes: number): { command: ImmediateCommand; length: number } | null | 'incomplete' {
  const download = readDownload(data, at, maxBytes);
  if (download === 'incomplete') return 'incomplete';
  if (download) return { command: { kind: 'download', download: download.download }, length: download.length };
  if (at + 2 >= data.length) return 'incomplete';
  if (!isAlphanumeric(data[at + 1]) || !isAlphanumeric(data[at + 2])) return null;
  const code = String.fromCharCode(upper(data[at + 1]), upper(data[at + 2]));
  if (code === 'SD') {
    // ~SDnn: two digits of darkness (00–30); wait for the second one unless something else follows.
    let end = at + 3;
    while (end < data.length && end < at + 5 && isDigit(data[end])) end += 1;
    if (end === data.length && end < at + 5) return 'incomplete';
    if (end === at + 3) return { command: { kind: 'tilde', code }, length: 3 };
    return { command: { kind: 'darkness', value: Number(data.toString('latin1', at + 3, end)) }, length: end - at };
  }
  return { command: { kind: 'tilde', code }, length: 3 };
}

const MAX_GRAPHIC_HEADER_BYTES = 64;

/**
 * ^GFa,b,c,d,data with a = B (binary) or C (compressed binary): b bytes of data follow, whatever
 * they are. Null for ASCII ^GF (hex or base64, read as text) and anything else.
 */
function readBinaryGraphicHeader(data: Buffer, at: number): { headerLength: number; dataBytes: number } | null | 'incomplete' {
  if (at + 3 > data.length) return 'incomplete';
  if (upper(data[at + 1]) !== 0x47 || upper(data[at + 2]) !== 0x46) return null;
  let commas = 0;
  for (let i = at + 3; i < data.length && i - at < MAX_GRAPHIC_HEADER_BYTES; i += 1) {
    const byte = data[i];
    if (byte === CARET || byte === TILDE) return null;
    if (byte === 0x2c && ++commas === 4) {
      const [type = '', bytes = ''] = data.toString('latin1', at + 3, i).split(',');
      const compression = type.trim().toUpperCase();
      const count = Number.parseInt(bytes, 10);
      if ((compression !== 'B' && compression !== 'C') || !Number.isFinite(count) || count <= 0) return null;
      return { headerLength: i + 1 - at, dataBytes: count };
    }
  }
  return data.length - at < MAX_GRAPHIC_HEADER_BYTES ? 'incomplete' : null;
}

function parseJsonSgd(text: string): SgdCommand | null {
  const split = /^\{[^]*?\}\s*(\{[^]*\})$/.exec(text);
  if (!split) return null;
  try {
    const body: unknown = JSON.parse(split[1] ?? '');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
    return { kind: 'json', text, entries: body as Record<string, unknown> };
  } catch {
    return null;
  }
}

function readTilde(data: Buffer, at: number): { command: ImmediateCommand; length: number } | null | 'incomplete' {
  if (at + 2 >= data.length) return 'incomplete';
  const a = upper(data[at + 1]);
  const b = upper(data[at + 2]);
  const code = String.fromCharCode(a, b);
  switch (code) {
    case 'HS':
      return { command: { kind: 'host-status' }, length: 3 };
    case 'HI':
      return { command: { kind: 'host-identification' }, length: 3 };
    case 'JA':
      return { command: { kind: 'cancel-all' }, length: 3 };
    case 'PP':
      return { command: { kind: 'pause' }, length: 3 };
    case 'PS':
      return { command: { kind: 'start-print' }, length: 3 };
    case 'HQ': {
      if (at + 4 >= data.length) return 'incomplete';
      const query = String.fromCharCode(upper(data[at + 3]), upper(data[at + 4]));
      return { command: { kind: 'host-query', query }, length: 5 };
    }
    default:
      return null;
  }
}
