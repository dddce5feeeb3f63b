/**
 * Scan normalisation: turns what a barcode scanner (or a person at a keyboard) typed into the
 * one text the order index compares against, or says plainly why it cannot be used.
 *
 * Scanners differ in what they add around the data: an AIM symbology identifier such as `]C1`
 * when "transmit code ID" is on, a trailing Enter or Tab, and the GS1 group separator (FNC1)
 * written as the raw byte 0x1D or as a keyboard-wedge spelling of it (`<GS>`, `Alt029`, `^]`).
 * Every spelling of the separator becomes the one byte 0x1D, so a barcode stored from a
 * manifest and the same barcode scanned compare equal. Matching stays exact and case-sensitive.
 *
 * Pure: no I/O, used by the screen (to reject early) and by main (to resolve).
 */

/** The one spelling of the GS1 group separator (FNC1 inside the data) after normalisation. */
export const GROUP_SEPARATOR = '\x1D';

/** Longest normalised scan accepted: far beyond any order ref or parcel barcode (GS1-128 holds 48 data characters). */
export const MAX_SCAN_LENGTH = 128;

/** Raw input beyond this is refused before any work: a stuck key or a pasted document, not a scan. */
export const MAX_RAW_SCAN_LENGTH = 2048;

export type ScanRejection = 'empty' | 'too-long' | 'control-character';

export type NormalizedScan =
  | {
      ok: true;
      /** The text to match against order refs, parcel barcodes and order ids. */
      value: string;
      /** The AIM symbology identifier the scanner sent (`C1` for GS1-128), when it sent one. */
      symbology: string | null;
    }
  | { ok: false; reason: ScanRejection; message: string };

// `]` + symbology letter + modifier character (ISO/IEC 15424).
const aimPrefix = /^\]([A-Za-z][0-9A-Za-z])/;

// Spellings of GS / FNC1 that keyboard-wedge scanners and hand-typed data produce.
// eslint-disable-next-line no-control-regex -- the raw GS byte is one of the spellings
const groupSeparatorSpellings = /<GS>|\{GS\}|\[GS\]|<FNC1>|\{FNC1\}|\[FNC1\]|Alt\+?0?029|\^\]|\u241D|\x1D/gi;

// Control, format (zero-width, bidi marks) and line/paragraph separator characters, except the
// group separator, which is data.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is being found
const invisibleCharacter = /(?!\x1D)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const describeCharacter = (character: string): string => {
  const code = character.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
};

export function normalizeScan(raw: string): NormalizedScan {
  if (raw.length > MAX_RAW_SCAN_LENGTH) {
    return reject('too-long', `The scan is ${raw.length} characters long; a scan is at most ${MAX_SCAN_LENGTH}. Was something pasted by mistake?`);
  }
  let text = raw.trim();
  let symbology: string | null = null;
  const prefix = aimPrefix.exec(text);
  if (prefix) {
    symbology = prefix[1] ?? null;
    text = text.slice(prefix[0].length);
  }
  text = text.replace(groupSeparatorSpellings, GROUP_SEPARATOR);
  // A separator at either end carries no data: FNC1 in first position only announces GS1, and
  // some scanners end every read with one; spaces and line ends mixed with them go too, however
  // they alternate, so a value normalised again stays the same.
  text = trimGroupSeparatorsAndSpace(text);

  if (text === '') {
    return reject('empty', 'The scan is empty. Scan the order reference, the parcel barcode or the order id.');
  }
  const invisible = invisibleCharacter.exec(text);
  if (invisible) {
    return reject(
      'control-character',
      `The scan contains an invisible control character (${describeCharacter(invisible[0])}). Check the scanner's prefix and suffix settings, then scan again.`,
    );
  }
  if (text.length > MAX_SCAN_LENGTH) {
    return reject('too-long', `The scan is ${text.length} characters long; a scan is at most ${MAX_SCAN_LENGTH}. Scan the order reference or the parcel barcode.`);
  }
  return { ok: true, value: text, symbology };
}

/**
 * Normalises an identifier the station stores (from a manifest, a webhook or the API) exactly as
 * a scan of it would be, so stored keys and scans compare equal. Empty or unusable values give null.
 */
export function normalizeIdentifier(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const result = normalizeScan(raw);
  return result.ok ? result.value : null;
}

function trimGroupSeparatorsAndSpace(text: string): string {
  const trimmable = (character: string | undefined) => character === GROUP_SEPARATOR || (character !== undefined && character.trim() === '');
  let start = 0;
  let end = text.length;
  while (start < end && trimmable(text[start])) start += 1;
  while (end > start && trimmable(text[end - 1])) end -= 1;
  return text.slice(start, end);
}

function reject(reason: ScanRejection, message: string): NormalizedScan {
  return { ok: false, reason, message };
}
