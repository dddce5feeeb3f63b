/**
 * Streaming readers for manifest files: each yields the header row, then every data row as text
 * cells with its row number, without holding the file in memory. CSV through csv-parse (the
 * delimiter is detected from the header line: comma, semicolon or tab), XLSX through exceljs's
 * streaming reader (first worksheet only, as the service's own dashboard does).
 */
import { parse as parseCsv, type CsvError } from 'csv-parse';
import ExcelJS from 'exceljs';
import type { Readable } from 'node:stream';

export type ManifestFormat = 'csv' | 'xlsx';

export type Cell = string | null | { error: string };

export interface ManifestRow {
  /** Row (XLSX) or line (CSV) number in the file, counting the header as 1. */
  row: number;
  cells: Cell[];
}

export type ManifestItem = { kind: 'header'; row: number; cells: string[] } | { kind: 'row'; row: ManifestRow } | { kind: 'bad-row'; row: number; message: string };

export interface ByteCounter {
  bytesRead: number;
}

const maxCsvRecordBytes = 64 * 1024;

/** Which format the bytes are, whatever the file is called. */
export function detectFormat(head: Buffer, fileName: string): ManifestFormat | { unsupported: string } {
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

/** The delimiter of the header line: whichever of comma, semicolon and tab occurs most outside quotes. */
export function detectDelimiter(head: Buffer): string {
  const text = head.toString('utf8');
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const character of text) {
    if (character === '"') quoted = !quoted;
    else if (!quoted && (character === '\n' || character === '\r')) break;
    else if (!quoted && counts.has(character)) counts.set(character, (counts.get(character) ?? 0) + 1);
  }
  let best = ',';
  for (const [delimiter, count] of counts) if (count > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

export async function* readCsv(input: Readable, head: Buffer): AsyncGenerator<ManifestItem> {
  const skipped: { row: number; message: string }[] = [];
  const parser = parseCsv({
    delimiter: detectDelimiter(head),
    bom: true,
    info: true,
    trim: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: maxCsvRecordBytes,
    on_skip: (error: CsvError | undefined) => {
      skipped.push({ row: parserLines(), message: `this line could not be read as CSV (${error?.message ?? 'malformed'})` });
      return undefined;
    },
  });
  const parserLines = () => parser.info.lines;
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  let headerSeen = false;
  for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    while (skipped.length > 0) {
      const bad = skipped.shift();
      if (bad) yield { kind: 'bad-row', ...bad };
    }
    if (!headerSeen) {
      headerSeen = true;
      yield { kind: 'header', row: item.info.lines, cells: item.record };
      continue;
    }
    yield { kind: 'row', row: { row: item.info.lines, cells: item.record.map((cell) => (cell === '' ? null : cell)) } };
  }
  for (const bad of skipped) yield { kind: 'bad-row', ...bad };
}

export async function* readXlsx(input: Readable): AsyncGenerator<ManifestItem> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  let headerSeen = false;
  try {
    for await (const worksheet of workbook) {
      for await (const row of worksheet) {
        const values = Array.isArray(row.values) ? row.values.slice(1) : [];
        const cells = Array.from(values, (value) => cellText(value as ExcelJS.CellValue));
        if (cells.every((cell) => cell === null)) continue;
        if (!headerSeen) {
          headerSeen = true;
          yield { kind: 'header', row: row.number, cells: cells.map((cell) => (typeof cell === 'string' ? cell : '')) };
          continue;
        }
        yield { kind: 'row', row: { row: row.number, cells } };
      }
      // Only the first worksheet is a manifest; the rest (notes, pivot tables) are not read.
      break;
    }
  } finally {
    input.destroy();
  }
}

export function cellText(value: ExcelJS.CellValue | undefined): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'number') {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      return { error: 'holds a number too long to be exact (Excel rounded it); format the column as text and export again' };
    }
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value && Array.isArray(value.richText)) return cellText(value.richText.map((part) => part.text).join(''));
    if ('error' in value) return { error: `holds the spreadsheet error ${String(value.error)}` };
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('text' in value && typeof value.text === 'string') return cellText(value.text);
  }
  return { error: 'holds a value that is not text' };
}
