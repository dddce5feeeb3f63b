/**
 * Splits a ZPL document into the commands a Zebra will execute, by the printer's own rules, so the
 * station can tell label content from commands that change the printer and can send everything
 * else byte for byte. It reads bytes, not text: graphics and fonts may be downloaded as binary,
 * and field data may be in any code page (^CI), so only the ASCII prefixes are interpreted. The
 * lexical rules (prefixes, names, binary payloads) live in zpl-tokens.ts, which the sandbox's virtual
 * Zebra reads its socket stream with too.
 *
 * The rules followed:
 * - a command is a prefix (`^` format, `~` control; `^CC`/`~CC`, `^CT`/`~CT` change them, `^CD`/`~CD`
 *   the parameter delimiter) and a two-character name (`^A` is one letter: the font follows it);
 *   its parameters run to the next prefix, so field data (`^FD…^FS`) may hold anything else;
 * - binary payloads (`^GFB`/`^GFC`, `~DY` in binary form) are skipped by exactly the byte count
 *   their parameters give, since prefixes inside them mean nothing; ASCII payloads (hex, the ZPL
 *   run-length compression, Z64/B64) end at the next prefix, as on the printer;
 * - a format runs from `^XA` to the next `^XZ`; an `^XA` inside a format is ignored, as Zebras do;
 *   control commands and downloads may come before, between or after formats;
 * - Set-Get-Do lines (`! U1 setvar …`) and their JSON form (`{}{…}`) start at the beginning of a line;
 * - a UTF-8 byte order mark may open the document; CR and LF may appear between anything.
 */

import { applyPrefixChange, isControlByte as isControl, isPrefixChange, readCommandName, readPayloadHeader, standardPrefixes, type ZplPrefixes } from './zpl-tokens';

export interface ZplCommand {
  /**
   * Upper-case name with the standard prefixes whatever the document used: `^XA`, `~DG`, `^A`
   * (a font), `! U1 setvar` (Set-Get-Do, verb lower-case), `{}` (Set-Get-Do in JSON).
   */
  name: string;
  /** Byte offsets of the whole command: prefix, name, parameters and payload. */
  start: number;
  end: number;
  /** Offset where the parameters begin (just after the name). */
  paramsStart: number;
  /**
   * The parameters as text (their first 1 KiB: enough to classify the command and name it, while a
   * graphic's hex data is not copied), without any binary payload; for Set-Get-Do, the rest of the line.
   */
  params: string;
  /** Index of the format holding the command, or null outside every format. */
  format: number | null;
  /** Where a binary payload lies (^GFB/^GFC, ~DY in binary form); absent for every other command. */
  payload?: { start: number; end: number };
}

export interface ZplFormatSpan {
  /** Offset of the opening `^XA` and just after the closing `^XZ`. */
  start: number;
  end: number;
}

export type ZplScan =
  | { ok: true; commands: ZplCommand[]; formats: ZplFormatSpan[] }
  | { ok: false; reason: string; at: number };

/** A document the scanner read as ZPL. */
export type ZplScanned = Extract<ZplScan, { ok: true }>;

const maxParamsText = 1024;
const CR = 0x0d;
const LF = 0x0a;
const TAB = 0x09;
const SPACE = 0x20;
const BANG = 0x21;
const BRACE = 0x7b;

const isBlank = (byte: number): boolean => byte === SPACE || byte === TAB || byte === CR || byte === LF;
const sgdLine = /^![ \t]*U1?[ \t]+[A-Za-z]/;
const sgdCommand = /^![ \t]*(U1?)[ \t]+([A-Za-z]+)/;

const latin1 = (bytes: Uint8Array, start: number, end: number): string => {
  // Most parameters are a few bytes: a loop beats building an argument list for them.
  if (end - start <= 32) {
    let text = '';
    for (let index = start; index < end; index += 1) text += String.fromCharCode(bytes[index] as number);
    return text;
  }
  let text = '';
  for (let index = start; index < end; index += 8192) {
    text += String.fromCharCode.apply(null, bytes.subarray(index, Math.min(end, index + 8192)) as unknown as number[]);
  }
  return text;
};

const binaryDataMessage = (byte: number): string =>
  `it holds binary data (byte 0x${byte.toString(16).padStart(2, '0')}) outside any graphic or font download, so it is not ZPL text`;

