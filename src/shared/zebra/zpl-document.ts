/**
 * What a document is, read from its ZPL commands as a printer reads them: whether it holds a
 * format at all, and the data of its first barcode (what a label is known by on screen).
 */
import { readZplCommands } from './zpl-tokens';

/** True when the document holds a ZPL format; graphics downloads (~DG) may come before the first one. */
export function holdsZplFormat(bytes: Uint8Array): boolean {
  return readZplCommands(bytes).some((command) => command.name === '^XA');
}

const barcodes = new Set(['^BC', '^B3', '^BQ', '^BX']);

/** The data of a ZPL document's first barcode (`^BC…^FD data ^FS`); null when it has none. */
export function zplBarcodeData(zpl: string): string | null {
  const bytes = new TextEncoder().encode(zpl);
  const commands = readZplCommands(bytes);
  for (const [index, command] of commands.entries()) {
    const field = commands[index + 1];
    if (!barcodes.has(command.name) || field?.name !== '^FD' || commands[index + 2]?.name !== '^FS') continue;
    const data = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(field.paramsStart, field.end)).trim();
    return data ? data : null;
  }
  return null;
}
