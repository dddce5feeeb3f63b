/**
 * The lexical rules of ZPL, shared by every reader of it: the station's gate reads a whole document
 * (zpl-scanner.ts), the sandbox's virtual Zebra reads a socket stream whose bytes arrive in pieces.
 * Each rule answers 'incomplete' when the bytes it was given end too early to decide, so a stream
 * reader can wait for more and a document reader can call the document truncated.
 *
 * - A command is a prefix (`^` format, `~` control) and a two-character name; `^A` is one letter,
 *   the font follows it (`^A0N,30,30`), but `^A@` is a command of its own.
 * - `^CC`/`~CC` and `^CT`/`~CT` choose another format or control prefix, `^CD`/`~CD` another
 *   parameter delimiter, from the very next byte on.
 * - `^GF` and `~DY` in binary form (B, or C compressed) carry exactly the byte count their parameters
 *   give, whatever those bytes are; every other payload ends at the next prefix.
 */

export const CARET = 0x5e;
export const TILDE = 0x7e;
export const COMMA = 0x2c;

/** The bytes that start commands and separate parameters, as the document last chose them. */
export interface ZplPrefixes {
  caret: number;
  tilde: number;
  delimiter: number;
}

export const standardPrefixes = (): ZplPrefixes => ({ caret: CARET, tilde: TILDE, delimiter: COMMA });

export const upperByte = (byte: number): number => (byte >= 0x61 && byte <= 0x7a ? byte - 0x20 : byte);

/** Bytes no ZPL text holds outside a binary download: C0 controls other than tab/CR/LF, and DEL. */
export const isControlByte = (byte: number): boolean => (byte < 0x20 && byte !== 0x09 && byte !== 0x0d && byte !== 0x0a) || byte === 0x7f;

export const isPrefix = (byte: number | undefined, prefixes: ZplPrefixes): boolean => byte === prefixes.caret || byte === prefixes.tilde;

export type CommandName = { name: string; paramsStart: number } | 'incomplete' | 'not-text';

/**
 * The name of the command whose prefix is at `at`, upper-case with the standard prefixes (`^XA`, `~HS`,
 * `^A`). `final` says no byte will follow `bytes`: a lone `^A` at the very end is then the font command.
 */
export function readCommandName(bytes: Uint8Array, at: number, prefixes: ZplPrefixes, final: boolean): CommandName {
  const prefix = bytes[at] === prefixes.caret ? '^' : '~';
  const length = bytes.length;
  if (at + 1 >= length) return 'incomplete';
  const first = upperByte(bytes[at + 1] as number);
  if (prefix === '^' && first === 0x41) {
    if (at + 2 >= length && !final) return 'incomplete';
    // ^A takes its font name straight after the A; ^A@ is a command of its own.
    if (bytes[at + 2] !== 0x40) return { name: '^A', paramsStart: at + 2 };
  }
  if (at + 2 >= length) return 'incomplete';
  const second = upperByte(bytes[at + 2] as number);
  if (!isNameByte(first) || !isNameByte(second)) return 'not-text';
  return { name: prefix + String.fromCharCode(first, second), paramsStart: at + 3 };
}

/** A command name's characters are ASCII text (a printer reads no other). */
const isNameByte = (byte: number): boolean => byte <= TILDE && !isControlByte(byte);

const prefixChanges: Readonly<Record<string, keyof ZplPrefixes>> = {
  '^CC': 'caret',
  '~CC': 'caret',
  '^CT': 'tilde',
  '~CT': 'tilde',
  '^CD': 'delimiter',
  '~CD': 'delimiter',
};

export const isPrefixChange = (name: string): boolean => name in prefixChanges;

/** Applies `^CC`/`^CT`/`^CD` (either prefix): the chosen byte is the one straight after the name. */
export function applyPrefixChange(prefixes: ZplPrefixes, name: string, chosen: number): void {
  const which = prefixChanges[name];
  if (which !== undefined) prefixes[which] = chosen;
}

export type PayloadHeader =
  /** Nothing binary follows: the parameters end at the next prefix. */
  | { kind: 'none' }
  /** Exactly `byteCount` bytes of any value begin at `dataStart`. */
  | { kind: 'binary'; dataStart: number; byteCount: number }
  /** A binary payload is announced without a byte count, so where it ends cannot be known. */
  | { kind: 'no-count' }
  /** A binary payload is announced but a command starts before its data does. */
  | { kind: 'cut-short' }
  | { kind: 'incomplete' };

