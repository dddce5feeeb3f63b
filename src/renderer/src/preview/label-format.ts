/**
 * A label document as the screen meets it: recognised by its content, never by its file name (the
 * Delivery API sends base64 without a type, and a file chosen by hand may have any name).
 */

export type LabelFormat = 'zpl' | 'pdf';

/** Far beyond any label (a bundle PDF of a few hundred labels); bigger is not a label. */
export const maxLabelBytes = 20 * 1024 * 1024;

/** Labels are A6 at 203 dpi unless a printer says otherwise. */
export const a6 = { widthMm: 105, heightMm: 148, dpmm: 8 } as const;

const pdfMagic = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/**
 * A PDF by its header; anything else may be ZPL, which the preview reads when it loads its ZPL part
 * (the tokenizer stays out of the screen's first load).
 */
export function looksLikePdf(bytes: Uint8Array): boolean {
  // A PDF may carry a few bytes of junk before its header; readers accept it within 1024 bytes.
  const head = bytes.subarray(0, 1024);
  for (let start = 0; start + pdfMagic.length <= head.length; start += 1) {
    if (pdfMagic.every((byte, offset) => head[start + offset] === byte)) return true;
  }
  return false;
}

/** Decodes the base64 the Delivery API wraps labels in; null when it is not base64. */
export function decodeBase64(base64: string): Uint8Array | null {
  const clean = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return null;
  try {
    const binary = atob(clean);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return bytes;
  } catch {
    return null;
  }
}
