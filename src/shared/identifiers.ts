/**
 * Order identifiers (a ref, a barcode, an order id) as they enter the station from a file, an
 * upload or a webhook: normalised exactly as a scan is (scan.ts), so what is stored is what a scan
 * finds, and refused with a reason when no scan could ever send it (an invisible character such
 * as a zero-width space or a word joiner would make two refs that look the same count as two).
 * Two identifiers that differ only in case are the same identifier to a packer: a scanner typing
 * with Caps Lock on sends either (identifierKey).
 *
 * Pure: used by main's importers and the webhook receiver alike.
 */
import { MAX_SCAN_LENGTH, normalizeScan } from './scan';

export type IdentifierReading = { ok: true; value: string } | { ok: false; reason: string };

// The same set normalizeScan refuses: control, format (zero-width, joiners, bidi) and line/paragraph separators, GS excepted.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is being found
const invisibleCharacter = /(?!\x1D)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const codePoint = (character: string) => `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** An identifier from a file or an event, read as a scan would read it; `field` names it in the reason. */
export function readIdentifier(raw: string, field: string): IdentifierReading {
  const normalized = normalizeScan(raw);
  if (normalized.ok) return { ok: true, value: normalized.value };
  if (normalized.reason === 'empty') return { ok: false, reason: `${field} is empty` };
  if (normalized.reason === 'too-long') return { ok: false, reason: `${field} is longer than ${MAX_SCAN_LENGTH} characters` };
  const invisible = invisibleCharacter.exec(raw)?.[0] ?? '';
  return { ok: false, reason: `${field} holds an invisible character (${codePoint(invisible)}) that no scan sends; remove it from the file` };
}

/** Every invisible character of a text (for keying a value that was refused for holding them). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is being found
export const invisibleCharacters = /(?!\x1D)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

export const readOrderRef = (raw: string): IdentifierReading => readIdentifier(raw, 'orderRef');

/** What two identifiers are compared by when asking whether a packer could tell them apart. */
export const identifierKey = (value: string): string => value.toLowerCase();

/** Upper, lower and swapped case: what a scanner typing with Caps Lock on makes of a ref. */
export function caseVariants(value: string): string[] {
  const swapped = [...value].map((character) => (character === character.toUpperCase() ? character.toLowerCase() : character.toUpperCase())).join('');
  return [...new Set([value.toUpperCase(), value.toLowerCase(), swapped])].filter((variant) => variant !== value);
}
