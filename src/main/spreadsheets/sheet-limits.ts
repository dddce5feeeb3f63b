/**
 * What a manifest file may ask of the station. A hostile file (a zip bomb, a 400 MB cell, a
 * quote that is never closed) fails its own import with what was wrong with it, long before it
 * could exhaust memory: the readers count as they stream and stop past these bounds.
 */
export interface SheetLimits {
  /** Inflated bytes of one part of an XLSX workbook (one sheet, the shared text). */
  maxPartBytes: number;
  /** Inflated bytes of every part read from one workbook, together. */
  maxInflatedBytes: number;
  /** Characters of one cell (an order id, a name: nothing real comes near). */
  maxCellChars: number;
  /** Characters of one row, all cells together. */
  maxRowChars: number;
  /** Columns of one row (XLSX's own limit is 16,384). */
  maxRowCells: number;
  /** Characters of the workbook's shared text (the table XLSX keeps every distinct text in). */
  maxSharedTextChars: number;
  /** Entries in the shared text table. */
  maxSharedStrings: number;
  /** Bytes of one CSV record (a line, or several when a quoted cell spans lines). */
  maxCsvRecordBytes: number;
}

export const defaultSheetLimits: SheetLimits = {
  maxPartBytes: 64 * 1024 * 1024,
  maxInflatedBytes: 256 * 1024 * 1024,
  maxCellChars: 32 * 1024,
  maxRowChars: 256 * 1024,
  maxRowCells: 16_384,
  maxSharedTextChars: 32 * 1024 * 1024,
  maxSharedStrings: 1_000_000,
  maxCsvRecordBytes: 64 * 1024,
};

/** Heap the parsing worker may use; past it the worker dies and only the import fails. */
export const sheetParserHeapMb = 256;

/** What is wrong with the file itself: the import fails with this message, the station carries on. */
export class SheetFileProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SheetFileProblem';
  }
}

export const mib = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MiB`;
export const kib = (bytes: number): string => `${Math.round(bytes / 1024)} KiB`;
