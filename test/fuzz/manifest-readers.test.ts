/**
 * Spreadsheets from outside (today's manifest, orders to ship, the spreadsheet upload): CSV,
 * XLSX (a zip of XML parts) and old .xls. For files written from generated rows the readers give
 * back those rows (a round trip: CSV through the station's own CSV writer, XLSX through exceljs,
 * .xls through SheetJS); for any bytes, and for those files cut short or mutated, every reader ends
 * with its rows or a ManifestFileProblem saying what is wrong with the file, never another error;
 * the XML tokenizer gives the same tokens however its text is cut; the format check and the
 * upload's row check answer anything.
 */
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { defaultManifestLimits, ManifestFileProblem } from '../../src/main/orders/manifest-limits';
import { readCsv, readXlsx, type Cell, type ManifestItem } from '../../src/main/orders/manifest-readers';
import { XmlTokenizer } from '../../src/main/orders/manifest-xml';
import { bytesAccess } from '../../src/main/orders/manifest-zip';
import { detectFormat } from '../../src/main/orders/spreadsheet-format';
import { readXls } from '../../src/main/orders/xls-reader';
import { checkUploadRow, uploadOptionalColumns, uploadRequiredColumns } from '../../src/main/shipping/upload-rows';
import { UploadRowProblemSchema } from '../../src/shared/contract/upload';
import { toCsv } from '../../src/shared/csv';
import { fuzz, quickMs, timed } from './budget';

type Reader = (access: ReturnType<typeof bytesAccess>, limits: typeof defaultManifestLimits) => AsyncGenerator<ManifestItem>;

/** Every item a reader gives for the bytes, or the problem it stopped with. */
async function readAll(reader: Reader, bytes: Uint8Array): Promise<{ items: ManifestItem[]; problem: unknown }> {
  const items: ManifestItem[] = [];
  try {
    for await (const item of reader(bytesAccess(bytes), defaultManifestLimits)) items.push(item);
    return { items, problem: null };
  } catch (problem) {
    return { items, problem };
  }
}

/** The reader ended with its rows or a ManifestFileProblem, nothing else. */
function expectRowsOrProblem(outcome: { problem: unknown }): void {
  if (outcome.problem !== null) expect(outcome.problem, String(outcome.problem)).toBeInstanceOf(ManifestFileProblem);
}

/** Cells without the empty ones at the end of a row (XLSX and .xls leave them out). */
const withoutTrailingEmpty = (cells: readonly Cell[]): Cell[] => {
  let end = cells.length;
  while (end > 0 && cells[end - 1] === null) end -= 1;
  return cells.slice(0, end);
};
/** The rows of a read file, as the cells a person would see. */
const rowsOf = (items: readonly ManifestItem[]) => items.map((item) => withoutTrailingEmpty(item.kind === 'header' ? item.cells : item.row.cells));

// Text a spreadsheet cell holds: letters of several scripts, digits, the CSV delimiters and quotes,
// XML's special characters, spaces and line breaks inside.
const cellText = fc
  .string({ unit: fc.oneof(fc.constantFrom('a', 'Z', 'é', 'ß', 'ł', '中', '😀', '0', '7', ',', ';', '"', "'", '<', '>', '&', ' ', '-', '/', '\n'), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 })), minLength: 1, maxLength: 24 })
  .filter((text) => text.trim() !== '' && !/^[=+\-@]/.test(text.trim()));
const table = fc.integer({ min: 1, max: 6 }).chain((columns) =>
  fc.record({
    header: fc.uniqueArray(cellText.map((text) => text.replace(/\s+/g, ' ').trim()).filter((text) => text !== ''), { minLength: columns, maxLength: columns }),
    rows: fc.array(fc.array(fc.option(cellText, { nil: null, freq: 4 }), { minLength: columns, maxLength: columns }), { maxLength: 12 }),
  }),
);
/**
 * What a reader should give back for written rows: rows with any text, each cell's text (trimmed
 * where the format trims: XLSX and .xls cells; a CSV cell keeps what its quotes hold), null for none.
 */
