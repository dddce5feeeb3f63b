/**
 * Splits a ZPL document into the commands a Zebra will execute, by the printer's own rules, so the
 * station can tell label content from commands that change the printer and can send everything
 * else byte for byte. It reads bytes, not text: graphics and fonts may be downloaded as binary,
 * and field data may be in any code page (^CI), so only the ASCII prefixes are interpreted.
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

const maxParamsText = 1024;
const CR = 0x0d;
const LF = 0x0a;
const TAB = 0x09;
const SPACE = 0x20;

const isBlank = (byte: number): boolean => byte === SPACE || byte === TAB || byte === CR || byte === LF;
/** Bytes no ZPL text holds outside a binary download: C0 controls other than tab/CR/LF, and DEL. */
const isControl = (byte: number): boolean => (byte < SPACE && byte !== TAB && byte !== CR && byte !== LF) || byte === 0x7f;

const latin1 = (bytes: Uint8Array, start: number, end: number): string => {
  let text = '';
  for (let index = start; index < end; index += 8192) text += String.fromCharCode(...bytes.subarray(index, Math.min(end, index + 8192)));
  return text;
};

/** Commands whose payload may be binary: the count of bytes to skip comes from their parameters. */
type Payload = { kind: 'none' } | { kind: 'binary'; bytes: number; delimiters: number };

class Failure {
  constructor(
    readonly reason: string,
    readonly at: number,
  ) {}
}

export function scanZpl(bytes: Uint8Array): ZplScan {
  try {
    return scan(bytes);
  } catch (error) {
    if (error instanceof Failure) return { ok: false, reason: error.reason, at: error.at };
    throw error;
  }
}

