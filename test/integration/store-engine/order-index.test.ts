/**
 * The order index on both engines (SQLite on a file, PostgreSQL on the run's private server):
 * resolving a scan, the forward-only upsert, identifier clashes, a lead's correction, the
 * manifest's batched upserts, and two benches writing the same orders at once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logging/logger';
import { createManifestImporter } from '../../../src/main/orders/manifest-import';
import { OrderIndex, type OrderFacts } from '../../../src/main/orders/order-index';
import { createOrderLookup } from '../../../src/main/orders/order-lookup';
import type { StoreEngine } from '../../../src/main/store/engine/store-engine';
import { engineFactories, type EngineUnderTest } from './engines';

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8).toUpperCase()}`;
const quiet = createLogger(() => undefined);

describe.each(engineFactories)('the order index: $name', (factory) => {
  let store: EngineUnderTest;
  let otherBench: StoreEngine;
  let now = new Date('2026-11-24T06:00:00.000Z');
  let index: OrderIndex;
  let otherIndex: OrderIndex;

  beforeAll(async () => {
    store = await factory.open();
    otherBench = await store.another();
    index = new OrderIndex(store.engine, () => now);
    otherIndex = new OrderIndex(otherBench, () => now);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('resolves a scan by order ref, barcode or order id, and a value matching two fields of one order matches it twice', async () => {
    const [id, ref, barcode] = [unique('ord'), unique('NW'), unique('3SPS')];
    await index.upsert('test', { orderId: id, orderRef: ref, barcode, bundleId: 'B-1', recipient: 'A. Jansen', status: 'draft' }, 'import');
    for (const [scan, field] of [[ref, 'orderRef'], [barcode, 'barcode'], [id, 'orderId']] as const) {
      const matches = await index.find('test', scan);
      expect(matches.map((match) => [match.order.orderId, match.matchedBy])).toEqual([[id, [field]]]);
    }
    expect((await index.find('test', id))[0]?.order).toMatchObject({ environment: 'test', orderRef: ref, barcode, bundleId: 'B-1', recipient: 'A. Jansen', status: 'draft', source: 'import', voided: null });
    expect(await index.find('live', ref)).toEqual([]);
    expect(await index.find('test', ref.toLowerCase())).toEqual([]);

    const same = unique('SAME');
    await index.upsert('test', { orderId: unique('ord'), orderRef: same, barcode: same }, 'import');
    expect((await index.find('test', same)).map((match) => match.matchedBy)).toEqual([['orderRef', 'barcode']]);
  });

  it('finds a scan in any of several spellings in one question, and every order a shared ref belongs to', async () => {
    const ref = unique('Nw');
    const [first, second] = [unique('ord'), unique('ord')];
    await index.upsert('test', { orderId: first, orderRef: ref.toUpperCase() }, 'import');
    await index.upsert('test', { orderId: second, barcode: ref.toLowerCase() }, 'import');
    const found = await index.findAny('test', [ref.toUpperCase(), ref.toLowerCase()]);
    expect(found.map((match) => [match.order.orderId, match.matchedBy]).sort()).toEqual([[first, ['orderRef']], [second, ['barcode']]].sort());
    expect(await index.findAny('test', [])).toEqual([]);
  });

  it('fills in identifiers, moves a status only forwards, and answers what became of each fact', async () => {
    const id = unique('ord');
    expect(await index.upsert('test', { orderId: ` ${id} `, status: 'draft', statusUpdatedAt: '2026-11-24T06:00:00.000Z' }, 'webhook')).toEqual({ change: 'inserted', status: 'applied' });
    now = new Date('2026-11-24T06:05:00.000Z');
    expect(await index.upsert('test', { orderId: id, orderRef: 'NW-FILL', status: 'in_transit', statusUpdatedAt: '2026-11-24T06:04:00.000Z' }, 'webhook')).toEqual({ change: 'updated', status: 'applied' });
    // An older event of a status further back is stale; the ref stays filled in.
    expect((await index.upsert('test', { orderId: id, status: 'expected', statusUpdatedAt: '2026-11-24T06:01:00.000Z' }, 'webhook')).status).not.toBe('applied');
    const order = await index.get('test', id);
    expect(order).toMatchObject({ orderRef: 'NW-FILL', status: 'in_transit', statusUpdatedAt: '2026-11-24T06:04:00.000Z', source: 'webhook', createdAt: '2026-11-24T06:00:00.000Z', updatedAt: '2026-11-24T06:05:00.000Z' });
    await expect(index.upsert('test', { orderId: '   ' }, 'import')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('reads a status this version does not know as unknown, not as an error', async () => {
    const id = unique('ord');
    await store.engine.execute(
      `INSERT INTO orders (environment, order_id, status, source, created_at, updated_at) VALUES ('test', $1, 'teleported', 'webhook', $2, $2)`,
      [id, now.toISOString()],
    );
    expect(await index.get('test', id)).toMatchObject({ orderId: id, status: null });
  });

  it('names each identifier a webhook would change, and each ref or barcode another order holds', async () => {
    const [id, other] = [unique('ord'), unique('ord')];
    const [ref, otherRef, barcode] = [unique('NW'), unique('NW'), unique('3SPS')];
    await index.upsert('test', { orderId: id, orderRef: ref, barcode, bundleId: 'B-7' }, 'import');
    await index.upsert('test', { orderId: other, orderRef: otherRef }, 'import');
    expect(await index.identifierClash('test', { orderId: id, orderRef: ref, barcode })).toEqual([]);
    expect(await index.identifierClash('test', { orderId: id, orderRef: otherRef, bundleId: 'B-8' })).toEqual([
      `its order ref would change from ${ref} to ${otherRef}`,
      'its bundle would change from B-7 to B-8',
      `its order ref ${otherRef} already belongs to order ${other}`,
    ]);
    expect(await index.identifierClash('test', { orderId: unique('ord'), barcode })).toEqual([`its barcode ${barcode} already belongs to order ${id}`]);
  });

  it('lets a lead correct exactly the fields given, and reseeds a status without the forward-only rule', async () => {
    const id = unique('ord');
    await index.upsert('test', { orderId: id, orderRef: 'NW-OLD', status: 'completed' }, 'import');
    expect(await index.correct('test', id, { orderRef: 'NW-NEW', status: 'draft', statusUpdatedAt: null })).toBe(true);
    expect(await index.get('test', id)).toMatchObject({ orderRef: 'NW-NEW', status: 'draft' });
    expect(await index.correct('test', unique('ord'), { status: 'draft' })).toBe(false);
    now = new Date('2026-11-25T07:00:00.000Z');
    await index.transaction((tx) => index.reseed(tx, 'test', id, 'cancelled'));
    expect(await index.get('test', id)).toMatchObject({ status: 'cancelled', statusUpdatedAt: null, createdAt: '2026-11-25T07:00:00.000Z' });
  });

  it('lists a bundle’s orders in the order they were learnt, reads many by id, and counts an environment', async () => {
    const bundle = unique('BND');
    const ids = [unique('ord'), unique('ord'), unique('ord')];
    const before = await index.count('sandbox');
    for (const [position, id] of ids.entries()) {
      now = new Date(Date.UTC(2026, 10, 26, 6, position));
      await index.upsert('sandbox', { orderId: id, bundleId: bundle }, 'import');
    }
    expect((await index.ordersInBundle('sandbox', bundle)).map((order) => order.orderId)).toEqual(ids);
    const many = await index.getMany('sandbox', [ids[2]!, 'nobody', ids[0]!, ids[2]!]);
    expect([...many.keys()].sort()).toEqual([ids[0], ids[2]].sort());
    expect(await index.count('sandbox')).toBe(before + 3);
  });

  it('writes a batch with one outcome per fact: new orders inserted once, repeats and known orders updated, in the order given', async () => {
    const [known, fresh] = [unique('ord'), unique('ord')];
    await index.upsert('test', { orderId: known, orderRef: 'NW-K', status: 'draft' }, 'import');
    const facts: OrderFacts[] = [
      { orderId: fresh, orderRef: 'NW-F', status: 'draft' },
      { orderId: known, barcode: 'BC-K', status: 'expected' },
      { orderId: fresh, barcode: 'BC-F', status: 'expected' },
    ];
    const outcome = await index.transaction((tx) => index.upsertBatch(tx, 'test', facts, 'import'));
    expect(outcome).toEqual({ inserted: 1, updated: 2 });
    expect(await index.get('test', fresh)).toMatchObject({ orderRef: 'NW-F', barcode: 'BC-F', status: 'expected' });
    expect(await index.get('test', known)).toMatchObject({ orderRef: 'NW-K', barcode: 'BC-K', status: 'expected' });
  });

  it('indexes each order once when two benches write the same orders at the same moment', async () => {
    const ids = Array.from({ length: 300 }, () => unique('race'));
    const facts = ids.map((orderId, n) => ({ orderId, orderRef: `REF-${orderId}`, status: n % 2 === 0 ? ('draft' as const) : ('expected' as const) }));
    // Uneven batches so the two benches' transactions overlap part-way.
    const write = (target: OrderIndex, size: number) => async () => {
      let inserted = 0;
      for (let start = 0; start < facts.length; start += size) {
        inserted += (await target.transaction((tx) => target.upsertBatch(tx, 'live', facts.slice(start, start + size), 'import'))).inserted;
      }
      return inserted;
    };
    const [a, b, single] = await Promise.all([write(index, 70)(), write(otherIndex, 45)(), Promise.all(ids.slice(0, 40).map((orderId) => otherIndex.upsert('live', { orderId, barcode: `BC-${orderId}` }, 'webhook')))]);
    const insertedBySingles = single.filter((outcome) => outcome.change === 'inserted').length;
    expect(a + b + insertedBySingles).toBe(ids.length);
    const rows = await index.getMany('live', ids);
    expect(rows.size).toBe(ids.length);
    for (const [n, orderId] of ids.entries()) expect(rows.get(orderId), orderId).toMatchObject({ orderRef: `REF-${orderId}`, status: n % 2 === 0 ? 'draft' : 'expected' });
    for (const orderId of ids.slice(0, 40)) expect(rows.get(orderId)?.barcode).toBe(`BC-${orderId}`);
  });

  it('two benches importing the same manifest at once end with each order once, and each bench scans what either imported', async () => {
    const environment = 'sandbox';
    const ids = Array.from({ length: 900 }, (_, n) => `IMP-${n}-${randomUUID().slice(0, 6).toUpperCase()}`);
    const manifest = Buffer.from(['orderId,orderRef,barcode,status', ...ids.map((id, n) => `${id},R-${id},B-${id},${n % 3 === 0 ? 'expected' : 'draft'}`)].join('\n'));
    const before = await index.count(environment);
    const importer = (engine: StoreEngine, target: OrderIndex, batchSize: number) => createManifestImporter({ engine, index: target, logger: quiet, batchSize });
    const [first, second] = await Promise.all([
      importer(store.engine, index, 200).import(environment, { kind: 'bytes', fileName: 'day.csv', bytes: manifest }),
      importer(otherBench, otherIndex, 130).import(environment, { kind: 'bytes', fileName: 'day.csv', bytes: manifest }),
    ]);
    expect([first.rowsRead, second.rowsRead, first.failed, second.failed]).toEqual([900, 900, 0, 0]);
    // Every order was inserted by exactly one of the two imports; the other updated it.
    expect(first.inserted + second.inserted).toBe(900);
    expect(first.inserted + first.updated + second.inserted + second.updated).toBe(1800);
    expect(await index.count(environment)).toBe(before + 900);

    // The other bench's scan of an order this bench's import brought in (and the other way round).
    const lookupAt = (target: OrderIndex) => createOrderLookup({ index: target, clientFor: () => Promise.reject(new Error('no service in this test')) });
    const scanned = await lookupAt(otherIndex).lookup(environment, `B-${ids[0]}`, { remote: false });
    expect(scanned).toMatchObject({ order: { orderId: ids[0], orderRef: `R-${ids[0]}`, status: 'expected' }, matchedBy: ['barcode'] });
    // A scanner typing with Caps Lock on: the case variants are asked in one question.
    expect((await lookupAt(index).lookup(environment, `R-${ids[1]}`.toLowerCase(), { remote: false })).order.orderId).toBe(ids[1]);
    const recent = await importer(otherBench, otherIndex, 200).recent(environment, 5);
    expect(recent.map((record) => [record.fileName, record.state])).toEqual([['day.csv', 'finished'], ['day.csv', 'finished']]);
  });
});
