/**
 * Code 128 (ISO/IEC 15417) encoder for the parcel barcode, restricted to code sets B and C: the
 * service's barcodes are printable ASCII, so set A (control characters) is never needed.
 *
 * The PDF draws its bars from `bars`; the layout uses `modules` to size the symbol for both
 * documents. A Zebra in ^BC automatic mode also picks a shortest B/C encoding, so the printed
 * symbol has the same width (its code-set choices may differ where two encodings tie).
 */

/** Bar/space widths (in modules) of symbol values 0..106; 103-105 are the start codes, 106 is stop. */
const patterns: readonly string[] = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232', '2331112',
];

const startB = 104;
const startC = 105;
const codeB = 100;
const codeC = 99;
const stop = 106;

/** Characters a Code 128 set B symbol can carry: printable ASCII, space to tilde. */
export const code128Charset = /^[\x20-\x7e]+$/;

export type Code128Set = 'B' | 'C';

/** A run of the data encoded in one code set; `text` is the original characters of that run. */
export interface Code128Segment {
  set: Code128Set;
  text: string;
}

export interface Code128Symbol {
  text: string;
  segments: Code128Segment[];
  /** Every symbol value in order: start, data and code switches, check value, stop. */
  values: number[];
  /** Symbol width in modules, without the quiet zones. */
  modules: number;
  /** Dark bars as [offset, width] in modules from the symbol's left edge. */
  bars: Array<readonly [number, number]>;
}

/** The quiet zone a scanner needs on each side of the symbol, in modules (ISO/IEC 15417: 10). */
export const code128QuietZoneModules = 10;

const isDigit = (text: string, index: number): boolean => {
  const code = text.charCodeAt(index);
  return code >= 48 && code <= 57;
};

const digitRunLength = (text: string, from: number): number => {
  let end = from;
  while (end < text.length && isDigit(text, end)) end += 1;
  return end - from;
};

/**
 * Splits the text into B and C runs with the usual minimal-length rules: set C pays for a
 * switch only when a digit run is long enough (4 at either end of the data, 6 in the middle);
 * an odd run keeps its first digit in set B.
 */
export function code128Segments(text: string): Code128Segment[] {
  const segments: Code128Segment[] = [];
  const push = (set: Code128Set, chars: string): void => {
    const last = segments.at(-1);
    if (last && last.set === set) last.text += chars;
    else segments.push({ set, text: chars });
  };
  let index = 0;
  while (index < text.length) {
    const run = digitRunLength(text, index);
    const atStart = index === 0;
    const atEnd = index + run === text.length;
    const worthC = (atStart && atEnd && run === 2) || (atStart || atEnd ? run >= 4 : run >= 6);
    if (run > 0 && worthC) {
      const end = index + run;
      if (run % 2 === 0) {
        push('C', text.slice(index, end));
      } else if (atStart && !atEnd) {
        // Data goes on in set B anyway, so the odd digit rides after the C run.
        push('C', text.slice(index, end - 1));
        push('B', text.charAt(end - 1));
      } else {
        push('B', text.charAt(index));
        push('C', text.slice(index + 1, end));
      }
      index = end;
    } else {
      const nonDigitEnd = run > 0 ? index + run : index + 1;
      push('B', text.slice(index, nonDigitEnd));
      index = nonDigitEnd;
    }
  }
  return segments;
}

/** Encodes printable ASCII as Code 128; throws a RangeError for empty or non-encodable text. */
export function encodeCode128(text: string): Code128Symbol {
  if (!code128Charset.test(text)) {
    throw new RangeError('Code 128 data must be 1 or more printable ASCII characters (space to ~)');
  }
  const segments = code128Segments(text);
  const values: number[] = [];
  segments.forEach((segment, position) => {
    if (position === 0) values.push(segment.set === 'C' ? startC : startB);
    else values.push(segment.set === 'C' ? codeC : codeB);
    if (segment.set === 'C') {
      for (let i = 0; i < segment.text.length; i += 2) values.push(Number(segment.text.slice(i, i + 2)));
    } else {
      for (let i = 0; i < segment.text.length; i += 1) values.push(segment.text.charCodeAt(i) - 32);
    }
  });
  const checksum = values.reduce((sum, value, position) => sum + value * Math.max(position, 1), 0) % 103;
  values.push(checksum, stop);

  const bars: Array<readonly [number, number]> = [];
  let offset = 0;
  for (const value of values) {
    const widths = patterns[value] ?? '';
    for (let i = 0; i < widths.length; i += 1) {
      const width = widths.charCodeAt(i) - 48;
      if (i % 2 === 0) bars.push([offset, width]);
      offset += width;
    }
  }
  return { text, segments, values, modules: offset, bars };
}

/** Width in modules without building the bars, for sizing a layout. */
export function code128Modules(text: string): number {
  return encodeCode128(text).modules;
}
