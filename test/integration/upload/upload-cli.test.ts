/**
 * The spreadsheet upload end to end through the CLI as a user types it, on a sandbox with its rate
 * limit on: the preview, the progress, the dashboard's result names, the report read back with
 * exceljs, and the two ways of running it twice (the same file, the corrected failures sheet).
 * Every claim about what was created is checked against the sandbox's own record.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import { runCliIn } from '../../support/cli';
import { memoryKeyStore } from '../../support/station';
import { controlCall } from '../printing-queue/support';
import { readReport, sandboxOrdersByRef, stationFolder, stationKeys, uploadRows, writeCsv, writeXls, writeXlsx, type BadKind } from './support';

const LOCATION = '1101';
const OTHER_COMPANY_LOCATION = '1201';

describe('spreadsheet upload from the CLI', () => {
  let sandbox: RunningSandbox;
  let files: string;
  const folders: string[] = [];

  beforeAll(async () => {
    // The rate limit is on and tight, so the upload meets 429s and must wait them out.
    sandbox = await startSandbox({ printers: 0, seedSize: 'small', rateLimit: { requestsPerSecond: 150, burst: 20 }, faults: { labelDelayMs: 0 } });
    files = mkdtempSync(join(tmpdir(), 'station-upload-files-'));
  });

  afterAll(async () => {
    await sandbox.close();
    for (const folder of [files, ...folders]) rmSync(folder, { recursive: true, force: true });
  });

  const folder = async (name: string) => {
    const dataDir = await stationFolder(sandbox, name);
    folders.push(dataDir);
    return (...argv: string[]) => runCliIn(dataDir, { keyStore: memoryKeyStore({ test: stationKeys(sandbox) }) }, argv);
  };

  it('uploads 1,000 rows with 37 bad ones: preview, progress, Completed with errors, the report; the same file again creates 0; the corrected failures sheet creates exactly the 37', async () => {
    const cli = await folder('e2e');
    const { rows, badAt } = uploadRows('E2E', 1000, 37, LOCATION, OTHER_COMPANY_LOCATION);
    const outOfArea = [...badAt.values()].filter((kind) => kind === 'out of area').length;
    const file = join(files, 'orders.xlsx');
    await writeXlsx(file, rows);

    const first = await cli('upload', file, '--location', LOCATION, '--report', join(files, 'first.xlsx'));
    // Rows out of the delivery area pass the local checks; only the service can refuse them.
    expect(first.stdout).toContain(`orders.xlsx: 1000 rows — ${1000 - 37 + outOfArea} ready, ${37 - outOfArea} with errors, 0 skipped; 1 batch of at most 1,000.`);
    expect(first.stdout).toMatch(/row \d+ \(E2E-\d+\): deliveryCountry should be a two-letter country code such as NL \(got "NLD"\)/);
    expect(first.stdout).toMatch(/row \d+ \(E2E-\d+\): locationId is not one of the locations of this upload \(got "1201"\)/);
    const progress = first.stderr.split('\n').filter((line) => new RegExp(`processed \\d+/${1000 - 37 + outOfArea}, successful`).test(line));
    expect(progress.length).toBeGreaterThan(1);
    expect(first.stdout).toContain('Completed with errors: 963 created, 37 failed');
    expect(first.code).toBe(1);

    const report = await readReport(join(files, 'first.xlsx'));
    const successful = report.get('Successful Orders')!;
    const failed = report.get('Failed Orders')!;
    expect(successful.columns.slice(-4)).toEqual(['orderId', 'barcode', 'trackingUrl', 'bundle']);
    expect(successful.rows).toHaveLength(963);
    expect(failed.rows).toHaveLength(37);
    expect(failed.columns.at(-1)).toBe('reason');
    expect(failed.rows.every((row) => row.reason!.length > 10)).toBe(true);
    expect(failed.rows.filter((row) => row.reason!.includes('the service refused the order'))).toHaveLength(outOfArea);
    const badRefs = new Set([...badAt.keys()].map((index) => rows[index]!.orderRef));
    expect(new Set(failed.rows.map((row) => row.orderRef))).toEqual(badRefs);

    let atService = await sandboxOrdersByRef(sandbox, 'E2E');
    expect(atService.size).toBe(963);
    for (const row of successful.rows) expect(atService.get(row.orderRef!)).toEqual([row.orderId]);

    // The same file again: every created row is skipped, and the service creates nothing new.
    const again = await cli('upload', file, '--location', LOCATION, '--report', join(files, 'again.xlsx'));
    expect(again.stdout).toContain(`orders.xlsx: 1000 rows — ${outOfArea} ready, ${37 - outOfArea} with errors, 963 skipped;`);
    expect(again.stdout).toContain('skipped: 963 already created, 0 sent before with an unknown outcome, 0 repeated in this file');
    expect(again.stdout).toContain('0 created');
    atService = await sandboxOrdersByRef(sandbox, 'E2E');
    expect(atService.size).toBe(963);
    expect([...atService.values()].every((ids) => ids.length === 1)).toBe(true);

    // The failures sheet, corrected by a lead in place and uploaded as it is.
    const kindOf = new Map([...badAt].map(([index, kind]) => [rows[index]!.orderRef, kind]));
    const corrected = failed.rows.map((row) => correct(row, kindOf.get(row.orderRef!)!));
    const correctedFile = join(files, 'corrected.xlsx');
    await writeXlsx(correctedFile, corrected, failed.columns);
    const fixed = await cli('upload', correctedFile, '--location', LOCATION, '--report', join(files, 'fixed.xlsx'));
    expect(fixed.stdout).toContain('corrected.xlsx: 37 rows — 37 ready, 0 with errors, 0 skipped;');
    expect(fixed.stdout).toContain('Completed: 37 created, 0 failed');
    expect(fixed.code).toBe(0);
    atService = await sandboxOrdersByRef(sandbox, 'E2E');
    expect(atService.size).toBe(1000);
    expect([...atService.values()].every((ids) => ids.length === 1)).toBe(true);
  }, 240_000);

  it('gives the same result for the same rows as .csv and as .xls (second worksheet not read)', async () => {
    const { rows } = uploadRows('FMT', 120, 16, LOCATION, OTHER_COMPANY_LOCATION);
    // A row repeated word for word is skipped; a row repeating an orderRef with other contents is an error.
    const withRepeats = [...rows, rows[4]!, { ...rows[5]!, deliveryCity: 'Haarlem' }];
    const outcomes: Map<string, string>[] = [];
    for (const [format, write] of [
      ['csv', writeCsv],
      ['xls', writeXls],
    ] as const) {
      await controlCall(sandbox, '/reset', { method: 'POST', body: {} });
      const cli = await folder(format);
      const file = join(files, `same-rows.${format}`);
      write(file, withRepeats);
      const report = join(files, `same-rows-${format}.xlsx`);
      const result = await cli('upload', file, '--location', LOCATION, '--report', report);
      expect(result.stdout).toContain(`same-rows.${format}: 122 rows — 106 ready, 15 with errors, 1 skipped;`);
      expect(result.stdout).toContain('Completed with errors: 104 created, 17 failed');
      expect((await sandboxOrdersByRef(sandbox, 'FMT')).size).toBe(104);
      const sheets = await readReport(report);
      const outcome = new Map<string, string>();
      for (const row of sheets.get('Successful Orders')!.rows) outcome.set(row.orderRef!, 'created');
      for (const row of sheets.get('Failed Orders')!.rows) outcome.set(`${row.orderRef!} ${row.deliveryCity}`, row.reason!);
      for (const row of sheets.get('Skipped Rows')!.rows) outcome.set(`skipped ${row.orderRef!}`, row.reason!);
      outcomes.push(outcome);
    }
    expect(outcomes[0]!.size).toBe(122);
    expect([...outcomes[1]!]).toEqual([...outcomes[0]!]);
  }, 120_000);
});

/** What a lead types into the failures sheet to correct each kind of bad row. */
function correct(row: Record<string, string>, kind: BadKind): Record<string, string> {
  switch (kind) {
    case 'missing street':
      return { ...row, deliveryStreet: 'Damrak' };
    case 'country':
      return { ...row, deliveryCountry: 'NL' };
    case 'postal code':
    case 'out of area':
      return { ...row, deliveryPostalCode: '1012 LH', deliveryCity: 'Amsterdam' };
    case 'date':
      return { ...row, deliveryDate: '2026-12-25' };
    case 'dimensions order':
      return { ...row, length: '300', width: '200', height: '100' };
    case 'weight':
      return { ...row, weight: '1500' };
    case 'other location':
      return { ...row, locationId: LOCATION };
  }
}
