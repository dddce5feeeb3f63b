/**
 * What the upload tests share: a sandbox on loopback with its rate limit on, a station data folder
 * set to the sandbox's test environment, spreadsheets of upload rows (some bad on purpose) written
 * as .xlsx (exceljs), .csv and .xls (SheetJS), the report read back, and the sandbox's own record
 * of the orders it created (its control API).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import { composeStation } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';
import type { RunningSandbox } from '../../../src/sandbox';
import { memoryKeyStore } from '../../support/station';
import { controlCall } from '../printing-queue/support';

export const header = [
  'orderRef',
  'locationId',
  'name',
  'deliveryName',
  'deliveryStreet',
  'deliveryNumber',
  'deliverySuffix',
  'deliveryPostalCode',
  'deliveryCity',
  'deliveryCountry',
  'deliveryEmail',
  'length',
  'width',
  'height',
  'weight',
  'deliveryDate',
] as const;
export type UploadRowCells = Record<(typeof header)[number], string>;

/** How a bad row is bad, and how a lead would correct it in the failures sheet. */
export const badKinds = ['missing street', 'country', 'postal code', 'date', 'dimensions order', 'weight', 'other location', 'out of area'] as const;
export type BadKind = (typeof badKinds)[number];

export function goodRow(prefix: string, index: number, locationId: string): UploadRowCells {
  return {
    orderRef: `${prefix}-${String(index).padStart(5, '0')}`,
    locationId,
    name: `Parcel ${index}`,
    deliveryName: `Klant ${index}`,
    deliveryStreet: 'Damrak',
    deliveryNumber: String(1 + (index % 300)),
    deliverySuffix: '',
    deliveryPostalCode: `10${String(10 + (index % 89)).padStart(2, '0')} AB`,
    deliveryCity: 'Amsterdam',
    deliveryCountry: 'NL',
    deliveryEmail: `klant${index}@example.com`,
    length: '300',
    width: '200',
    height: '100',
    weight: '1200',
    deliveryDate: '',
  };
}

export function spoil(row: UploadRowCells, kind: BadKind, otherLocation: string): UploadRowCells {
  switch (kind) {
    case 'missing street':
      return { ...row, deliveryStreet: '' };
    case 'country':
      return { ...row, deliveryCountry: 'NLD' };
    case 'postal code':
      return { ...row, deliveryPostalCode: 'AB12' };
    case 'date':
      return { ...row, deliveryDate: '25-12-2026' };
    case 'dimensions order':
      return { ...row, length: '100', width: '200', height: '300' };
    case 'weight':
      return { ...row, weight: 'heavy' };
    case 'other location':
      return { ...row, locationId: otherLocation };
    case 'out of area':
      // Groningen: a real Dutch postal code, outside every delivery area of the station's location.
      return { ...row, deliveryPostalCode: '9711 KT', deliveryCity: 'Groningen' };
  }
}

/** `count` rows, `bad` of them spoiled (kinds in turn), at spread-out positions; says which are bad and how. */
export function uploadRows(prefix: string, count: number, bad: number, locationId: string, otherLocation: string) {
  const badAt = new Map<number, BadKind>();
  for (let n = 0; n < bad; n += 1) badAt.set(Math.floor(((n + 0.5) * count) / bad), badKinds[n % badKinds.length]!);
  const rows = Array.from({ length: count }, (_, index) => {
    const row = goodRow(prefix, index, locationId);
    const kind = badAt.get(index);
    return kind ? spoil(row, kind, otherLocation) : row;
  });
  return { rows, badAt };
}

export async function writeXlsx(path: string, rows: readonly Record<string, string>[], columns: readonly string[] = header): Promise<void> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Orders');
  sheet.addRow([...columns]);
  for (const row of rows) sheet.addRow(columns.map((column) => row[column] ?? ''));
  // A second worksheet is never read (spec: the first worksheet only).
  book.addWorksheet('Notes').addRow(['orderRef', 'locationId', 'deliveryStreet', 'deliveryNumber', 'deliveryPostalCode', 'deliveryCity', 'deliveryCountry']).commit();
  await book.xlsx.writeFile(path);
}

export function writeCsv(path: string, rows: readonly Record<string, string>[], columns: readonly string[] = header): void {
  const quote = (text: string) => (/[";\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  writeFileSync(path, [columns.join(';'), ...rows.map((row) => columns.map((column) => quote(row[column] ?? '')).join(';'))].join('\n') + '\n');
}

export function writeXls(path: string, rows: readonly Record<string, string>[], columns: readonly string[] = header): void {
  const sheet = XLSX.utils.aoa_to_sheet([[...columns], ...rows.map((row) => columns.map((column) => row[column] ?? ''))]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Orders');
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['orderRef'], ['NOT-READ']]), 'Notes');
  writeFileSync(path, XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer);
}

export interface ReportSheet {
  columns: string[];
  rows: Record<string, string>[];
}

/** A worksheet of the report as column → text rows (read with exceljs, as a person's spreadsheet program would). */
export async function readReport(path: string): Promise<Map<string, ReportSheet>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const sheets = new Map<string, ReportSheet>();
  for (const sheet of book.worksheets) {
    const values: string[][] = [];
    sheet.eachRow((row) => {
      const cells: string[] = [];
      for (let column = 1; column <= sheet.columnCount; column += 1) {
        const value = row.getCell(column).value;
        cells.push(value === null || value === undefined ? '' : String(value as string | number));
      }
      values.push(cells);
    });
    const [columns = [], ...rest] = values;
    sheets.set(sheet.name, { columns, rows: rest.map((cells) => Object.fromEntries(columns.map((column, index) => [column, cells[index] ?? '']))) });
  }
  return sheets;
}

/** The sandbox's own record: how many orders it holds per orderRef starting with the prefix. */
export async function sandboxOrdersByRef(sandbox: RunningSandbox, prefix: string): Promise<Map<string, string[]>> {
  const body = z.object({ orders: z.array(z.object({ orderRef: z.string(), orderId: z.string() })) }).parse(await controlCall(sandbox, '/environments/test/orders'));
  const byRef = new Map<string, string[]>();
  for (const order of body.orders) if (order.orderRef.startsWith(`${prefix}-`)) byRef.set(order.orderRef, [...(byRef.get(order.orderRef) ?? []), order.orderId]);
  return byRef;
}

export function stationKeys(sandbox: RunningSandbox) {
  const company = sandbox.environments.test.companies[0]!;
  return { key: company.apiKey, address: sandbox.environments.test.baseUrl };
}

/** A data folder whose station works on the sandbox's test environment (as Setup would leave it). */
export async function stationFolder(sandbox: RunningSandbox, name: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), `station-upload-${name}-`));
  const station = await composeStation({
    dataDir,
    host: 'web',
    version: '0.0.0-test',
    logger: createLogger(() => undefined, { level: 'error' }),
    keyStore: memoryKeyStore({ test: stationKeys(sandbox) }),
  });
  station.settings.setApiBaseUrl('test', sandbox.environments.test.baseUrl);
  station.settings.setEnvironment('test');
  await station.close();
  return dataDir;
}
