import type { MonoBitmap } from './mono-bitmap';

/**
 * `^GFA` graphic fields. Two encodings:
 * - `compressed`: Zebra's ASCII compression (repeat counts G–Y = 1–19 and g–z = 20–400, `,` and `!`
 *   fill the rest of a row with 0 or 1 bits, `:` repeats the previous row). Labels are mostly white,
 *   so this is typically 10–30× smaller than hex, and every ZPL II printer understands it.
 * - `hex`: plain hexadecimal, twice the bitmap's size, for printers or tools that reject compression.
 */
export type GfaEncoding = 'compressed' | 'hex';

const HEX = '0123456789ABCDEF';

function rowHex(bitmap: MonoBitmap, y: number): string {
  let hex = '';
  const start = y * bitmap.bytesPerRow;
  for (let i = 0; i < bitmap.bytesPerRow; i++) {
    const byte = bitmap.data[start + i]!;
    hex += HEX[byte >> 4]! + HEX[byte & 15]!;
  }
  return hex;
}

/** The repeat-count prefix for `count` occurrences of one hex digit (count ≥ 2). */
function repeatPrefix(count: number): string {
  let prefix = '';
  const twenties = Math.floor(count / 20);
  if (twenties > 0) prefix += String.fromCharCode('g'.charCodeAt(0) + twenties - 1);
  const ones = count % 20;
  if (ones > 0) prefix += String.fromCharCode('G'.charCodeAt(0) + ones - 1);
  return prefix;
}

function compressRow(hex: string): string {
  // A run of 0s or Fs to the end of the row collapses to one character.
  let end = hex.length;
  let fill = '';
  const last = hex[hex.length - 1];
  if (last === '0' || last === 'F') {
    while (end > 0 && hex[end - 1] === last) end--;
    if (hex.length - end > 1 || end === 0) fill = last === '0' ? ',' : '!';
    else end = hex.length;
  }
  let out = '';
  let i = 0;
  while (i < end) {
    const digit = hex[i]!;
    let run = 1;
    while (i + run < end && hex[i + run] === digit) run++;
    i += run;
    // Prefixes express at most 419 in one go; longer runs are split.
    while (run > 0) {
      const chunk = Math.min(run, 419);
      out += chunk === 1 ? digit : repeatPrefix(chunk) + digit;
      run -= chunk;
    }
  }
  return out + fill;
}

/** The `^GFA` command with its data for a bitmap. */
export function encodeGfa(bitmap: MonoBitmap, encoding: GfaEncoding = 'compressed'): string {
  const total = bitmap.bytesPerRow * bitmap.heightDots;
  let body = '';
  let previous: string | null = null;
  for (let y = 0; y < bitmap.heightDots; y++) {
    const hex = rowHex(bitmap, y);
    if (encoding === 'hex') {
      body += hex;
    } else {
      body += hex === previous ? ':' : compressRow(hex);
      previous = hex;
    }
  }
  return `^GFA,${total},${total},${bitmap.bytesPerRow},${body}`;
}

/** Reverses `encodeGfa`'s data (either encoding) into bytes; used to verify what a printer would print. */
export function decodeGfaData(data: string, bytesPerRow: number, totalBytes: number): Uint8Array {
  const rowChars = bytesPerRow * 2;
  const rows: string[] = [];
  let row = '';
  let count = 0;
  const pushRow = () => {
    rows.push(row);
    row = '';
  };
  for (const char of data) {
    if (char >= 'G' && char <= 'Y') count += char.charCodeAt(0) - 'G'.charCodeAt(0) + 1;
    else if (char >= 'g' && char <= 'z') count += (char.charCodeAt(0) - 'g'.charCodeAt(0) + 1) * 20;
    else if (char === ',' || char === '!') {
      row = row.padEnd(rowChars, char === ',' ? '0' : 'F');
      pushRow();
    } else if (char === ':') {
      if (row.length) throw new Error('A row repeat may only start a row.');
      rows.push(rows[rows.length - 1] ?? '0'.repeat(rowChars));
    } else if (/[0-9A-Fa-f]/.test(char)) {
      row += char.toUpperCase().repeat(Math.max(count, 1));
      count = 0;
      if (row.length > rowChars) throw new Error('A row is longer than the graphic is wide.');
      if (row.length === rowChars) pushRow();
    } else {
      throw new Error(`Unexpected character in graphic data: ${JSON.stringify(char)}`);
    }
  }
  if (row.length) pushRow();
  const bytes = new Uint8Array(totalBytes);
  rows.forEach((hex, y) => {
    for (let i = 0; i < bytesPerRow && y * bytesPerRow + i < totalBytes; i++) {
      bytes[y * bytesPerRow + i] = parseInt(hex.slice(i * 2, i * 2 + 2) || '00', 16);
    }
  });
  return bytes;
}