const expectedRows = (header: readonly string[], rows: readonly (readonly (string | null)[])[], trims: boolean) =>
  [header, ...rows.filter((row) => row.some((cell) => cell !== null && cell.trim() !== ''))].map((row) =>
    withoutTrailingEmpty(row.map((cell) => (cell === null || cell.trim() === '' ? null : trims ? cell.trim() : cell))),
  );

const mutation = fc.array(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }), cut: fc.boolean() }), { minLength: 1, maxLength: 4 });
function mutate(bytes: Uint8Array, changes: readonly { at: number; byte: number; cut: boolean }[]): Uint8Array {
  let out = Uint8Array.from(bytes);
  for (const change of changes) {
    if (out.length === 0) break;
    if (change.cut) out = out.subarray(0, change.at % out.length);
    else out[change.at % out.length] = change.byte;
  }
  return out;
}

async function xlsxOf(header: readonly string[], rows: readonly (readonly (string | null)[])[]): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Manifest');
  sheet.addRow([...header]);
  for (const row of rows) sheet.addRow(row.map((cell) => cell ?? undefined));
  return new Uint8Array(await book.xlsx.writeBuffer());
}

function xlsOf(header: readonly string[], rows: readonly (readonly (string | null)[])[]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([[...header], ...rows.map((row) => row.map((cell) => cell ?? null))]), 'Manifest');
  return new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer);
}

