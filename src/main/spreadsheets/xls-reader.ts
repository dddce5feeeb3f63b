/**
 * The reader for old Excel 97–2003 workbooks (.xls, BIFF in an OLE compound file), through SheetJS
 * community edition (@e965/xlsx: pure JavaScript, no native build, no network). It yields what the
 * CSV and XLSX readers yield (the header, then every data row as text cells with its row number)
 * from the first worksheet only, within the same limits. SheetJS reads a workbook whole, so this
 * runs only inside the manifest parsing worker with its heap limit: a hostile file can exhaust
 * nothing but that worker. Only compound files are handed to SheetJS (it would otherwise sniff
 * and parse anything, zip and HTML included), and formulas, styles and HTML are not parsed.
 */
import * as XLSX from '@e965/xlsx';
import { SheetFileProblem, mib, type SheetLimits } from './sheet-limits';
import type { Cell, SheetItem } from './sheet-readers';
import type { RandomAccess } from './xlsx-zip';
import { isCompoundFile } from './spreadsheet-format';
import { errorText } from '../../shared/error-text';

/** Rows of a worksheet an .xls may hold (BIFF8's own limit is 65,536). */
const maxXlsRows = 65_536;
/** Bytes of an .xls file: BIFF is not compressed, so this bounds what SheetJS builds from it. */
export const maxXlsBytes = 32 * 1024 * 1024;

export async function* readXls(access: RandomAccess, limits: SheetLimits): AsyncGenerator<SheetItem> {
  if (access.size > maxXlsBytes) throw new SheetFileProblem(`the .xls workbook is ${mib(access.size)}, more than the ${mib(maxXlsBytes)} an .xls may be`);
  const bytes = await access.read(0, access.size);
  if (!isCompoundFile(bytes)) throw new SheetFileProblem('it is not an Excel 97–2003 (.xls) workbook');
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(bytes, {
      type: 'buffer',
      dense: true,
      sheets: 0,
      sheetRows: maxXlsRows + 1,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      cellText: false,
      cellNF: true,
      bookVBA: false,
      WTF: false,
    });
  } catch (error) {
    throw new SheetFileProblem(`the .xls workbook cannot be read (${errorText(error).slice(0, 160)})`);
  }
  const sheetName = book.SheetNames[0];
  const sheet = sheetName === undefined ? undefined : (book.Sheets[sheetName] as XLSX.DenseSheet | undefined);
  const data: (XLSX.CellObject | undefined)[][] = sheet?.['!data'] ?? [];
  let headerSeen = false;
  for (let index = 0; index < data.length; index += 1) {
    const cells = data[index] ?? [];
    if (cells.length > limits.maxRowCells) throw new SheetFileProblem(`row ${index + 1} has ${cells.length} columns, more than the ${limits.maxRowCells} a row may have`);
    const texts: Cell[] = [];
    let rowChars = 0;
    for (let column = 0; column < cells.length; column += 1) {
      const text = cellText(cells[column]);
      if (typeof text === 'string') {
        if (text.length > limits.maxCellChars) throw new SheetFileProblem(`a cell of row ${index + 1} holds ${text.length} characters, more than the ${limits.maxCellChars} a cell may`);
        rowChars += text.length;
      }
      texts.push(text);
    }
    if (rowChars > limits.maxRowChars) throw new SheetFileProblem(`row ${index + 1} holds ${rowChars} characters, more than the ${limits.maxRowChars} a row may`);
    if (texts.every((cell) => cell === null)) continue;
    if (!headerSeen) {
      headerSeen = true;
      yield { kind: 'header', row: index + 1, cells: texts.map((cell) => (typeof cell === 'string' ? cell : '')) };
      continue;
    }
    yield { kind: 'row', row: { row: index + 1, cells: texts } };
  }
}

/** A cell as the text a person sees: dates as YYYY-MM-DD, numbers in full, errors as errors. */
function cellText(cell: XLSX.CellObject | undefined): Cell {
  if (!cell || cell.v === undefined || cell.v === null) return null;
  switch (cell.t) {
    case 's': {
      const text = String(cell.v).trim();
      return text === '' ? null : text;
    }
    case 'n': {
      const value = cell.v as number;
      if (typeof cell.z === 'string' && XLSX.SSF.is_date(cell.z)) return XLSX.SSF.format('yyyy-mm-dd', value);
      return String(value);
    }
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE';
    case 'd':
      return cell.v instanceof Date ? cell.v.toISOString().slice(0, 10) : String(cell.v);
    case 'e':
      return { error: `holds the error value ${cell.w ?? '#ERROR'}` };
    default:
      return null;
  }
}
