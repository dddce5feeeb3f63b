/**
 * Checks on the label documents the API returns as base64, done before anything reaches a printer:
 * a truncated or garbled document would otherwise print as a blank or half label, or jam a
 * Zebra's parser. The checked document keeps both forms: the bytes for the printer or PDF queue,
 * the base64 for caches and for crossing the contract.
 */
import type { LabelFormat } from '../../shared/api/schemas';
import { scanZpl, type ZplScanned } from '../../shared/zebra/zpl-scanner';

export interface ZplDocument {
  format: 'zpl';
  /** Raw ZPL as UTF-8 bytes, ready to be written to a printer as is. */
  bytes: Uint8Array;
  /** The ZPL text, for previews and for splitting into formats. */
  zpl: string;
  /** Number of ^XA…^XZ formats (labels) in the document. */
  formatCount: number;
  /** The scanner's reading of `bytes`, so that preparing them for a printer does not read them again. */
  scan: ZplScanned;
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

/**
 * Validates a ZPL document by the printer's own rules (src/shared/zebra/zpl-scanner.ts): downloads
 * and control commands before, between and after formats, an ^XA repeated inside a format, a BOM,
 * field data in any code page. Refused only when it is not ZPL at all: empty, binary, truncated,
 * without a format. Whether the printer may receive it is decided later, when it is prepared for
 * one (prepareZplForPrinter), so a label that would change the printer is refused as such, not
 * reported as damaged.
 */
export function checkZplBytes(bytes: Uint8Array): DocumentCheck<{ formatCount: number; scan: ZplScanned }> {
  const scan = scanZpl(bytes);
  if (!scan.ok) return { ok: false, reason: `the ZPL document ${scan.reason.replace(/^it /, '')}` };
  return { ok: true, document: { formatCount: scan.formats.length, scan } };
}

/** checkZplBytes for ZPL held as text (UTF-8). */
export function checkZplText(text: string): DocumentCheck<{ formatCount: number; scan: ZplScanned }> {
  return checkZplBytes(new TextEncoder().encode(text));
}

export function checkZplDocument(base64: string): DocumentCheck<ZplDocument> {
  const decoded = decodeStrictBase64(base64);
  if (!decoded.ok) return decoded;
  const check = checkZplBytes(decoded.document);
  if (!check.ok) return check;
  // Field data may be in a single-byte code page (^CI): the text is for reading, the bytes are what prints.
  const zpl = new TextDecoder('utf-8').decode(decoded.document);
  return { ok: true, document: { format: 'zpl', bytes: decoded.document, zpl, formatCount: check.document.formatCount, scan: check.document.scan, base64 } };
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
