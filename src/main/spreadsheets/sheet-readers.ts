/**
 * Streaming readers for manifest files: each yields the header row, then every data row as text
 * cells with its row number, within the bounds of sheet-limits.ts. A file that cannot be read
 * to the end throws a SheetFileProblem naming the line or part at fault; the importer then
 * imports nothing from it.
 *
 * CSV goes through csv-parse with every error fatal (the delimiter is detected from the header
 * line: comma, semicolon or tab). XLSX is read here, not through exceljs: exceljs keeps the
 * whole shared text table and every cell's text unbounded, which is what a shared-strings bomb
 * exploits. Only the first worksheet is a manifest, as on the service's own dashboard.
 */
import { parse as parseCsv, CsvError, type InfoRecord } from 'csv-parse';
import { Readable } from 'node:stream';
import { kib, SheetFileProblem, mib, type SheetLimits } from './sheet-limits';
import { decodeEntities, XmlTokenizer, type XmlHandler } from './xlsx-xml';
import { ZipReader, type RandomAccess } from './xlsx-zip';

export type Cell = string | null | { error: string };

export interface SheetRow {
  /** Row (XLSX) or line (CSV) number in the file, counting the header as 1. */
  row: number;
  cells: Cell[];
}

export type SheetItem = { kind: 'header'; row: number; cells: string[] } | { kind: 'row'; row: SheetRow };

/** The delimiter of the header line: whichever of comma, semicolon and tab occurs most outside quotes. */
export function detectDelimiter(head: Uint8Array): string {
  const text = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('utf8');
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

/** The bytes of a source in order, in chunks. */
export function sequentialStream(access: RandomAccess, chunkBytes = 256 * 1024): Readable {
  let position = 0;
  return new Readable({
    async read() {
      try {
        const chunk = await access.read(position, chunkBytes);
        position += chunk.length;
        this.push(chunk.length > 0 ? chunk : null);
      } catch (error) {
        this.destroy(error as Error);
      }
    },
  });
}

export async function* readCsv(access: RandomAccess, limits: SheetLimits): AsyncGenerator<SheetItem> {
  const head = await access.read(0, 64 * 1024);
  // Where the last whole record ended, as the parser reads (it reads ahead of the rows taken):
  // a record that fails starts on the next line.
  let parsedToLine = 0;
  const parser = parseCsv({
    delimiter: detectDelimiter(head),
    bom: true,
    info: true,
    trim: true,
    relax_column_count: true,
    // A quote inside an unquoted cell (5" box) is text; a quote opening a cell must be closed.
    relax_quotes: true,
    skip_empty_lines: false,
    max_record_size: limits.maxCsvRecordBytes,
    on_record: (record: string[], context: InfoRecord) => {
      parsedToLine = context.lines;
      return record;
    },
  });
  const input = sequentialStream(access);
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  // The line the record being read starts on: one past where the last whole record ended.
  let lastLine = 0;
  let headerSeen = false;
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const startLine = lastLine + 1;
      lastLine = item.info.lines;
      if (item.record.every((cell) => cell === '')) continue;
      if (!headerSeen) {
        headerSeen = true;
        yield { kind: 'header', row: startLine, cells: item.record };
        continue;
      }
      yield { kind: 'row', row: { row: startLine, cells: item.record.map((cell) => (cell === '' ? null : cell)) } };
    }
  } catch (error) {
    throw csvProblem(error, parsedToLine + 1, limits);
  } finally {
    input.destroy();
  }
}

function csvProblem(error: unknown, line: number, limits: SheetLimits): Error {
  if (!(error instanceof CsvError)) return error instanceof Error ? error : new Error(String(error));
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new SheetFileProblem(`line ${line}: a quoted cell starts there and is never closed`);
    case 'CSV_MAX_RECORD_SIZE':
      return new SheetFileProblem(
        `line ${line} is longer than ${kib(limits.maxCsvRecordBytes)} (no order needs that much; often a quote opens a cell there and is never closed)`,
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
      return new SheetFileProblem(`line ${line}: a quoted cell is closed and then more text follows in the same cell`);
    default:
      return new SheetFileProblem(`line ${line} could not be read as CSV (${error.message.slice(0, 160)})`);
  }
}

/** A text piece kept under a cap; past it the file fails with what was too long. */
class CappedText {
  private parts: string[] = [];
  private length = 0;
  constructor(
    private readonly cap: number,
    private readonly tooLong: () => string,
  ) {}
  add(raw: string): void {
    this.length += raw.length;
    // Raw text carries entities (&amp; is five characters for one), so the raw cap is looser.
    if (this.length > this.cap * 6) throw new SheetFileProblem(this.tooLong());
    this.parts.push(raw);
  }
  take(): string {
    const text = decodeEntities(this.parts.join(''));
    this.parts = [];
    this.length = 0;
    if (text.length > this.cap) throw new SheetFileProblem(this.tooLong());
    return text;
  }
}

