/**
 * Recognises a label document by its content, never by its file name: the Delivery API sends
 * base64 without a type, and a file chosen by hand may have any name.
 */
import { scanZpl } from '../../../shared/zebra/zpl-scanner';
import { readZplCommands } from '../../../shared/zebra/zpl-tokens';

export type LabelFormat = 'zpl' | 'pdf';

/** Far beyond any label (a bundle PDF of a few hundred labels); bigger is not a label. */
export const maxLabelBytes = 20 * 1024 * 1024;

/** Labels are A6 at 203 dpi unless a printer says otherwise. */
export const a6 = { widthMm: 105, heightMm: 148, dpmm: 8 } as const;

const pdfMagic = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

export function detectLabelFormat(bytes: Uint8Array): LabelFormat | null {
  // A PDF may carry a few bytes of junk before its header; readers accept it within 1024 bytes.
  const head = bytes.subarray(0, 1024);
  for (let start = 0; start + pdfMagic.length <= head.length; start += 1) {
    if (pdfMagic.every((byte, offset) => head[start + offset] === byte)) return 'pdf';
  }
  // Graphics downloads (~DG) may come before the first format, so look through the whole document.
  return readZplCommands(bytes).some((command) => command.name === '^XA') ? 'zpl' : null;
}

export const decodeText = (bytes: Uint8Array): string => new TextDecoder('utf-8', { fatal: false }).decode(bytes);

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

/** How many ZPL formats (^XA … ^XZ) a document holds, read as the printer reads them (0 when it is not ZPL). */
export function countZplFormats(zpl: string): number {
  const scan = scanZpl(new TextEncoder().encode(zpl));
  return scan.ok ? scan.formats.length : 0;
}

const barcodes = new Set(['^BC', '^B3', '^BQ', '^BX']);

/** The data of a ZPL document's first barcode (`^BC…^FD data ^FS`): what a label is known by on screen. */
export function zplBarcodeData(zpl: string): string | null {
  const bytes = new TextEncoder().encode(zpl);
  const commands = readZplCommands(bytes);
  for (const [index, command] of commands.entries()) {
    const field = commands[index + 1];
    if (!barcodes.has(command.name) || field?.name !== '^FD' || commands[index + 2]?.name !== '^FS') continue;
    const data = decodeText(bytes.subarray(field.paramsStart, field.end)).trim();
    return data ? data : null;
  }
  return null;
}
