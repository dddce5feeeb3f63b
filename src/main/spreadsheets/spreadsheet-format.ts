/**
 * Which kind of spreadsheet a file is, told from its first bytes. Kept apart from the readers
 * (sheet-readers.ts, xls-reader.ts), which run in the parsing worker, so that the main process
 * asks without loading them.
 */

export type SheetFormat = 'csv' | 'xlsx';

/** An OLE compound file starts with these bytes (an .xls workbook is one). */
export function isCompoundFile(head: Uint8Array): boolean {
  return head.length >= 8 && [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].every((byte, index) => head[index] === byte);
}

/** Which format the bytes are, whatever the file is called. */
export function detectFormat(head: Uint8Array, fileName: string): SheetFormat | { unsupported: string } {
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'xlsx';
  if (head.length >= 4 && head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0) {
    return { unsupported: `${fileName} is an old Excel 97–2003 (.xls) workbook. Save it as .xlsx or CSV and import that.` };
  }
  if (/\.(xlsx|xlsm|ods|numbers|pdf|zip)$/i.test(fileName)) {
    return { unsupported: `${fileName} is not a readable spreadsheet: its content is neither an XLSX workbook nor CSV text.` };
  }
  if (head.includes(0)) return { unsupported: `${fileName} is not a text (CSV) file or an XLSX workbook.` };
  return 'csv';
}