class Failure {
  constructor(
    readonly reason: string,
    readonly at: number,
  ) {}
}

export function scanZpl(bytes: Uint8Array): ZplScan {
  try {
    return new Scanner(bytes).scan();
  } catch (error) {
    if (error instanceof Failure) return { ok: false, reason: error.reason, at: error.at };
    throw error;
  }
}

/** One pass over a document; a class rather than closures, since labels are scanned on every print. */
class Scanner {
  private readonly length: number;
  private readonly prefixes: ZplPrefixes = standardPrefixes();
  private readonly commands: ZplCommand[] = [];
  private readonly formats: ZplFormatSpan[] = [];
  /** Offset of the open format's ^XA, or null outside every format. */
  private open: number | null = null;

  constructor(private readonly bytes: Uint8Array) {
    this.length = bytes.length;
  }

  scan(): ZplScan {
    const { bytes, length } = this;
    let position = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    while (position < length) {
      const byte = bytes[position] as number;
      if (isBlank(byte)) {
        position += 1;
        continue;
      }
      if (byte === BANG && this.sgdAt(position)) {
        position = this.setGetDo(position);
        continue;
      }
      if (byte === BRACE && this.jsonAt(position)) {
        position = this.jsonSetGetDo(position);
        continue;
      }
      if (byte !== this.prefixes.caret && byte !== this.prefixes.tilde) {
        if (isControl(byte)) throw new Failure(binaryDataMessage(byte), position);
        throw new Failure(this.open === null ? 'it has text outside any ^XA…^XZ format, so it is not ZPL' : 'it has text that is not a ZPL command', position);
      }
      position = this.command(position);
    }
    if (this.open !== null) throw new Failure('it does not end with ^XZ (it may be truncated)', length);
    if (this.formats.length === 0) {
      const blank = this.commands.length === 0;
      throw new Failure(blank ? 'it is empty' : 'it holds no ^XA…^XZ format, so nothing would print', 0);
    }
    return { ok: true, commands: this.commands, formats: this.formats };
  }

  private atLineStart(at: number): boolean {
    const bytes = this.bytes;
    let index = at - 1;
    while (index >= 0 && (bytes[index] === SPACE || bytes[index] === TAB)) index -= 1;
    return index < 0 || bytes[index] === LF || bytes[index] === CR || (index === 2 && bytes[0] === 0xef);
  }

  private sgdAt(at: number): boolean {
    return this.bytes[at] === BANG && sgdLine.test(latin1(this.bytes, at, Math.min(this.length, at + 12))) && this.atLineStart(at);
  }

  private jsonAt(at: number): boolean {
    return this.open === null && this.bytes[at] === BRACE && this.atLineStart(at);
  }

  /** Where the parameters of a command end: the next prefix, or a Set-Get-Do line. */
  private paramsEnd(from: number): number {
    const { bytes, length } = this;
    const { caret, tilde } = this.prefixes;
    for (let index = from; index < length; index += 1) {
      const byte = bytes[index] as number;
      if (byte === caret || byte === tilde) return index;
      if (byte === BANG) {
        if (this.sgdAt(index)) return index;
      } else if (byte === BRACE) {
        if (this.jsonAt(index)) return index;
      } else if (isControl(byte)) {
        throw new Failure(binaryDataMessage(byte), index);
      }
    }
    return length;
  }

  private push(name: string, start: number, paramsStart: number, paramsStop: number, end: number): ZplCommand {
    const params = latin1(this.bytes, paramsStart, Math.min(paramsStop, paramsStart + maxParamsText));
    const command: ZplCommand = { name, start, end, paramsStart, params, format: this.open === null ? null : this.formats.length };
    this.commands.push(command);
    return command;
  }

