/**
 * Orders to ship from the shop's export, through the station's contract: an XLSX workbook (first
 * worksheet only) and the row rules (required columns, yes/no, decimal commas, sorted dimensions,
 * an orderRef twice in one file), each rejected row with its reason.
 */
import ExcelJS from 'exceljs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallOutput } from '../../../src/shared/contract';
import { createTestStation, type TestStation } from '../../support/station';

describe('importing orders to ship', () => {
  let test: TestStation;
  const call = async <K extends 'shipping.import' | 'shipping.toShip'>(name: K, input: unknown): Promise<CallOutput<K>> => {
    const result = await test.station.dispatcher.dispatch(name, input, { host: 'web' });
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value as CallOutput<K>;
  };

  beforeEach(async () => {
    test = await createTestStation();
  });
  afterEach(async () => {
    await test.dispose();
  });

  it('reads the first worksheet of an XLSX export and reports every rejected row with its reason', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Orders');
    sheet.addRow(['orderRef', 'locationId', 'deliveryStreet', 'deliveryNumber', 'deliveryPostalCode', 'deliveryCity', 'deliveryCountry', 'signature', 'weight', 'length', 'width', 'height', 'parcels', 'deliveryName']);
    sheet.addRow(['XL-1', '1101', 'Damrak', '20', '1012 LH', 'Amsterdam', 'nl', 'ja', '1250,5', '10', '30', '20', '2', 'Eva de Boer']);
    sheet.addRow(['XL-2', '1101', 'Damrak', '', '1012 LH', 'Amsterdam', 'NL', 'maybe', '', '', '', '', '', '']);
    sheet.addRow(['XL-1', '1101', 'Rokin', '5', '1012 KK', 'Amsterdam', 'NL', '', '', '', '', '', '', 'Eva de Boer']);
    workbook.addWorksheet('Notes').addRow(['orderRef', 'ignored']);
    const path = join(test.dataDir, 'export.xlsx');
    await workbook.xlsx.writeFile(path);

    const report = await call('shipping.import', { source: { kind: 'picked', handle: test.station.services.pickedFiles.register(path) } });
    expect(report).toMatchObject({ newRows: 1, updatedRows: 0, rejectedRows: 2 });
    expect(report.rows.map((row) => [row.row, row.orderRef, row.outcome])).toEqual([
      [2, 'XL-1', 'new'],
      [3, 'XL-2', 'rejected'],
      [4, 'XL-1', 'rejected'],
    ]);
    expect(report.rows[1]!.reason).toContain('deliveryNumber is missing');
    expect(report.rows[1]!.reason).toContain('signature should be yes/no');
    // No recipient's name: the service would refuse the order at the bench, so the import refuses the row.
    expect(report.rows[1]!.reason).toContain('deliveryName is missing');
    expect(report.rows[2]!.reason).toBe('orderRef XL-1 is already on row 2 of this file');

    const shipment = await call('shipping.toShip', { orderRef: 'XL-1' });
    expect(shipment).toMatchObject({ signature: true, weight: 1250.5, parcels: 2, dimensions: { length: 30, width: 20, height: 10 }, address: { countryCode: 'NL' } });
  });

  it('refuses a file that lacks a required column, naming it', async () => {
    const path = join(test.dataDir, 'short.csv');
    writeFileSync(path, 'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity\nA,1101,Damrak,1,1012LH,Amsterdam\n');
    const result = await test.station.dispatcher.dispatch('shipping.import', { source: { kind: 'picked', handle: test.station.services.pickedFiles.register(path) } }, { host: 'web' });
    expect(result).toMatchObject({ ok: false, error: { code: 'IMPORT_FAILED' } });
    expect(result.ok ? '' : result.error.message).toContain('lacks the column deliveryCountry');
  });
});