/** Parameters before a binary payload, and which of them gives the form (B, C) and which the count. */
const binaryLayouts: Readonly<Record<string, { fields: number; form: number; count: number }>> = {
  // ^GFa,b,c,d,data
  '^GF': { fields: 4, form: 0, count: 1 },
  // ~DYd:f,b,x,t,w,data
  '~DY': { fields: 5, form: 1, count: 3 },
};

/**
 * Where the binary payload of the command named `name` lies, from the counts in its parameters.
 * `final` says no byte will follow `bytes`.
 */
export function readPayloadHeader(bytes: Uint8Array, name: string, paramsStart: number, prefixes: ZplPrefixes, final: boolean): PayloadHeader {
  const layout = binaryLayouts[name];
  if (layout === undefined) return { kind: 'none' };
  const fields: string[] = [];
  let current = '';
  for (let index = paramsStart; index < bytes.length; index += 1) {
    const byte = bytes[index] as number;
    if (isPrefix(byte, prefixes)) {
      fields.push(current);
      return endedBeforeData(fields, layout);
    }
    if (byte !== prefixes.delimiter) {
      current += String.fromCharCode(byte);
      continue;
    }
    fields.push(current);
    current = '';
    if (fields.length === layout.form + 1 && !isBinaryForm(fields[layout.form])) return { kind: 'none' };
    if (fields.length === layout.fields) {
      const count = fields[layout.count];
      if (!isByteCount(count)) return { kind: 'no-count' };
      return { kind: 'binary', dataStart: index + 1, byteCount: Number((count ?? '').trim()) };
    }
  }
  if (!final) return { kind: 'incomplete' };
  fields.push(current);
  return endedBeforeData(fields, layout);
}

/** The parameters stopped before the data began: fine for the text forms, not for a binary one. */
function endedBeforeData(fields: string[], layout: { form: number; count: number }): PayloadHeader {
  if (!isBinaryForm(fields[layout.form])) return { kind: 'none' };
  return isByteCount(fields[layout.count]) ? { kind: 'cut-short' } : { kind: 'no-count' };
}

const isByteCount = (field: string | undefined): boolean => /^\d{1,9}$/.test((field ?? '').trim());

const isBinaryForm = (field: string | undefined): boolean => {
  const form = (field ?? '').trim().toUpperCase();
  return form === 'B' || form === 'C';
};

/** A command as a printer that has taken a format reads it: its name, and where it and its parameters lie. */
export interface ReadCommand {
  /** Upper-case, with the standard prefixes: `^XA`, `~DG`, `^A` (a font). */
  name: string;
  start: number;
  paramsStart: number;
  /** Just after its parameters (and any binary payload): where the next command starts. */
  end: number;
}

/**
 * The `^` and `~` commands of ZPL a printer has already taken (the virtual Zebra's formats, a label
 * the screen shows), by the rules above: prefix changes followed, binary payloads skipped by their
 * count. Unlike the gate's scanner (zpl-scanner.ts), which refuses a document that is not clean
 * ZPL, it reads on past what it cannot use: a prefix without a command name, a byte of junk.
 */
export function readZplCommands(bytes: Uint8Array): ReadCommand[] {
  const prefixes = standardPrefixes();
  const commands: ReadCommand[] = [];
  const nextPrefix = (from: number): number => {
    for (let index = from; index < bytes.length; index += 1) if (isPrefix(bytes[index], prefixes)) return index;
    return bytes.length;
  };
  let at = nextPrefix(0);
  while (at < bytes.length) {
    const read = readCommandName(bytes, at, prefixes, true);
    if (read === 'incomplete' || read === 'not-text') {
      at = nextPrefix(at + 1);
      continue;
    }
    const { name, paramsStart } = read;
    let end: number;
    if (isPrefixChange(name) && bytes[paramsStart] !== undefined) {
      applyPrefixChange(prefixes, name, bytes[paramsStart] as number);
      end = nextPrefix(paramsStart + 1);
    } else {
      const payload = readPayloadHeader(bytes, name, paramsStart, prefixes, true);
      end = nextPrefix(payload.kind === 'binary' ? Math.min(bytes.length, payload.dataStart + payload.byteCount) : paramsStart);
    }
    commands.push({ name, start: at, paramsStart, end });
    at = end;
  }
  return commands;
}
