// Object downloads a host sends before a format (~DG graphics, ~DY files, ~DB fonts, ~DE/~DS/~DT/~DU
// encodings and fonts). Their data is read to the length their parameters give, as a Zebra reads
// it, so data bytes that look like commands (binary ~DY data may hold "^XA") are never taken for them.

export type DownloadCode = 'DG' | 'DY' | 'DB' | 'DE' | 'DS' | 'DT' | 'DU';

export interface Download {
  code: DownloadCode;
  /** Storage device letter without the colon: R (RAM, the default), E (flash), B, A. */
  device: string;
  /** Object name with extension, upper case, e.g. "LOGO.GRF". */
  name: string;
  /** The command up to its data, e.g. "~DGR:LOGO.GRF,400,10," — what the configuration record shows. */
  header: string;
  /** The whole command, data included, as received. */
  bytes: Buffer;
}

export type DownloadRead = { download: Download; length: number } | 'incomplete' | null;

import type { ZplPrefixes } from '../../shared/zebra/zpl-tokens';

const COMMA = 0x2c;
const MAX_HEADER_BYTES = 256;

// Parameters before the data: the object name, then these many comma-separated values.
const HEADER_COMMAS: Record<DownloadCode, number> = { DG: 3, DY: 5, DB: 8, DE: 2, DS: 2, DT: 2, DU: 2 };
// The extension a download gets when its name has none.
const DEFAULT_EXTENSION: Record<DownloadCode, string> = { DG: 'GRF', DY: '', DB: 'FNT', DE: 'DAT', DS: 'FNT', DT: 'DAT', DU: 'TTF' };

const isDownloadCode = (code: string): code is DownloadCode => code in HEADER_COMMAS;

/**
 * Reads a download that starts with the "~" at `at`. Null when the bytes there are not a download
 * (the caller reads them as something else); 'incomplete' when more bytes are needed.
 */
export function readDownload(data: Buffer, at: number, maxBytes: number, prefixes: ZplPrefixes): DownloadRead {
  if (at + 3 > data.length) return 'incomplete';
  const code = data.toString('latin1', at + 1, at + 3).toUpperCase();
  if (!isDownloadCode(code)) return null;
  let commas = 0;
  let dataStart = -1;
  for (let i = at + 3; i < data.length && i - at <= MAX_HEADER_BYTES; i += 1) {
    const byte = data[i];
    if (byte === prefixes.caret || byte === prefixes.tilde) return null;
    if (byte === COMMA && ++commas === HEADER_COMMAS[code]) {
      dataStart = i + 1;
      break;
    }
  }
  if (dataStart < 0) return data.length - at > MAX_HEADER_BYTES ? null : 'incomplete';
  const header = data.toString('latin1', at, dataStart);
  const params = header.slice(3, -1).split(',');
  const dataEnd = findDataEnd(code, params, data, dataStart, prefixes);
  if (dataEnd === 'incomplete') return data.length - at > maxBytes ? null : 'incomplete';
  const { device, name } = objectName(params[0] ?? '', DEFAULT_EXTENSION[code]);
  return { download: { code, device, name, header, bytes: Buffer.from(data.subarray(at, dataEnd)) }, length: dataEnd - at };
}

/** "E:LOGO.GRF" → device E, name LOGO.GRF; no device means R: (RAM). */
export function objectName(text: string, defaultExtension: string): { device: string; name: string } {
  const match = /^\s*(?:([A-Za-z]):)?([^,]*)$/.exec(text);
  const device = (match?.[1] ?? 'R').toUpperCase();
  let name = (match?.[2] ?? '').trim().toUpperCase();
  if (name === '') name = 'UNKNOWN';
  if (!name.includes('.') && defaultExtension !== '') name = `${name}.${defaultExtension}`;
  return { device, name };
}

function findDataEnd(code: DownloadCode, params: string[], data: Buffer, start: number, prefixes: ZplPrefixes): number | 'incomplete' {
  const number = (index: number): number => {
    const value = Number.parseInt(params[index] ?? '', 10);
    return Number.isFinite(value) && value > 0 ? value : 0;
  };
  switch (code) {
    case 'DG':
      return encodedEnd(data, start, number(1), number(2), prefixes);
    case 'DY': {
      const format = (params[1] ?? '').trim().toUpperCase();
      const total = number(3);
      // B: binary, C: compressed binary: exactly `total` raw bytes, whatever they are.
      if (format === 'B' || format === 'C') return data.length - start >= total ? start + total : 'incomplete';
      if (format === 'P') return untilCommand(data, start, prefixes);
      return encodedEnd(data, start, total, number(4), prefixes);
    }
    case 'DB':
      return untilCommand(data, start, prefixes);
    default:
      return encodedEnd(data, start, number(1), 0, prefixes);
  }
}

/** End of data that is base64 (":B64:"/":Z64:", up to the next command) or ZPL hex of `total` bytes. */
function encodedEnd(data: Buffer, start: number, total: number, rowBytes: number, prefixes: ZplPrefixes): number | 'incomplete' {
  if (data[start] === 0x3a) {
    const prefix = data.toString('latin1', start, start + 5).toUpperCase();
    if (prefix.length < 5 && (':B64:'.startsWith(prefix) || ':Z64:'.startsWith(prefix))) return 'incomplete';
    if (prefix === ':B64:' || prefix === ':Z64:') return untilCommand(data, start, prefixes);
  }
  if (start >= data.length) return 'incomplete';
  return compressedHexEnd(data, start, total, rowBytes);
}

function untilCommand(data: Buffer, start: number, prefixes: ZplPrefixes): number | 'incomplete' {
  for (let i = start; i < data.length; i += 1) {
    if (data[i] === prefixes.caret || data[i] === prefixes.tilde) return i;
  }
  return 'incomplete';
}

/**
 * Where ZPL hex data of `total` bytes ends, honouring the ZPL compression scheme: G–Y and g–z
 * repeat the next digit 1–19 and 20–400 times, "," and "!" fill the row with 0 or 1 bits, ":"
 * repeats the previous row; CR and LF are skipped. Any other byte counts as one digit: a Zebra
 * reads the length the parameters give, whatever the bytes are, "^" included.
 */
export function compressedHexEnd(data: Buffer, start: number, total: number, rowBytes: number): number | 'incomplete' {
  const needed = total * 2;
  const rowNibbles = rowBytes > 0 ? rowBytes * 2 : needed;
  let nibbles = 0;
  let repeat = 0;
  if (needed === 0) return start;
  for (let i = start; i < data.length; i += 1) {
    const c = data[i] as number;
    if (c === 0x0d || c === 0x0a) continue;
    if (c >= 0x47 && c <= 0x59) {
      repeat += c - 0x46; // G–Y: 1–19
      continue;
    }
    if (c >= 0x67 && c <= 0x7a) {
      repeat += (c - 0x66) * 20; // g–z: 20–400
      continue;
    }
    if (c === COMMA || c === 0x21) nibbles += rowNibbles - (nibbles % rowNibbles);
    else if (c === 0x3a) nibbles += rowNibbles;
    else nibbles += Math.max(1, repeat);
    repeat = 0;
    if (nibbles >= needed) return i + 1;
  }
  return 'incomplete';
}