describe('manifest readers (fuzzed)', () => {
  it('CSV: rows written by the station\'s CSV writer read back as written (comma, BOM, CRLF or LF)', async () => {
    await fc.assert(
      fc.asyncProperty(table, fc.boolean(), fc.boolean(), async ({ header, rows }, bom, lf) => {
        let text = toCsv(header, rows);
        if (lf) text = text.replaceAll('\r\n', '\n');
        const outcome = await readAll(readCsv, Buffer.from(`${bom ? '\uFEFF' : ''}${text}`));
        expect(outcome.problem).toBeNull();
        expect(rowsOf(outcome.items)).toEqual(expectedRows(header, rows, false));
      }),
      fuzz(400),
    );
  });

  it('CSV: any text, and written files mutated, end in rows or a ManifestFileProblem', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: fc.constantFrom('a', '"', ',', ';', '\t', '\r', '\n', ' ', '\uFEFF', 'é'), maxLength: 300 }).map((text) => Buffer.from(text)), fc.uint8Array({ maxLength: 600 }), table.chain(({ header, rows }) => mutation.map((changes) => mutate(Buffer.from(toCsv(header, rows)), changes)))), async (bytes) => {
        expectRowsOrProblem(await readAll(readCsv, bytes));
      }),
      fuzz(500),
    );
  });

  it('XLSX: a workbook written from rows reads back as written', async () => {
    await fc.assert(
      fc.asyncProperty(table, async ({ header, rows }) => {
        const outcome = await readAll(readXlsx, await xlsxOf(header, rows));
        expect(outcome.problem).toBeNull();
        expect(rowsOf(outcome.items)).toEqual(expectedRows(header, rows, true));
      }),
      fuzz(120),
    );
  });

  it('XLSX: workbooks mutated or cut short, zips of any parts, and any bytes end in rows or a ManifestFileProblem', async () => {
    const xmlish = fc.string({ unit: fc.constantFrom('<', '>', '/', '"', "'", '=', ' ', 'c', 'row', 'v', 'si', 't', 'r="A1"', 't="s"', '0', '&amp;', '&#', '<!--', '-->', '<![CDATA[', ']]>', '<?', '?>', '<!DOCTYPE'), maxLength: 200 });
    const workbook = '<workbook><sheets><sheet name="A" r:id="rId1"/></sheets></workbook>';
    const rels = '<Relationships><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="x/sharedStrings" Target="sharedStrings.xml"/></Relationships>';
    const zipOfParts = fc.tuple(xmlish, xmlish, fc.boolean()).map(([sheet, shared, stored]) =>
      zipSync({ 'xl/workbook.xml': Buffer.from(workbook), 'xl/_rels/workbook.xml.rels': Buffer.from(rels), 'xl/worksheets/sheet1.xml': Buffer.from(sheet), 'xl/sharedStrings.xml': Buffer.from(shared) }, { level: stored ? 0 : 6 }),
    );
    const written = table.chain(({ header, rows }) => mutation.chain((changes) => fc.constant({ header, rows, changes })));
    await fc.assert(
      fc.asyncProperty(fc.oneof(zipOfParts, fc.uint8Array({ maxLength: 400 }), written.map((value) => value)), async (input) => {
        const bytes = input instanceof Uint8Array ? input : mutate(await xlsxOf(input.header, input.rows), input.changes);
        expectRowsOrProblem(await readAll(readXlsx, bytes));
      }),
      fuzz(250),
    );
  });

  it('XML: the tokenizer gives the same tokens however its text is cut, and refuses only with a ManifestFileProblem', () => {
    const xml = fc.string({ unit: fc.constantFrom('<', '>', '/', '"', "'", '=', ' ', 'a', 'b:c', 'x="1"', "y='2'", '&lt;', '<!--', '-->', '<![CDATA[', ']]>', '<?xml ?>', 'text'), maxLength: 120 });
    fc.assert(
      fc.property(xml, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const tokens = (pieces: readonly string[]) => {
          const seen: string[] = [];
          // Text may arrive in more pieces when its text is cut: consecutive pieces are joined.
          const text = (raw: string) => {
            if (seen.at(-1)?.startsWith('text ')) seen[seen.length - 1] += raw;
            else seen.push(`text ${raw}`);
          };
          const tokenizer = new XmlTokenizer({ open: (name, attributes) => seen.push(`open ${name} ${JSON.stringify(attributes)}`), close: (name) => seen.push(`close ${name}`), text }, 'part');
          try {
            for (const piece of pieces) tokenizer.write(piece);
            tokenizer.end();
          } catch (error) {
            expect(error).toBeInstanceOf(ManifestFileProblem);
            seen.push('refused');
          }
          return seen;
        };
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const pieces = [...points, text.length].map((end, index) => text.slice(index === 0 ? 0 : points[index - 1], end));
        expect(tokens(pieces)).toEqual(tokens([text]));
      }),
      fuzz(3000),
    );
  });

  it('XLS: a workbook written from rows reads back as written; mutated or cut short, it ends in rows or a ManifestFileProblem', async () => {
    await fc.assert(
      fc.asyncProperty(table, fc.option(mutation, { nil: null }), async ({ header, rows }, changes) => {
        const bytes = xlsOf(header, rows);
        if (changes === null) {
          const outcome = await readAll(readXls, bytes);
          expect(outcome.problem).toBeNull();
          expect(rowsOf(outcome.items)).toEqual(expectedRows(header, rows, true));
        } else {
          expectRowsOrProblem(await readAll(readXls, mutate(bytes, changes)));
        }
      }),
      fuzz(150),
    );
  });

  it('the format check and the upload\'s row check answer anything within 250 ms, with coded problems only', () => {
    const columns = [...uploadRequiredColumns, ...uploadOptionalColumns];
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.string({ maxLength: 40 }), fc.dictionary(fc.constantFrom(...columns), fc.string({ unit: 'grapheme', maxLength: 30 }), { maxKeys: columns.length }), (head, fileName, cells) => {
        const { ms } = timed(() => {
          const format = detectFormat(head, fileName);
          expect(format === 'csv' || format === 'xlsx' || typeof format.unsupported === 'string').toBe(true);
          const checked = checkUploadRow(cells, new Set(['101', '102']));
          for (const problem of checked.problems) expect(UploadRowProblemSchema.safeParse(problem).success).toBe(true);
          expect(checked.request === null).toBe(checked.problems.length > 0);
        });
        expect(ms).toBeLessThan(quickMs);
      }),
      fuzz(3000),
    );
  });
});