function scan(bytes: Uint8Array): ZplScan {
  const length = bytes.length;
  let caret = 0x5e;
  let tilde = 0x7e;
  let delimiter = 0x2c;
  let position = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const commands: ZplCommand[] = [];
  const formats: ZplFormatSpan[] = [];
  let open: number | null = null;

  const isPrefix = (byte: number): boolean => byte === caret || byte === tilde;
  const atLineStart = (at: number): boolean => {
    let index = at - 1;
    while (index >= 0 && (bytes[index] === SPACE || bytes[index] === TAB)) index -= 1;
    return index < 0 || bytes[index] === LF || bytes[index] === CR || (index === 2 && bytes[0] === 0xef);
  };
  const sgdAt = (at: number): boolean => bytes[at] === 0x21 && /^![ \t]*U1?[ \t]+[A-Za-z]/.test(latin1(bytes, at, Math.min(length, at + 12))) && atLineStart(at);
  const jsonAt = (at: number): boolean => open === null && bytes[at] === 0x7b && atLineStart(at);

  /** Where the parameters of a command end: the next prefix, or a Set-Get-Do line. */
  const paramsEnd = (from: number): number => {
    for (let index = from; index < length; index += 1) {
      const byte = bytes[index] ?? 0;
      if (isPrefix(byte)) return index;
      if ((byte === 0x21 && sgdAt(index)) || (byte === 0x7b && jsonAt(index))) return index;
      if (isControl(byte)) throw new Failure(`it holds binary data (byte 0x${byte.toString(16).padStart(2, '0')}) outside any graphic or font download, so it is not ZPL text`, index);
    }
    return length;
  };

  const push = (name: string, start: number, paramsStart: number, paramsStop: number, end: number): ZplCommand => {
    const params = latin1(bytes, paramsStart, Math.min(paramsStop, paramsStart + maxParamsText));
    const command = { name, start, end, paramsStart, params, format: open === null ? null : formats.length };
    commands.push(command);
    return command;
  };

  while (position < length) {
    const byte = bytes[position] ?? 0;
    if (isBlank(byte)) {
      position += 1;
      continue;
    }
    if (byte === 0x21 && sgdAt(position)) {
      position = setGetDo(position);
      continue;
    }
    if (byte === 0x7b && jsonAt(position)) {
      position = jsonSetGetDo(position);
      continue;
    }
    if (!isPrefix(byte)) {
      if (isControl(byte)) throw new Failure(`it holds binary data (byte 0x${byte.toString(16).padStart(2, '0')}) outside any graphic or font download, so it is not ZPL text`, position);
      throw new Failure(open === null ? 'it has text outside any ^XA…^XZ format, so it is not ZPL' : 'it has text that is not a ZPL command', position);
    }
    position = command(position);
  }
  if (open !== null) throw new Failure('it does not end with ^XZ (it may be truncated)', length);
  if (formats.length === 0) {
    const blank = commands.length === 0;
    throw new Failure(blank ? 'it is empty' : 'it holds no ^XA…^XZ format, so nothing would print', 0);
  }
  return { ok: true, commands, formats };

  function command(start: number): number {
    const prefix = bytes[start] === caret ? '^' : '~';
    if (start + 1 >= length) throw new Failure('it ends in the middle of a command (it may be truncated)', start);
    const first = String.fromCharCode(bytes[start + 1] ?? 0).toUpperCase();
    let name: string;
    let paramsStart: number;
    if (prefix === '^' && first === 'A' && bytes[start + 2] !== 0x40) {
      // ^A takes its font name straight after the A (^A0N,30,30); ^A@ is a command of its own.
      name = '^A';
      paramsStart = start + 2;
    } else {
      if (start + 2 >= length) throw new Failure('it ends in the middle of a command (it may be truncated)', start);
      name = prefix + first + String.fromCharCode(bytes[start + 2] ?? 0).toUpperCase();
      paramsStart = start + 3;
    }
    if ([...name].some((char) => isControl(char.charCodeAt(0)) || char.charCodeAt(0) > 0x7e)) {
      throw new Failure(`it holds a command name that is not text after a ${prefix} prefix, so it is not ZPL`, start);
    }

    // A change of prefix or delimiter takes effect on the very next byte.
    const change = name.slice(1);
    if (change === 'CC' || change === 'CT' || change === 'CD') {
      const chosen = bytes[paramsStart];
      if (chosen === undefined) throw new Failure('it ends in the middle of a command (it may be truncated)', start);
      if (change === 'CC') caret = chosen;
      else if (change === 'CT') tilde = chosen;
      else delimiter = chosen;
      const stop = paramsEnd(paramsStart + 1);
      push(name, start, paramsStart, stop, stop);
      return stop;
    }

    const payload = payloadOf(name, paramsStart);
    if (payload.kind === 'binary') {
      const dataStart = afterDelimiters(paramsStart, payload.delimiters);
      const end = dataStart + payload.bytes;
      if (end > length) throw new Failure(`its ${name} download is shorter than the ${payload.bytes} bytes it announces (it may be truncated)`, start);
      const stop = paramsEnd(end);
      const found = push(name, start, paramsStart, dataStart, stop);
      found.payload = { start: dataStart, end };
      // The parameters after the payload (normally none) belong to the command too.
      if (stop > end) found.params += latin1(bytes, end, Math.min(stop, end + maxParamsText));
      return stop;
    }

    const stop = paramsEnd(paramsStart);
    // An ^XA inside a format is ignored by the printer: the format still ends at the next ^XZ.
    if (name === '^XA' && open === null) open = start;
    push(name, start, paramsStart, stop, stop);
    if (name === '^XZ') {
      if (open !== null) {
        formats.push({ start: open, end: paramsStart });
        open = null;
      }
      for (let index = paramsStart; index < stop; index += 1) {
        if (!isBlank(bytes[index] ?? 0)) throw new Failure('it has text outside any ^XA…^XZ format, so it is not ZPL', index);
      }
    }
    return stop;
  }

  /** The binary payload of a command, from the counts in its parameters. */
  function payloadOf(name: string, paramsStart: number): Payload {
    if (name === '^GF') {
      // ^GFa,b,c,d,data: B (binary) and C (compressed binary) carry exactly b bytes.
      const [type, count] = fields(paramsStart, 4);
      const kind = (type ?? 'A').trim().toUpperCase();
      if (kind === 'B' || kind === 'C') return { kind: 'binary', bytes: byteCount(count, name, paramsStart), delimiters: 4 };
    } else if (name === '~DY') {
      // ~DYd:f,b,x,t,w,data: B (binary, e.g. fonts) and C (AR-compressed) carry exactly t bytes.
      const [, type, , count] = fields(paramsStart, 5);
      const kind = (type ?? '').trim().toUpperCase();
      if (kind === 'B' || kind === 'C') return { kind: 'binary', bytes: byteCount(count, name, paramsStart), delimiters: 5 };
    }
    return { kind: 'none' };
  }

  function byteCount(text: string | undefined, name: string, at: number): number {
    const value = (text ?? '').trim();
    if (!/^\d{1,9}$/.test(value)) throw new Failure(`its ${name} download does not say how many bytes follow, so where it ends cannot be known`, at);
    return Number(value);
  }

  /** The first `count` delimited parameters (only as far as a prefix: a binary payload follows them). */
  function fields(from: number, count: number): string[] {
    const found: string[] = [];
    let current = '';
    for (let index = from; index < length && found.length < count; index += 1) {
      const byte = bytes[index] ?? 0;
      if (isPrefix(byte)) break;
      if (byte === delimiter) {
        found.push(current);
        current = '';
      } else current += String.fromCharCode(byte);
    }
    if (found.length < count) found.push(current);
    return found;
  }

  function afterDelimiters(from: number, count: number): number {
    let seen = 0;
    for (let index = from; index < length; index += 1) {
      if (bytes[index] === delimiter) {
        seen += 1;
        if (seen === count) return index + 1;
      }
    }
    throw new Failure('it ends in the middle of a download command (it may be truncated)', from);
  }

  /** `! U1 setvar "name" "value"` up to the end of its line. */
  function setGetDo(start: number): number {
    let end = start;
    while (end < length && bytes[end] !== CR && bytes[end] !== LF) end += 1;
    const line = latin1(bytes, start, end);
    const match = /^![ \t]*(U1?)[ \t]+([A-Za-z]+)/.exec(line);
    const verb = (match?.[2] ?? '').toLowerCase();
    if (!match || !['setvar', 'getvar', 'do'].includes(verb)) throw new Failure('it has a line starting with "!" that is not a Set-Get-Do command, so it is not ZPL', start);
    for (let index = start; index < end; index += 1) {
      if (isControl(bytes[index] ?? 0)) throw new Failure('it holds binary data in a Set-Get-Do line, so it is not ZPL text', index);
    }
    push(`! ${match[1]!.toUpperCase()} ${verb}`, start, start + match[0].length, end, end);
    return end;
  }

  /** `{}{"name":"value"}`: a JSON object (after an optional empty one), its braces balanced outside strings. */
  function jsonSetGetDo(start: number): number {
    let depth = 0;
    let inString = false;
    let escaped = false;
    let objects = 0;
    for (let index = start; index < length; index += 1) {
      const byte = bytes[index] ?? 0;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === 0x5c) escaped = true;
        else if (byte === 0x22) inString = false;
        continue;
      }
      if (byte === 0x22) inString = true;
      else if (byte === 0x7b) depth += 1;
      else if (byte === 0x7d) {
        depth -= 1;
        if (depth === 0) {
          objects += 1;
          const text = latin1(bytes, start, index + 1);
          // `{}` is the envelope that announces a JSON Set-Get-Do command; the object follows it.
          if (objects === 1 && text === '{}' && bytes[index + 1] === 0x7b) continue;
          push('{}', start, start, index + 1, index + 1).params = text;
          return index + 1;
        }
      } else if (depth === 0 && !isBlank(byte)) break;
    }
    throw new Failure('it has a "{" that does not open a complete JSON Set-Get-Do command, so it is not ZPL', start);
  }
}
