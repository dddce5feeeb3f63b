/**
 * Checks on the label documents the API returns as base64, done before anything reaches a printer:
 * a truncated or garbled document would otherwise print as a blank or half label, or jam a
 * Zebra's parser. The checked document keeps both forms: the bytes for the printer or PDF queue,
 * the base64 for caches and for crossing the contract.
 */
import type { LabelFormat } from '../../shared/api/schemas';

export interface ZplDocument {
  format: 'zpl';
  /** Raw ZPL as UTF-8 bytes, ready to be written to a printer as is. */
  bytes: Uint8Array;
  /** The ZPL text, for previews and for splitting into formats. */
  zpl: string;
  /** Number of ^XA…^XZ formats (labels) in the document. */
  formatCount: number;
  base64: string;
}

export interface PdfDocument {
  format: 'pdf';
  bytes: Uint8Array;
  base64: string;
}

export type LabelDocument = ZplDocument | PdfDocument;

export type DocumentCheck<T> = { ok: true; document: T } | { ok: false; reason: string };

// Padding only where it belongs and a length that is a multiple of four: no whitespace, no
// URL-safe alphabet, nothing Buffer.from would silently skip.
const strictBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function decodeStrictBase64(text: string): DocumentCheck<Uint8Array> {
  if (text.length === 0) return { ok: false, reason: 'the document is empty' };
  if (!strictBase64.test(text)) return { ok: false, reason: 'the document is not valid base64' };
  const bytes = Buffer.from(text, 'base64');
  // Non-zero bits in the last character's unused part decode "fine" but are not canonical base64.
  if (bytes.toString('base64') !== text) return { ok: false, reason: 'the document is not canonical base64' };
  return { ok: true, document: bytes };
}

const formatBoundary = /\^X([AZ])/gi;

/** Validates ZPL text: one or more ^XA…^XZ formats, nothing but whitespace around or between them. */
export function checkZplText(text: string): DocumentCheck<{ formatCount: number }> {
  const start = text.search(/\S/);
  if (start === -1) return { ok: false, reason: 'the ZPL document is blank' };
  let end = text.length;
  while (end > start && /\s/.test(text.charAt(end - 1))) end -= 1;

  let expecting: 'A' | 'Z' = 'A';
  let cursor = start;
  let formatCount = 0;
  formatBoundary.lastIndex = start;
  for (let match = formatBoundary.exec(text); match !== null && match.index < end; match = formatBoundary.exec(text)) {
    const kind = (match[1] ?? '').toUpperCase();
    if (expecting === 'A') {
      if (kind !== 'A') return { ok: false, reason: 'the ZPL document has a ^XZ without a ^XA before it' };
      if (text.slice(cursor, match.index).trim() !== '') {
        return { ok: false, reason: formatCount === 0 ? 'the ZPL document does not start with ^XA' : 'the ZPL document has content between formats' };
      }
      expecting = 'Z';
    } else {
      if (kind !== 'Z') return { ok: false, reason: 'the ZPL document opens a format (^XA) inside another one' };
      formatCount += 1;
      expecting = 'A';
    }
    cursor = match.index + match[0].length;
  }
  if (formatCount === 0 && expecting === 'A') return { ok: false, reason: 'the ZPL document does not start with ^XA' };
  if (expecting === 'Z') return { ok: false, reason: 'the ZPL document does not end with ^XZ (it may be truncated)' };
  if (text.slice(cursor, end).trim() !== '') return { ok: false, reason: 'the ZPL document has content after the last ^XZ' };
  return { ok: true, document: { formatCount } };
}

export function checkZplDocument(base64: string): DocumentCheck<ZplDocument> {
  const decoded = decodeStrictBase64(base64);
  if (!decoded.ok) return decoded;
  let zpl: string;
  try {
    zpl = new TextDecoder('utf-8', { fatal: true }).decode(decoded.document);
  } catch {
    return { ok: false, reason: 'the ZPL document is not UTF-8 text' };
  }
  const check = checkZplText(zpl);
  if (!check.ok) return check;
  return { ok: true, document: { format: 'zpl', bytes: decoded.document, zpl, formatCount: check.document.formatCount, base64 } };
}

const pdfHeader = Buffer.from('%PDF-', 'latin1');
const pdfEnd = Buffer.from('%%EOF', 'latin1');
// Writers may put a newline or a little padding after the end marker.
const pdfTailWindow = 1024;

export function checkPdfDocument(base64: string): DocumentCheck<PdfDocument> {
  const decoded = decodeStrictBase64(base64);
  if (!decoded.ok) return decoded;
  const bytes = Buffer.from(decoded.document.buffer, decoded.document.byteOffset, decoded.document.byteLength);
  if (bytes.length < pdfHeader.length || !bytes.subarray(0, pdfHeader.length).equals(pdfHeader)) {
    return { ok: false, reason: 'the document does not start with %PDF' };
  }
  if (bytes.subarray(Math.max(0, bytes.length - pdfTailWindow)).indexOf(pdfEnd) === -1) {
    return { ok: false, reason: 'the PDF has no %%EOF at its end (it may be truncated)' };
  }
  return { ok: true, document: { format: 'pdf', bytes: decoded.document, base64 } };
}

export function checkLabelDocument(base64: string, format: LabelFormat): DocumentCheck<LabelDocument> {
  return format === 'zpl' ? checkZplDocument(base64) : checkPdfDocument(base64);
}
