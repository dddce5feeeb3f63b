/**
 * Manifest import rate: a 100,000-row CSV and the same rows as XLSX, imported into an empty
 * index (every row new) and then again (every row an update), through imports.manifest.
 * Run: npx tsx bench/import.ts [rows]
 */
import ExcelJS from 'exceljs';
import { createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import type { CallOutput } from '../src/shared/contract';
import { createTestStation } from '../test/support/station';

const rows = Number(process.argv[2] ?? 100_000);
const header = ['orderId', 'orderRef', 'barcode', 'bundleId', 'deliveryName', 'status'];
const row = (n: number) => [`ord_${n.toString(36).padStart(8, '0')}`, `REF-${n}`, `3SPSB${String(n).padStart(10, '0')}`, `B-${Math.floor(n / 5)}`, `Recipient ${n}`, n % 10 === 0 ? 'expected' : 'draft'];

async function writeCsv(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write(`${header.join(',')}\n`);
  for (let n = 0; n < rows; n += 1) {
    if (!out.write(`${row(n).join(',')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function writeXlsx(path: string): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Orders');
  sheet.addRow(header).commit();
  for (let n = 0; n < rows; n += 1) sheet.addRow(row(n)).commit();
  sheet.commit();
  await workbook.commit();
}

const test = await createTestStation();
try {
  const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });
  await call('settings.set', { environment: 'test' });
  const csv = join(test.dataDir, 'manifest.csv');
  const xlsx = join(test.dataDir, 'manifest.xlsx');
  await writeCsv(csv);
  await writeXlsx(xlsx);
  console.log(`files: ${rows.toLocaleString('en')} rows — CSV ${(statSync(csv).size / 1024 / 1024).toFixed(1)} MB, XLSX ${(statSync(xlsx).size / 1024 / 1024).toFixed(1)} MB`);

  let progressEvents = 0;
  test.station.events.subscribe((name) => {
    if (name === 'imports.progress') progressEvents += 1;
  });
  const run = async (label: string, path: string) => {
    progressEvents = 0;
    const started = performance.now();
    const result = await call('imports.manifest', { source: { kind: 'picked', handle: test.station.services.pickedFiles.register(path) } });
    const seconds = (performance.now() - started) / 1000;
    if (!result.ok) throw new Error(result.error.message);
    const report = result.value as CallOutput<'imports.manifest'>;
    console.log(
      `${label}: ${report.rowsRead.toLocaleString('en')} rows in ${seconds.toFixed(2)} s = ${Math.round(report.rowsRead / seconds).toLocaleString('en')} rows/s (${report.inserted.toLocaleString('en')} new, ${report.updated.toLocaleString('en')} updated, ${report.failed} errors, ${progressEvents} progress events)`,
    );
  };
  await run('CSV, empty index ', csv);
  await run('CSV, re-import   ', csv);
  await call('settings.set', { environment: 'live' });
  await run('XLSX, empty index', xlsx);
  await run('XLSX, re-import  ', xlsx);
} finally {
  await test.dispose();
}
