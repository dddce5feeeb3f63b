import ExcelJS from 'exceljs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallOutput } from '../../../src/shared/contract';
import { createTestStation, type TestStation } from '../../support/station';

let test: TestStation;
const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });
/** A file as the desktop app's dialog would hand it over: a single-use handle, never a path. */
const picked = (path: string) => ({ kind: 'picked', handle: test.station.services.pickedFiles.register(path) });

beforeEach(async () => {
  test = await createTestStation();
  // The test environment: the sandbox environment would bring the embedded sandbox's own orders.
  await call('settings.set', { environment: 'test' });
});
afterEach(async () => {
  await test.dispose();
});

const csv = (lines: string[]) => `${lines.join('\r\n')}\r\n`;

async function xlsxBytes(sheets: { name: string; rows: unknown[][] }[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name);
    for (const row of sheet.rows) worksheet.addRow(row);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('manifest import through the contract', () => {
  it('imports the good rows of a CSV, reports each bad row with its row number and why, and makes the orders scannable', async () => {
    const path = join(test.dataDir, 'manifest.csv');
    writeFileSync(
      path,
      csv([
        'orderId,orderRef,barcode,bundleId,deliveryName,status',
        'ORD-1,REF-1,3SPARCEL0001,BUN-A,Anna de Vries,draft',
        ',REF-2,3SPARCEL0002,BUN-A,Bram,draft',
        'ORD-3,REF-3,3SPARCEL0003,BUN-A,Cas,sideways',
        'ORD-4,REF-4,3SPAR\x07CEL0004,,Daan,',
        'ORD-5,REF-5,3SPARCEL0005,BUN-B,Eva,In Transit',
      ]),
    );
    const result = await call('imports.manifest', { source: picked(path) });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const report = result.value as CallOutput<'imports.manifest'>;
    expect(report).toMatchObject({
      fileName: 'manifest.csv',
      format: 'csv',
      environment: 'test',
      rowsRead: 5,
      inserted: 2,
      updated: 0,
      failed: 3,
      errorsTruncated: false,
      columns: { orderId: 'orderId', orderRef: 'orderRef', barcode: 'barcode', bundleId: 'bundleId', recipient: 'deliveryName', status: 'status' },
    });
    expect(report.errors).toEqual([
      { row: 3, message: 'orderId is empty', problem: 'empty', facts: { field: 'orderId' } },
      { row: 4, message: 'status "sideways" is not one of the Delivery API\'s statuses', problem: 'unknown-status', facts: { value: 'sideways' } },
      { row: 5, message: expect.stringMatching(/^barcode cannot be scanned: .*U\+0007/), problem: 'not-scannable', facts: { field: 'barcode', reason: 'control-character' } },
    ]);

    for (const scan of ['REF-1', '3SPARCEL0001', 'ORD-1', ' ]C1REF-1\r\n']) {
      const lookup = await call('orders.lookup', { scan, remote: false });
      expect(lookup, scan).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-1', orderRef: 'REF-1', bundleId: 'BUN-A', recipient: 'Anna de Vries', status: 'draft', source: 'import' } } });
    }
    const transit = await call('orders.lookup', { scan: 'REF-5', remote: false });
    expect(transit).toMatchObject({ ok: true, value: { order: { status: 'in_transit' }, matchedBy: ['orderRef'], printable: { allowed: true, message: null } } });
    // A Caps-Lock scan finds the one order whose reference differs only in case; an unknown one stays unknown.
    expect(await call('orders.lookup', { scan: 'ref-1', remote: false })).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-1', orderRef: 'REF-1' } } });
    expect(await call('orders.lookup', { scan: 'ref-99', remote: false })).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
  });

  it('updates rather than duplicates on a second import of the same file, and keeps statuses moving forwards', async () => {
    const path = join(test.dataDir, 'manifest.csv');
    writeFileSync(path, csv(['orderId,orderRef,status', 'ORD-1,REF-1,in_transit', 'ORD-2,REF-2,draft']));
    await call('imports.manifest', { source: picked(path) });
    writeFileSync(path, csv(['orderId,orderRef,status,barcode', 'ORD-1,REF-1,draft,BC-1', 'ORD-2,REF-2,expected,BC-2']));
    const again = await call('imports.manifest', { source: picked(path) });
    expect(again).toMatchObject({ ok: true, value: { inserted: 0, updated: 2, failed: 0 } });
    expect(await call('orders.count', {})).toEqual({ ok: true, value: { environment: 'test', orders: 2 } });
    // ORD-1 stays in transit (an older snapshot does not move it back) but learns its barcode.
    expect(await call('orders.lookup', { scan: 'BC-1', remote: false })).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-1', status: 'in_transit' } } });
    expect(await call('orders.lookup', { scan: 'BC-2', remote: false })).toMatchObject({ ok: true, value: { order: { status: 'expected' } } });
  });

  it('imports XLSX content sent as base64 from the first worksheet only, with progress events for its import id', async () => {
    const rows: unknown[][] = [['Order ID', 'Order reference', 'Barcode', 'Bundle']];
    for (let n = 1; n <= 5000; n += 1) rows.push([`ORD-${n}`, `REF-${n}`, 3_000_000 + n, `BUN-${Math.ceil(n / 10)}`]);
    const bytes = await xlsxBytes([
      { name: 'Orders', rows },
      { name: 'Notes', rows: [['orderId'], ['NOT-AN-ORDER']] },
    ]);
    const progress: unknown[] = [];
    test.station.events.subscribe((name, payload) => {
      if (name === 'imports.progress') progress.push(payload);
    });
    const result = await call('imports.manifest', { source: { kind: 'content', fileName: 'today.xlsx', base64: bytes.toString('base64') }, importId: 'shift-start-1' });
    expect(result).toMatchObject({ ok: true, value: { importId: 'shift-start-1', format: 'xlsx', rowsRead: 5000, inserted: 5000, failed: 0 } });
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toMatchObject({ importId: 'shift-start-1', rowsRead: 5000, inserted: 5000, done: true });
    expect(progress.every((event) => (event as { importId: string }).importId === 'shift-start-1')).toBe(true);
    expect(await call('orders.lookup', { scan: '3004321', remote: false })).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-4321', bundleId: 'BUN-433' } } });
    expect(await call('orders.lookup', { scan: 'NOT-AN-ORDER', remote: false })).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
  });

  it('reads semicolon CSV with a byte order mark and an explicit column mapping', async () => {
    const content = `\uFEFF${csv(['Zending;Klantreferentie;Pakket', 'Z-1;K-1;P-1', 'Z-2;K-2;P-2'])}`;
    const result = await call('imports.manifest', {
      source: { kind: 'content', fileName: 'export.csv', base64: Buffer.from(content).toString('base64') },
      mapping: { orderId: 'Zending', orderRef: 'Klantreferentie', barcode: 'Pakket' },
    });
    expect(result).toMatchObject({ ok: true, value: { inserted: 2, failed: 0, columns: { orderId: 'Zending', orderRef: 'Klantreferentie', barcode: 'Pakket', status: null } } });
    expect(await call('orders.lookup', { scan: 'P-2', remote: false })).toMatchObject({ ok: true, value: { order: { orderId: 'Z-2', orderRef: 'K-2' } } });
  });

  it('reports an order ref shared by two orders as ambiguous instead of guessing', async () => {
    const content = csv(['orderId,orderRef,barcode', 'ORD-1,REF-SAME,BC-1', 'ORD-2,REF-SAME,BC-2']);
    await call('imports.manifest', { source: { kind: 'content', fileName: 'm.csv', base64: Buffer.from(content).toString('base64') } });
    const result = await call('orders.lookup', { scan: 'REF-SAME' });
    expect(result).toMatchObject({ ok: false, error: { code: 'SCAN_AMBIGUOUS' } });
    if (!result.ok) expect(result.error.details).toEqual([expect.stringContaining('ORD-1'), expect.stringContaining('ORD-2')]);
    expect(await call('orders.lookup', { scan: 'BC-2' })).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-2' } } });
  });

  it('refuses a row whose barcode belongs to another order, known before or earlier in the file, and keeps that barcode’s scan to one order', async () => {
    const first = csv(['orderId,orderRef,barcode', 'ORD-1,REF-1,BC-TAKEN']);
    await call('imports.manifest', { source: { kind: 'content', fileName: 'first.csv', base64: Buffer.from(first).toString('base64') } });
    // Row 2: another order with ORD-1's barcode; row 3: ORD-1 itself again (its own barcode);
    // row 4 takes a new barcode, which row 5 (another order) then claims too.
    const second = csv(['orderId,orderRef,barcode', 'ORD-2,REF-2,BC-TAKEN', 'ORD-1,REF-1,BC-TAKEN', 'ORD-3,REF-3,BC-NEW', 'ORD-4,REF-4,BC-NEW', 'ORD-5,REF-5,BC-5']);
    const result = await call('imports.manifest', { source: { kind: 'content', fileName: 'second.csv', base64: Buffer.from(second).toString('base64') } });
    expect(result).toMatchObject({ ok: true, value: { rowsRead: 5, inserted: 2, updated: 1, failed: 2 } });
    if (!result.ok) return;
    const report = result.value as CallOutput<'imports.manifest'>;
    expect(report.errors).toEqual([
      { row: 2, problem: 'barcode-taken', facts: { barcode: 'BC-TAKEN', otherOrder: 'REF-1', otherOrderId: 'ORD-1' }, message: expect.stringContaining('already belongs to order REF-1') },
      { row: 5, problem: 'barcode-taken', facts: { barcode: 'BC-NEW', otherOrder: 'REF-3', otherOrderId: 'ORD-3' }, message: expect.stringContaining('already belongs to order REF-3') },
    ]);
    expect(await call('orders.lookup', { scan: 'BC-TAKEN', remote: false })).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-1' } } });
    expect(await call('orders.lookup', { scan: 'BC-NEW', remote: false })).toMatchObject({ ok: true, value: { order: { orderId: 'ORD-3' } } });
    expect(await call('orders.lookup', { scan: 'REF-2', remote: false })).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
  });

  it('refuses a cancelled order for printing, as the lookup says', async () => {
    const content = csv(['orderId,orderRef,status', 'ORD-9,REF-9,cancelled']);
    await call('imports.manifest', { source: { kind: 'content', fileName: 'm.csv', base64: Buffer.from(content).toString('base64') } });
    const result = await call('orders.lookup', { scan: 'REF-9' });
    expect(result).toMatchObject({ ok: true, value: { printable: { allowed: false, message: expect.stringContaining('cancelled') } } });
  });

  it('keeps each environment\'s orders to itself', async () => {
    const content = csv(['orderId,orderRef', 'ORD-1,REF-1']);
    await call('imports.manifest', { source: { kind: 'content', fileName: 'm.csv', base64: Buffer.from(content).toString('base64') } });
    await call('settings.set', { environment: 'live' });
    expect(await call('orders.lookup', { scan: 'REF-1', remote: false })).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
    expect(await call('orders.count', {})).toEqual({ ok: true, value: { environment: 'live', orders: 0 } });
  });

  it('refuses files it cannot read with a message that says what to do', async () => {
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(await call('imports.manifest', { source: { kind: 'content', fileName: 'old.xls', base64: xls.toString('base64') } })).toMatchObject({
      ok: false,
      error: { code: 'IMPORT_FAILED', message: expect.stringContaining('Save it as .xlsx or CSV') },
    });
    const noIds = Buffer.from(csv(['orderRef,deliveryStreet', 'R,S']));
    expect(await call('imports.manifest', { source: { kind: 'content', fileName: 'upload.csv', base64: noIds.toString('base64') } })).toMatchObject({
      ok: false,
      error: { code: 'IMPORT_FAILED', message: expect.stringContaining('no orderId column') },
    });
    expect(await call('imports.manifest', { source: picked(join(test.dataDir, 'missing.csv')) })).toMatchObject({
      ok: false,
      error: { code: 'IMPORT_FAILED', message: expect.stringContaining('could not be read'), facts: { subject: 'unreadable', file: 'missing.csv' } },
    });
    expect(await call('imports.manifest', { source: { kind: 'content', fileName: '../etc/passwd', base64: '' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await call('imports.manifest', { source: { kind: 'content', fileName: 'x.csv', base64: 'not base64!' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await call('imports.manifest', { source: { kind: 'content', fileName: 'x.csv', base64: Buffer.from('orderId\n').toString('base64') } })).toMatchObject({
      ok: true,
      value: { rowsRead: 0, inserted: 0 },
    });
  });
});
