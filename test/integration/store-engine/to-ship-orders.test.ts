/**
 * Orders to ship on both engines: saved, replaced (new or updated said), read back exactly, and a
 * CSV export imported into the store; on a shared store one bench's import serves every bench.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToShipOrders } from '../../../src/main/shipping/to-ship-orders';
import type { Shipment } from '../../../src/shared/contract/shipping';
import { engineFactories, type EngineUnderTest } from './engines';

const ref = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

const shipmentFor = (orderRef: string, city: string): Shipment => ({
  orderRef,
  locationId: '1101',
  recipient: { name: 'Eva de Boer', email: null, phone: null },
  address: { street: 'Keizersgracht', houseNumber: '100', suffix: '', postalCode: '1016 DK', city, countryCode: 'NL' },
  parcels: 2,
  pudoId: null,
  weight: 1200,
  dimensions: { length: 30, width: 20, height: 10 },
  signature: true,
  notAtNeighbour: false,
  deliveryNote: null,
  deliveryDate: null,
  name: null,
});

describe.each(engineFactories)('orders to ship: $name', (factory) => {
  let store: EngineUnderTest;
  let benchA: ToShipOrders;
  let benchB: ToShipOrders;

  beforeAll(async () => {
    store = await factory.open();
    benchA = new ToShipOrders(store.engine, () => new Date('2026-11-24T06:28:00.000Z'));
    benchB = new ToShipOrders(await store.another());
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('saves a shipment, says new then updated, and reads back the latest exactly (trimmed lookup, per environment)', async () => {
    const orderRef = ref('NW-SAVE');
    expect(await benchA.save('test', shipmentFor(orderRef, 'Amsterdm'), 'first.csv')).toBe('new');
    expect(await benchB.save('test', shipmentFor(orderRef, 'Amsterdam'), 'second.csv')).toBe('updated');
    expect(await benchA.get('test', `  ${orderRef} `)).toEqual(shipmentFor(orderRef, 'Amsterdam'));
    expect(await benchA.get('live', orderRef)).toBeNull();
    const [row] = await store.engine.query<{ imported_from: string; created_at: string }>('SELECT imported_from, created_at FROM to_ship_orders WHERE environment = $1 AND order_ref = $2', [
      'test',
      orderRef,
    ]);
    expect(row).toEqual({ imported_from: 'second.csv', created_at: '2026-11-24T06:28:00.000Z' });
  });

  it('imports a CSV export on one bench and the other bench finds its rows', async () => {
    const [first, second] = [ref('NW-CSV'), ref('NW-CSV')];
    const csv = [
      'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,parcels',
      `${first},1101,Damrak,1,1012 LG,Amsterdam,NL,Noah Visser,3`,
      `${second},1101,Rokin,5,1012 KK,Amsterdam,Netherlands,Mila Jansen,`,
    ].join('\n');
    const report = await benchA.importBytes('test', 'export.csv', Buffer.from(csv));
    expect(report).toMatchObject({ newRows: 1, updatedRows: 0, rejectedRows: 1 });
    expect(report.rows[1]).toMatchObject({ orderRef: second, outcome: 'rejected' });
    expect(await benchB.get('test', first)).toMatchObject({ orderRef: first, parcels: 3, recipient: { name: 'Noah Visser' } });
    expect(await benchB.get('test', second)).toBeNull();
  });
});