export async function* readXlsx(access: RandomAccess, limits: SheetLimits): AsyncGenerator<SheetItem> {
  const zip = await ZipReader.open(access, limits);
  const { sheetPath, sharedStringsPath } = await locateParts(zip);
  const shared = sharedStringsPath ? await readSharedStrings(zip, sharedStringsPath, limits) : [];

  const pending: SheetItem[] = [];
  let headerSeen = false;
  const sheet = new SheetHandler(shared, limits, (row) => {
    if (row.cells.every((cell) => cell === null)) return;
    if (!headerSeen) {
      headerSeen = true;
      pending.push({ kind: 'header', row: row.row, cells: row.cells.map((cell) => (typeof cell === 'string' ? cell : '')) });
    } else pending.push({ kind: 'row', row });
  });
  const tokenizer = new XmlTokenizer(sheet, sheetPath);
  const decoder = new TextDecoder('utf-8');
  for await (const slice of zip.part(sheetPath)) {
    tokenizer.write(decoder.decode(slice, { stream: true }));
    yield* pending.splice(0, pending.length);
  }
  tokenizer.write(decoder.decode());
  tokenizer.end();
  yield* pending.splice(0, pending.length);
}

/** The first worksheet and the shared text, as the workbook's own relationships name them. */
async function locateParts(zip: ZipReader): Promise<{ sheetPath: string; sharedStringsPath: string | null }> {
  const limits = { maxText: 1024 * 1024 };
  let firstSheetRelation: string | null = null;
  await readSmallPart(zip, 'xl/workbook.xml', limits.maxText, {
    open(name, attributes) {
      if (name === 'sheet' && firstSheetRelation === null) firstSheetRelation = attributes.id ?? null;
    },
  });
  const relations = new Map<string, { type: string; target: string }>();
  if (zip.has('xl/_rels/workbook.xml.rels')) {
    await readSmallPart(zip, 'xl/_rels/workbook.xml.rels', limits.maxText, {
      open(name, attributes) {
        if (name === 'Relationship' && attributes.Id && attributes.Target && relations.size < 10_000) {
          relations.set(attributes.Id, { type: attributes.Type ?? '', target: attributes.Target });
        }
      },
    });
  }
  const resolveTarget = (target: string) => (target.startsWith('/') ? target.slice(1) : `xl/${target}`).replace(/\/[^/]+\/\.\.\//g, '/');
  const sheetRelation = firstSheetRelation ? relations.get(firstSheetRelation) : undefined;
  const sheetPath = sheetRelation ? resolveTarget(sheetRelation.target) : 'xl/worksheets/sheet1.xml';
  if (!zip.has(sheetPath)) throw new SheetFileProblem('it has no worksheet');
  const sharedRelation = [...relations.values()].find((relation) => relation.type.endsWith('/sharedStrings'));
  const sharedStringsPath = sharedRelation ? resolveTarget(sharedRelation.target) : zip.has('xl/sharedStrings.xml') ? 'xl/sharedStrings.xml' : null;
  return { sheetPath, sharedStringsPath: sharedStringsPath && zip.has(sharedStringsPath) ? sharedStringsPath : null };
}

async function readSmallPart(zip: ZipReader, name: string, maxBytes: number, handler: Partial<XmlHandler>): Promise<void> {
  const tokenizer = new XmlTokenizer({ open: () => undefined, close: () => undefined, text: () => undefined, ...handler }, name);
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  for await (const slice of zip.part(name)) {
    size += slice.length;
    if (size > maxBytes) throw new SheetFileProblem(`its part ${name} is larger than ${mib(maxBytes)}, far more than a workbook needs`);
    tokenizer.write(decoder.decode(slice, { stream: true }));
  }
  tokenizer.write(decoder.decode());
  tokenizer.end();
}

async function readSharedStrings(zip: ZipReader, path: string, limits: SheetLimits): Promise<string[]> {
  const strings: string[] = [];
  let total = 0;
  let depthInPhonetic = 0;
  let inText = false;
  const text = new CappedText(limits.maxCellChars, () => `the file's shared text has a cell longer than ${kib(limits.maxCellChars)}`);
  let current: string[] = [];
  let currentLength = 0;
  const handler: XmlHandler = {
    attributesOf: new Set<string>(),
    open(name) {
      if (name === 'si') {
        current = [];
        currentLength = 0;
      } else if (name === 'rPh') depthInPhonetic += 1;
      else if (name === 't' && depthInPhonetic === 0) inText = true;
    },
    close(name) {
      if (name === 't' && inText) {
        inText = false;
        const piece = text.take();
        currentLength += piece.length;
        if (currentLength > limits.maxCellChars) throw new SheetFileProblem(`the file's shared text has a cell longer than ${kib(limits.maxCellChars)}`);
        current.push(piece);
      } else if (name === 'rPh') depthInPhonetic -= 1;
      else if (name === 'si') {
        total += currentLength;
        if (total > limits.maxSharedTextChars) throw new SheetFileProblem(`the file's shared text is larger than ${mib(limits.maxSharedTextChars)}`);
        if (strings.length >= limits.maxSharedStrings) {
          throw new SheetFileProblem(`the file's shared text has more than ${limits.maxSharedStrings.toLocaleString('en')} entries`);
        }
        strings.push(current.join(''));
      }
    },
    text(raw) {
      if (inText) text.add(raw);
    },
  };
  const tokenizer = new XmlTokenizer(handler, path);
  const decoder = new TextDecoder('utf-8');
  for await (const slice of zip.part(path)) tokenizer.write(decoder.decode(slice, { stream: true }));
  tokenizer.write(decoder.decode());
  tokenizer.end();
  return strings;
}

/** Turns a worksheet's XML into rows of text cells. */
class SheetHandler implements XmlHandler {
  readonly attributesOf = new Set(['row', 'c']);
  private rowNumber = 0;
  private cells: Cell[] = [];
  private rowChars = 0;
  private column = -1;
  private cellType = 'n';
  private capturing = false;
  private inInline = false;
  private readonly value: CappedText;
  private cellRaw: string | null = null;

  constructor(
    private readonly shared: readonly string[],
    private readonly limits: SheetLimits,
    private readonly emit: (row: SheetRow) => void,
  ) {
    this.value = new CappedText(limits.maxCellChars, () => `row ${this.rowNumber}: a cell is longer than ${kib(limits.maxCellChars)}`);
  }

  open(name: string, attributes: Record<string, string>): void {
    if (name === 'row') {
      const given = Number(attributes.r);
      this.rowNumber = Number.isInteger(given) && given > this.rowNumber ? given : this.rowNumber + 1;
      this.cells = [];
      this.rowChars = 0;
      this.column = -1;
    } else if (name === 'c') {
      const reference = attributes.r ? /^([A-Z]{1,3})\d*$/.exec(attributes.r) : null;
      this.column = reference?.[1] ? columnIndex(reference[1]) : this.column + 1;
      if (this.column >= this.limits.maxRowCells) throw new SheetFileProblem(`row ${this.rowNumber} has more than ${this.limits.maxRowCells.toLocaleString('en')} columns`);
      this.cellType = attributes.t ?? 'n';
      this.cellRaw = null;
    } else if (name === 'v') {
      this.capturing = true;
    } else if (name === 'is') {
      this.inInline = true;
    } else if (name === 't' && this.inInline) {
      this.capturing = true;
    }
  }

  close(name: string): void {
    if ((name === 'v' || (name === 't' && this.inInline)) && this.capturing) {
      this.capturing = false;
      this.cellRaw = (this.cellRaw ?? '') + this.value.take();
    } else if (name === 'is') {
      this.inInline = false;
    } else if (name === 'c') {
      const cell = this.cellRaw === null ? null : cellText(this.cellType, this.cellRaw, this.shared);
      if (typeof cell === 'string') {
        this.rowChars += cell.length;
        if (this.rowChars > this.limits.maxRowChars) throw new SheetFileProblem(`row ${this.rowNumber} is longer than ${kib(this.limits.maxRowChars)}`);
      }
      while (this.cells.length < this.column) this.cells.push(null);
      this.cells[this.column] = cell;
    } else if (name === 'row') {
      this.emit({ row: this.rowNumber, cells: this.cells });
      this.cells = [];
    }
  }

  text(raw: string): void {
    if (this.capturing) this.value.add(raw);
  }
}

function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/** A cell's text as the manifest reads it, from its XLSX type (`t`) and raw value. */
export function cellText(type: string, raw: string, shared: readonly string[]): Cell {
  const text = (value: string): Cell => (value.trim() === '' ? null : value.trim());
  switch (type) {
    case 's': {
      const index = Number(raw);
      const value = Number.isInteger(index) ? shared[index] : undefined;
      return value === undefined ? { error: 'refers to shared text the file does not have' } : text(value);
    }
    case 'str':
    case 'inlineStr':
      return text(raw);
    case 'b':
      return raw.trim() === '1' ? 'true' : 'false';
    case 'e':
      return { error: `holds the spreadsheet error ${raw.trim()}` };
    case 'd': {
      const time = Date.parse(raw);
      return Number.isNaN(time) ? text(raw) : new Date(time).toISOString();
    }
    default: {
      if (raw.trim() === '') return null;
      const value = Number(raw);
      if (!Number.isFinite(value)) return { error: 'holds a value that is not a number, though the file says it is one' };
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        return { error: 'holds a number too long to be exact (Excel rounded it); format the column as text and export again' };
      }
      return String(value);
    }
  }
}
