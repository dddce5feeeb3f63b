/** What the main thread and the manifest parsing worker say to each other. */
import type { SheetLimits } from './sheet-limits';
import type { SheetItem } from './sheet-readers';
import type { SheetFormat } from './spreadsheet-format';

export type ParserSource = { kind: 'path'; path: string } | { kind: 'bytes'; bytes: Uint8Array };

export interface ParserRequest {
  source: ParserSource;
  /** 'xls' only for the spreadsheet upload (old Excel workbooks, read through SheetJS). */
  format: SheetFormat | 'xls';
  limits: SheetLimits;
  /** Items per message. */
  batchSize: number;
  /** Messages the main thread may not have taken yet before the worker stops reading. */
  window: number;
}

export type ParserMessage =
  /** The whole file was read without a problem; `rows` data rows follow. */
  | { type: 'checked'; rows: number }
  | { type: 'items'; items: SheetItem[]; bytesRead: number }
  | { type: 'end' }
  /** Something is wrong with the file: the message says what. */
  | { type: 'problem'; message: string }
  /** The parser itself failed. */
  | { type: 'failed'; message: string };