  private command(start: number): number {
    const { bytes, length } = this;
    const read = readCommandName(bytes, start, this.prefixes, true);
    if (read === 'incomplete') throw new Failure('it ends in the middle of a command (it may be truncated)', start);
    if (read === 'not-text') throw new Failure(`it holds a command name that is not text after a ${bytes[start] === this.prefixes.caret ? '^' : '~'} prefix, so it is not ZPL`, start);
    const { name, paramsStart } = read;

    // A change of prefix or delimiter takes effect on the very next byte.
    if (isPrefixChange(name)) {
      const chosen = bytes[paramsStart];
      if (chosen === undefined) throw new Failure('it ends in the middle of a command (it may be truncated)', start);
      applyPrefixChange(this.prefixes, name, chosen);
      const stop = this.paramsEnd(paramsStart + 1);
      this.push(name, start, paramsStart, stop, stop);
      return stop;
    }

    const payload = readPayloadHeader(bytes, name, paramsStart, this.prefixes, true);
    if (payload.kind === 'no-count') throw new Failure(`its ${name} download does not say how many bytes follow, so where it ends cannot be known`, paramsStart);
    if (payload.kind === 'cut-short' || payload.kind === 'incomplete') throw new Failure('it ends in the middle of a download command (it may be truncated)', paramsStart);
    if (payload.kind === 'binary') {
      const { dataStart } = payload;
      const end = dataStart + payload.byteCount;
      if (end > length) throw new Failure(`its ${name} download is shorter than the ${payload.byteCount} bytes it announces (it may be truncated)`, start);
      const stop = this.paramsEnd(end);
      const found = this.push(name, start, paramsStart, dataStart, stop);
      found.payload = { start: dataStart, end };
      // The parameters after the payload (normally none) belong to the command too.
      if (stop > end) found.params += latin1(bytes, end, Math.min(stop, end + maxParamsText));
      return stop;
    }

    const stop = this.paramsEnd(paramsStart);
    // An ^XA inside a format is ignored by the printer: the format still ends at the next ^XZ.
    if (name === '^XA' && this.open === null) this.open = start;
    this.push(name, start, paramsStart, stop, stop);
    if (name === '^XZ') {
      if (this.open !== null) {
        this.formats.push({ start: this.open, end: paramsStart });
        this.open = null;
      }
      for (let index = paramsStart; index < stop; index += 1) {
        if (!isBlank(bytes[index] as number)) throw new Failure('it has text outside any ^XA…^XZ format, so it is not ZPL', index);
      }
    }
    return stop;
  }

  /** `! U1 setvar "name" "value"` up to the end of its line. */
  private setGetDo(start: number): number {
    const { bytes, length } = this;
    let end = start;
    while (end < length && bytes[end] !== CR && bytes[end] !== LF) end += 1;
    const line = latin1(bytes, start, end);
    const match = sgdCommand.exec(line);
    const verb = (match?.[2] ?? '').toLowerCase();
    if (!match || !['setvar', 'getvar', 'do'].includes(verb)) throw new Failure('it has a line starting with "!" that is not a Set-Get-Do command, so it is not ZPL', start);
    for (let index = start; index < end; index += 1) {
      if (isControl(bytes[index] as number)) throw new Failure('it holds binary data in a Set-Get-Do line, so it is not ZPL text', index);
    }
    this.push(`! ${(match[1] ?? '').toUpperCase()} ${verb}`, start, start + match[0].length, end, end);
    return end;
  }

  /** `{}{"name":"value"}`: a JSON object (after an optional empty one), its braces balanced outside strings. */
  private jsonSetGetDo(start: number): number {
    const { bytes, length } = this;
    let depth = 0;
    let inString = false;
    let escaped = false;
    let objects = 0;
    for (let index = start; index < length; index += 1) {
      const byte = bytes[index] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === 0x5c) escaped = true;
        else if (byte === 0x22) inString = false;
        continue;
      }
      if (byte === 0x22) inString = true;
      else if (byte === BRACE) depth += 1;
      else if (byte === 0x7d) {
        depth -= 1;
        if (depth === 0) {
          objects += 1;
          const text = latin1(bytes, start, index + 1);
          // `{}` is the envelope that announces a JSON Set-Get-Do command; the object follows it.
          if (objects === 1 && text === '{}' && bytes[index + 1] === BRACE) continue;
          this.push('{}', start, start, index + 1, index + 1).params = text;
          return index + 1;
        }
      } else if (depth === 0 && !isBlank(byte)) break;
    }
    throw new Failure('it has a "{" that does not open a complete JSON Set-Get-Do command, so it is not ZPL', start);
  }
}

