/**
 * The creation ledger on both engines (SQLite on a file, PostgreSQL on the run's private server):
 * one winner per parcel across benches, the settled states, webhook and lead settlements, and
 * which interrupted parcels a starting bench turns unknown.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreationLedger, serviceRefFor } from '../../../src/main/shipping/creation-ledger';
import type { StoreEngine } from '../../../src/main/store/engine/store-engine';
import { engineFactories, type EngineUnderTest } from './engines';

const ref = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

describe.each(engineFactories)('the creation ledger: $name', (factory) => {
  let store: EngineUnderTest;
  let otherBenchStore: StoreEngine;
  /** Bench A's running process. */
  let benchA: CreationLedger;
  /** Another bench of the warehouse (its own engine, its own connections on PostgreSQL). */
  let benchB: CreationLedger;

  beforeAll(async () => {
    store = await factory.open();
    otherBenchStore = await store.another();
    benchA = new CreationLedger(store.engine, { bench: 'bench-a', process: 'a-1' });
    benchB = new CreationLedger(otherBenchStore, { bench: 'bench-b', process: 'b-1' });
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('gives each parcel its own service orderRef, the first parcel the shop\'s own', () => {
    expect([1, 2, 3].map((parcel) => serviceRefFor('NW-1', parcel))).toEqual(['NW-1', 'NW-1-P2', 'NW-1-P3']);
  });

  it('lets exactly one of two benches claiming at the same moment take each parcel, also when both write its new row at once', async () => {
    // Many parcels at once, so that the two benches' first writes of a new row really overlap.
    const parcels = Array.from({ length: 40 }, (_, index) => index + 1);
    for (const orderRef of [ref('NW-RACE'), ref('NW-RACE'), ref('NW-RACE'), ref('NW-RACE')]) {
      const claims = await Promise.all(parcels.flatMap((parcel) => [benchA.claim('test', orderRef, parcel, 40), benchB.claim('test', orderRef, parcel, 40)]));
      for (const parcel of parcels) {
        const [a, b] = [claims[(parcel - 1) * 2], claims[(parcel - 1) * 2 + 1]];
        expect([a, b].filter(Boolean), `${orderRef} parcel ${parcel}`).toHaveLength(1);
      }
      expect((await benchA.parcels('test', orderRef)).map((entry) => entry.state)).toEqual(parcels.map(() => 'posting'));
    }
  });

  it('never lets an unknown or created parcel be taken again, but a rejected one may be', async () => {
    const orderRef = ref('NW-SETTLED');
    const settle = [
      () => benchA.markUnknown('test', orderRef, 1, 'timed out'),
      () => benchA.markCreated('test', orderRef, 2, { orderId: 'o-2', barcode: 'DT2', bundleId: 'B' }),
      () => benchA.markRejected('test', orderRef, 3, 'HTTP 400'),
    ];
    for (const [index, done] of settle.entries()) {
      expect(await benchA.claim('test', orderRef, index + 1, 3)).toBe(true);
      await done();
    }
    expect((await benchA.parcels('test', orderRef)).map((entry) => entry.state)).toEqual(['unknown', 'created', 'rejected']);
    const again = [];
    for (const parcel of [1, 2, 3]) again.push(await benchB.claim('test', orderRef, parcel, 3));
    expect(again).toEqual([false, false, true]);
  });

  it('settles an unknown parcel from a status event carrying its orderRef, once, inside a given transaction, and ignores other environments', async () => {
    const orderRef = ref('NW-EVENT');
    await benchA.claim('test', orderRef, 2, 2);
    await benchA.markUnknown('test', orderRef, 2, 'connection dropped');
    const serviceRef = serviceRefFor(orderRef, 2);
    expect(await benchA.resolveFromEvent('live', serviceRef, { orderId: 'o-9', barcode: null, bundleId: null })).toBeNull();
    // Rolled back with the intake's transaction: not settled.
    await expect(
      store.engine.transaction(async (tx) => {
        await benchA.resolveFromEvent('test', serviceRef, { orderId: 'o-x', barcode: null, bundleId: null }, tx);
        throw new Error('the intake failed');
      }),
    ).rejects.toThrow('the intake failed');
    expect((await benchA.entry('test', orderRef, 2))?.state).toBe('unknown');
    const settled = await store.engine.transaction((tx) => benchA.resolveFromEvent('test', serviceRef, { orderId: 'o-3', barcode: 'DT3', bundleId: 'B3' }, tx));
    expect(settled).toMatchObject({ state: 'created', orderId: 'o-3', barcode: 'DT3' });
    expect(await benchB.resolveFromEvent('test', serviceRef, { orderId: 'o-other', barcode: null, bundleId: null })).toBeNull();
    expect((await benchB.entry('test', orderRef, 2))?.orderId).toBe('o-3');
  });

  it('records a lead\'s decision with name and reason, and refuses one without them or for a parcel that is not unknown', async () => {
    const orderRef = ref('NW-DECIDE');
    await benchA.claim('test', orderRef, 1, 1);
    await expect(benchA.decide('test', orderRef, 1, { exists: false }, { operator: 'Lea', reason: 'not in the dashboard' })).rejects.toThrow(/posting, not unknown/);
    await benchA.markUnknown('test', orderRef, 1, 'timed out');
    await expect(benchA.decide('test', orderRef, 1, { exists: false }, { operator: ' ', reason: 'x' })).rejects.toThrow(/name and a reason/);
    const decided = await benchA.decide('test', orderRef, 1, { exists: false }, { operator: 'Lea', reason: 'not in the dashboard' });
    expect(decided).toMatchObject({ state: 'rejected', decidedBy: 'Lea', reason: 'Decided by Lea: not in the dashboard' });
    expect(await benchB.claim('test', orderRef, 1, 1)).toBe(true);
    const other = ref('NW-DECIDE-EXISTS');
    await benchB.claim('test', other, 1, 1);
    await benchB.markUnknown('test', other, 1, 'timed out');
    expect(await benchA.decide('test', other, 1, { exists: true, orderId: 'o-found' }, { operator: 'Lea', reason: 'in the dashboard' })).toMatchObject({
      state: 'created',
      orderId: 'o-found',
    });
    expect((await benchA.unknown('test')).map((entry) => entry.orderRef)).not.toContain(other);
  });

  it('at start turns only this bench\'s own parcels left posting into unknown: another bench\'s POST in flight is left alone', async () => {
    const inFlightAtB = ref('NW-B-FLIGHT');
    const leftByA = ref('NW-A-LEFT');
    const beforeBenchIds = ref('NW-OLD');
    await benchB.claim('test', inFlightAtB, 1, 1);
    await benchA.claim('test', leftByA, 1, 1);
    await benchA.claim('test', beforeBenchIds, 1, 1);
    // A row written before benches had an id (migration 11): only a station that had the file to itself wrote it.
    await store.engine.execute('UPDATE creation_ledger SET bench = NULL, owner = $1 WHERE environment = $2 AND order_ref = $3', ['1234-1700000000000', 'test', beforeBenchIds]);

    // Bench A's process still runs: a second process of bench B starts.
    const benchBRestarted = new CreationLedger(otherBenchStore, { bench: 'bench-b', process: 'b-2' });
    await benchBRestarted.recoverInterrupted();
    expect((await benchA.entry('test', leftByA, 1))?.state).toBe('posting');
    expect((await benchA.entry('test', inFlightAtB, 1))?.state).toBe('unknown');
    expect((await benchA.entry('test', beforeBenchIds, 1))?.state).toBe('unknown');

    // Bench A restarts: its own parcel left posting by its earlier process is now unknown.
    const benchARestarted = new CreationLedger(store.engine, { bench: 'bench-a', process: 'a-2' });
    await benchARestarted.recoverInterrupted();
    expect(await benchA.entry('test', leftByA, 1)).toMatchObject({ state: 'unknown', reason: expect.stringContaining('may exist at the service') as unknown });
    // The earlier process's answer still lands: its order was created after all.
    await benchA.markCreated('test', leftByA, 1, { orderId: 'o-5', barcode: null, bundleId: null });
    expect((await benchB.entry('test', leftByA, 1))?.state).toBe('created');
  });

  it('leaves a running process\'s own parcel posting when it recovers (only earlier processes are interrupted)', async () => {
    const orderRef = ref('NW-MINE');
    await benchA.claim('test', orderRef, 1, 1);
    await benchA.recoverInterrupted();
    expect((await benchA.entry('test', orderRef, 1))?.state).toBe('posting');
    await benchA.markCreated('test', orderRef, 1, { orderId: 'o-mine', barcode: null, bundleId: null });
  });
});
