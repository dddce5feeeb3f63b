import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSpreadsheet } from '../../../src/main/spreadsheets/spreadsheet-file';

const options = { maxBytes: 1024, acceptXls: false, refuseEmpty: true };
// The first bytes of every OLE2 compound file (an Excel 97–2003 workbook).
const xlsHead = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);

describe('openSpreadsheet: the one opener of the three spreadsheet imports', () => {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'spreadsheet-file-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('tells CSV and XLSX from the first bytes of a file on disk and reports its size', async () => {
    const path = join(folder, 'orders.csv');
    await writeFile(path, 'orderRef;deliveryName\nA1;Jansen\n');
    await expect(openSpreadsheet({ kind: 'path', path }, options)).resolves.toEqual({ fileName: 'orders.csv', format: 'csv', source: { kind: 'path', path }, size: 32 });
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]);
    await expect(openSpreadsheet({ kind: 'bytes', fileName: 'export.xlsx', bytes: zip }, options)).resolves.toMatchObject({ fileName: 'export.xlsx', format: 'xlsx', size: 6 });
  });

  it('refuses a folder as not a file, before reading from it', async () => {
    await expect(openSpreadsheet({ kind: 'path', path: folder }, options)).rejects.toMatchObject({ code: 'not-a-file' });
  });

  it('refuses a missing file as unreadable, naming the system code', async () => {
    await expect(openSpreadsheet({ kind: 'path', path: join(folder, 'gone.csv') }, options)).rejects.toMatchObject({ code: 'unreadable', message: 'gone.csv could not be read (ENOENT).' });
  });

  it('refuses an empty file when asked, and a file over the size bound with its size', async () => {
    await expect(openSpreadsheet({ kind: 'bytes', fileName: 'empty.csv', bytes: Buffer.alloc(0) }, options)).rejects.toMatchObject({ code: 'empty' });
    await expect(openSpreadsheet({ kind: 'bytes', fileName: 'empty.csv', bytes: Buffer.alloc(0) }, { ...options, refuseEmpty: false })).resolves.toMatchObject({ format: 'csv', size: 0 });
    await expect(openSpreadsheet({ kind: 'bytes', fileName: 'big.csv', bytes: Buffer.alloc(1025, 0x41) }, options)).rejects.toMatchObject({ code: 'too-big', size: 1025 });
  });

  it('lets an old Excel workbook through only for the import that reads it', async () => {
    const input = { kind: 'bytes' as const, fileName: 'old.xls', bytes: xlsHead };
    await expect(openSpreadsheet(input, { ...options, acceptXls: true })).resolves.toMatchObject({ format: 'xls' });
    await expect(openSpreadsheet(input, options)).rejects.toMatchObject({ code: 'unsupported', message: 'old.xls is an old Excel 97–2003 (.xls) workbook. Save it as .xlsx or CSV and import that.' });
  });
});
