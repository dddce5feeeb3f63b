/**
 * The spreadsheet uploads' tables on both engines: an upload stored whole (rows inserted in
 * several statements), counts per batch, the preview's rows, rows settled only from ready (a
 * cancelled row only by a POST's answer), the ledger and the row settled in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreationLedger } from '../../../src/main/shipping/creation-ledger';
import { UploadStore, type StoredUploadRow } from '../../../src/main/shipping/upload-store';
import { engineFactories, type EngineUnderTest } from './engines';

const request = (orderRef: string) => ({
  locationId: '1101',
  orderRef,
  deliveryName: 'Eva de Boer',
  deliveryAddress: { street: 'Damrak', houseNumber: '1', postalCode: '1012 LG', city: 'Amsterdam', countryCode: 'NL' },
});

function rowsOf(count: number, prefix: string): StoredUploadRow[] {
  return Array.from({ length: count }, (_, index) => {
    const orderRef = `${prefix}-${index + 1}`;
    const invalid = (index + 1) % 10 === 0;
    return {
      row: index + 2,
      batch: Math.floor(index / 250) + 1,
      orderRef,
      locationId: '1101',
      cells: { orderRef, deliveryCity: 'Amsterdam' },
      request: invalid ? null : request(orderRef),
      state: invalid ? 'invalid' : 'ready',
      problems: invalid ? [{ code: 'missing', column: 'deliveryStreet' }] : [],
      skip: null,
      orderId: null,
      barcode: null,
      trackingUrl: null,
      bundleId: null,
    };
  });
}

describe.each(engineFactories)('the upload store: $name', (factory) => {
  let store: EngineUnderTest;
  let uploads: UploadStore;
  let clockMs = Date.parse('2026-11-24T06:00:00.000Z');

  beforeAll(async () => {
    store = await factory.open();
    uploads = new UploadStore(store.engine, () => new Date((clockMs += 1000)));
  });
  afterAll(async () => {
    await store?.dispose();
  });

  const newUpload = async (rows: number) => {
    const id = randomUUID();
    const prefix = `UP-${id.slice(0, 8)}`;
    await uploads.create({ id, environment: 'test', fileName: 'orders.csv', columns: ['orderRef', 'deliveryCity'], locations: ['1101'], state: 'previewed' }, rowsOf(rows, prefix));
    return { id, prefix };
  };

  it('stores an upload of 520 rows whole and reads every row back in file order, with counts per batch', async () => {
    const { id, prefix } = await newUpload(520);
    expect(await uploads.get(id)).toMatchObject({ id, environment: 'test', fileName: 'orders.csv', columns: ['orderRef', 'deliveryCity'], locations: ['1101'], state: 'previewed' });
    const rows = await uploads.rows(id);
    expect(rows).toHaveLength(520);
    expect(rows[0]).toEqual(rowsOf(1, prefix)[0]);
    expect(rows.map((row) => row.row)).toEqual(Array.from({ length: 520 }, (_, index) => index + 2));
    const counts = await uploads.counts(id);
    expect(counts.get(0)).toMatchObject({ firstRow: 2, lastRow: 521, counts: { total: 520, ready: 468, invalid: 52 } });
    expect([...counts.keys()].sort()).toEqual([0, 1, 2, 3]);
    expect(counts.get(3)).toMatchObject({ firstRow: 502, lastRow: 521, counts: { total: 20, ready: 18, invalid: 2 } });
    const preview = await uploads.notReady(id, 5);
    expect(preview.total).toBe(52);
    expect(preview.rows.map((row) => row.row)).toEqual([11, 21, 31, 41, 51]);
    expect(await uploads.rows(id, { state: 'ready', batch: 2, limit: 3 })).toHaveLength(3);
  });

  it('stores nothing of an upload whose rows cannot all be stored', async () => {
    const id = randomUUID();
    const rows = rowsOf(3, `UP-${id.slice(0, 8)}`);
    rows[2]!.row = rows[1]!.row; // the same row twice: the primary key refuses it
    await expect(uploads.create({ id, environment: 'test', fileName: 'bad.csv', columns: [], locations: [], state: 'previewed' }, rows)).rejects.toMatchObject({ code: 'STORE_CONFLICT' });
    expect(await uploads.get(id)).toBeNull();
  });

  it('settles a row only from ready; a cancelled row only by the answer to a POST that was sent', async () => {
    const { id } = await newUpload(3);
    expect(await uploads.settle(id, 2, { state: 'skipped', skip: { code: 'unknown-before' } })).toBe(true);
    expect(await uploads.settle(id, 2, { state: 'created', orderId: 'o-late' }, true)).toBe(false);
    expect(await uploads.cancelReady(id)).toBe(2);
    expect(await uploads.settle(id, 3, { state: 'created', orderId: 'o-3' })).toBe(false);
    expect(await uploads.settle(id, 3, { state: 'created', orderId: 'o-3', barcode: 'DT3', trackingUrl: 'https://t/3', bundleId: 'B3' }, true)).toBe(true);
    const rows = await uploads.rows(id);
    expect(rows.map((row) => row.state)).toEqual(['skipped', 'created', 'cancelled']);
    expect(rows[1]).toMatchObject({ orderId: 'o-3', barcode: 'DT3', trackingUrl: 'https://t/3', bundleId: 'B3' });
    expect(rows[2]!.problems).toEqual([{ code: 'cancelled' }]);
    expect(await uploads.skipReasons(id)).toEqual({ 'created-before': 0, 'unknown-before': 1, 'in-progress': 0, 'repeated-in-file': 0 });
  });

  it('lets the answer to a sent POST override "in progress", which another bench running the upload marked, and reopens a row whose POST created nothing', async () => {
    const { id } = await newUpload(4);
    // Another bench's runner lost the claims of rows 2 to 4 to this one while their POSTs were in flight.
    for (const row of [2, 3, 4]) expect(await uploads.settle(id, row, { state: 'skipped', skip: { code: 'in-progress' } })).toBe(true);
    expect(await uploads.settle(id, 2, { state: 'created', orderId: 'o-2' })).toBe(false);
    expect(await uploads.settle(id, 2, { state: 'created', orderId: 'o-2' }, true)).toBe(true);
    // Row 3's POST got a 429: nothing was created, so it is to be sent again.
    await uploads.reopen(id, 3);
    // Row 5 was skipped for another reason: no answer changes it, and it is not reopened.
    expect(await uploads.settle(id, 5, { state: 'skipped', skip: { code: 'created-before', orderId: 'o-old' } })).toBe(true);
    expect(await uploads.settle(id, 5, { state: 'created', orderId: 'o-5' }, true)).toBe(false);
    await uploads.reopen(id, 5);
    expect((await uploads.rows(id)).map((row) => [row.row, row.state, row.skip?.code ?? null])).toEqual([
      [2, 'created', null],
      [3, 'ready', null],
      [4, 'skipped', 'in-progress'],
      [5, 'skipped', 'created-before'],
    ]);
  });

  it('moves an upload\'s state only from the states given, and lists the latest first', async () => {
    const { id } = await newUpload(1);
    expect(await uploads.setState(id, 'finished', ['running'])).toBe(false);
    expect(await uploads.setState(id, 'running')).toBe(true);
    expect(await uploads.setState(id, 'paused', ['running', 'previewed'])).toBe(true);
    expect(await uploads.stateOf(id)).toBe('paused');
    await uploads.setPrinting(id, 'zebra-1', 'run-1');
    await uploads.setPrinting(id, 'zebra-2', null);
    expect(await uploads.get(id)).toMatchObject({ printerId: 'zebra-2', printRunId: 'run-1' });
    const later = await newUpload(1);
    expect((await uploads.latest('test', 2)).map((record) => record.id)).toEqual([later.id, id]);
  });

  it('writes the ledger\'s outcome and the row\'s in one transaction: both or neither', async () => {
    const { id, prefix } = await newUpload(2);
    const ledger = new CreationLedger(store.engine, { bench: 'bench-a', process: 'a-1' });
    expect(await ledger.claim('test', `${prefix}-1`, 1, 1)).toBe(true);
    await expect(
      uploads.transaction(async (tx) => {
        await ledger.markCreated('test', `${prefix}-1`, 1, { orderId: 'o-1', barcode: null, bundleId: null }, tx);
        await uploads.settle(id, 2, { state: 'created', orderId: 'o-1' }, true, tx);
        throw new Error('the disk is full');
      }),
    ).rejects.toThrow('the disk is full');
    expect((await ledger.entry('test', `${prefix}-1`, 1))?.state).toBe('posting');
    expect((await uploads.rows(id))[0]!.state).toBe('ready');
    await uploads.transaction(async (tx) => {
      await ledger.markCreated('test', `${prefix}-1`, 1, { orderId: 'o-1', barcode: null, bundleId: null }, tx);
      await uploads.settle(id, 2, { state: 'created', orderId: 'o-1' }, true, tx);
    });
    expect((await ledger.entry('test', `${prefix}-1`, 1))?.state).toBe('created');
    expect(await uploads.createdLocations('test', [`${prefix}-1`, `${prefix}-2`])).toEqual(new Map([[`${prefix}-1`, '1101']]));
  });
});
