// Incremental reader of the byte stream a host sends to a Zebra on port 9100.
// It cuts the stream into formats (^XA…^XZ), immediate tilde commands and SGD commands,
// whatever the TCP packet boundaries are, and never holds more than one format in memory.
// Commands are read by the station's own ZPL rules (src/shared/zebra/zpl-tokens.ts): prefixes as
// ^CC/^CT/^CD last chose them, command names, and binary payloads skipped by their byte count.
// This module only holds the bytes a rule needs and decides what the printer does with each command.
import {
  applyPrefixChange,
  isPrefixChange,
  readCommandName,
  readPayloadHeader,
  standardPrefixes,
  type ZplPrefixes,
} from '../../shared/zebra/zpl-tokens';
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

const BANG = 0x21; // !
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CR = 0x0d;
const LF = 0x0a;

// A binary payload's parameters are a few bytes; a longer run is no such header but noise.
const MAX_PAYLOAD_HEADER_BYTES = 64;
// An SGD line longer than this is not an SGD command but noise.
const MAX_SGD_BYTES = 2048;
const SGD_PATTERN = /^!\s+U1\s+(getvar|setvar|do)\s+"([^"]*)"(?:\s+"([^"]*)")?/i;

type State = 'outside' | 'inside' | 'discarding' | 'sgd' | 'json';

const upper = (byte: number | undefined): number => (byte !== undefined && byte >= 0x61 && byte <= 0x7a ? byte - 0x20 : (byte ?? -1));

/** A command that the prefix at a position starts, or why none can be read there yet. */
type CommandAt = { name: string; paramsStart: number } | 'incomplete' | null;

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
  /** The prefixes and delimiter in force: a Zebra keeps a ^CC/^CT/^CD choice across formats. */
  private readonly prefixes: ZplPrefixes = standardPrefixes();

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
        if (byte === this.prefixes.caret || byte === this.prefixes.tilde) {
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
        const next = nextSpecial(data, i, true, this.prefixes);
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
        if (byte === this.prefixes.caret) {
          const command = this.commandAt(data, i);
          if (command === 'incomplete') return hold(i);
          if (command !== null && isPrefixChange(command.name)) {
            if (command.paramsStart >= data.length) return hold(i);
            applyPrefixChange(this.prefixes, command.name, data[command.paramsStart] as number);
            i = command.paramsStart + 1;
            continue;
          }
          if (command?.name === '^XA') {
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
        const tilde = this.readTilde(data, i) ?? this.readOutsideTilde(data, i);
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
      const next = nextSpecial(data, i, false, this.prefixes);
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
      if (byte === this.prefixes.caret) {
        const command = this.commandAt(data, i);
        if (command === 'incomplete') return hold(i);
        if (command?.name === '^XZ') {
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
      } else {
        // A tilde inside a format: immediate commands run now and leave the format;
        // any other tilde command is format text.
        const tilde = this.readTilde(data, i);
        if (tilde === 'incomplete') return hold(i);
        if (tilde) {
          events.push({ type: 'command', command: tilde.command });
          // The command may change what happens to the rest of the stream (~JA), so the
          // caller acts on it before reading on.
          return finish(i + tilde.length);
        }
      }
      // Any other command is format text; one that changes the prefixes or carries a binary
      // payload decides how the bytes after it are read.
      const head = this.formatCommandHead(data, i);
      if (head === 'incomplete') return hold(i);
      if (head.length > 1) {
        if (this.state === 'inside' && budget < head.length && mayStop(i)) return finish(i);
        this.take(data.subarray(i, i + head.length), events);
        if (this.state === 'inside') budget -= head.length;
        head.apply();
        i += head.length;
        continue;
      }
      if (this.state === 'inside' && budget < 1 && mayStop(i)) return finish(i);
      this.take(data.subarray(i, i + 1), events);
      if (this.state === 'inside') budget -= 1;
      i += 1;
    }
    return finish(data.length);
  }

  /** The command whose prefix is at `at`; null when the bytes after the prefix are no command name. */
  private commandAt(data: Buffer, at: number): CommandAt {
    const read = readCommandName(data, at, this.prefixes, false);
    return read === 'not-text' ? null : read;
  }

  /**
   * How many bytes of a format command to take at once, and what taking them changes: a ^CC/^CT/^CD
   * changes the prefixes, a binary ^GF or ~DY announces data to take whatever it holds. One byte (the
   * prefix) for any other command: its parameters are plain format text.
   */
  private formatCommandHead(data: Buffer, at: number): { length: number; apply: () => void } | 'incomplete' {
    const plain = { length: 1, apply: (): void => undefined };
    const command = this.commandAt(data, at);
    if (command === 'incomplete') return 'incomplete';
    if (command === null) return plain;
    const { name, paramsStart } = command;
    if (isPrefixChange(name)) {
      if (paramsStart >= data.length) return 'incomplete';
      return { length: paramsStart + 1 - at, apply: () => applyPrefixChange(this.prefixes, name, data[paramsStart] as number) };
    }
    const payload = readPayloadHeader(data, name, paramsStart, this.prefixes, false);
    if (payload.kind === 'incomplete') return data.length - at < MAX_PAYLOAD_HEADER_BYTES ? 'incomplete' : plain;
    if (payload.kind !== 'binary' || payload.dataStart - at > MAX_PAYLOAD_HEADER_BYTES) return plain;
    return {
      length: payload.dataStart - at,
      apply: () => {
        this.binaryRemaining = payload.byteCount;
      },
    };
  }

  /** Tilde commands a Zebra executes the moment it reads them, inside a format or not. */
  private readTilde(data: Buffer, at: number): { command: ImmediateCommand; length: number } | null | 'incomplete' {
    const read = this.commandAt(data, at);
    if (read === null || read === 'incomplete') return read;
    switch (read.name) {
      case '~HS':
        return { command: { kind: 'host-status' }, length: 3 };
      case '~HI':
        return { command: { kind: 'host-identification' }, length: 3 };
      case '~JA':
        return { command: { kind: 'cancel-all' }, length: 3 };
      case '~PP':
        return { command: { kind: 'pause' }, length: 3 };
      case '~PS':
        return { command: { kind: 'start-print' }, length: 3 };
      case '~HQ': {
        if (at + 4 >= data.length) return 'incomplete';
        const query = String.fromCharCode(upper(data[at + 3]), upper(data[at + 4]));
        return { command: { kind: 'host-query', query }, length: 5 };
      }
      default:
        return null;
    }
  }

  /** Tilde commands a Zebra acts on outside formats besides the immediate ones: downloads, ~SD, others. */
  private readOutsideTilde(data: Buffer, at: number): { command: ImmediateCommand; length: number } | null | 'incomplete' {
    const download = readDownload(data, at, this.maxFormatBytes, this.prefixes);
    if (download === 'incomplete') return 'incomplete';
    if (download) return { command: { kind: 'download', download: download.download }, length: download.length };
    const read = this.commandAt(data, at);
    if (read === null || read === 'incomplete') return read;
    if (!isAlphanumeric(data[at + 1]) || !isAlphanumeric(data[at + 2])) return null;
    const code = read.name.slice(1);
    if (isPrefixChange(read.name)) {
      // ~CC, ~CT, ~CD: the byte after the name is the new prefix or delimiter.
      if (read.paramsStart >= data.length) return 'incomplete';
      applyPrefixChange(this.prefixes, read.name, data[read.paramsStart] as number);
      return { command: { kind: 'tilde', code }, length: 4 };
    }
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

function nextSpecial(data: Buffer, from: number, outside: boolean, prefixes: ZplPrefixes): number {
  for (let i = from; i < data.length; i += 1) {
    const byte = data[i];
    if (byte === prefixes.caret || byte === prefixes.tilde || (outside && (byte === BANG || byte === OPEN_BRACE))) return i;
  }
  return -1;
}

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x30 && byte <= 0x39;
const isAlphanumeric = (byte: number | undefined): boolean => byte !== undefined && (isDigit(byte) || (upper(byte) >= 0x41 && upper(byte) <= 0x5a));

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
