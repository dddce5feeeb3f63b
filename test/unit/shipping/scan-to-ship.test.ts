import { describe, expect, it } from 'vitest';
import type { Shipment } from '../../../src/shared/contract/shipping';
import type { LedgerEntry } from '../../../src/main/shipping/creation-ledger';
import { scanToShip } from '../../../src/main/shipping/scan-to-ship';

const shipment = (orderRef: string, parcels: number | null): Shipment => ({
  orderRef,
  locationId: '1',
  recipient: { name: 'Anouk Bakker', email: null, phone: null },
  address: { street: 'Dorpsstraat', houseNumber: '4', suffix: '', postalCode: '1234AB', city: 'Utrecht', countryCode: 'NL' },
  parcels,
  pudoId: null,
  weight: null,
  dimensions: null,
  signature: false,
  notAtNeighbour: false,
  deliveryNote: null,
  deliveryDate: null,
  name: null,
});

const parcel = (orderRef: string, number: number, parcelCount: number, state: LedgerEntry['state']): LedgerEntry =>
  ({ environment: 'test', orderRef, parcel: number, parcelCount, serviceRef: `${orderRef}-${number}`, state, orderId: null, barcode: null, bundleId: null, reason: null, decidedBy: null, updatedAt: '' });

/** The to-ship list and the creation ledger as the station keeps them, in memory. */
function lists(toShip: Shipment[], ledger: LedgerEntry[]) {
  const asked: string[] = [];
  const check = scanToShip({
    toShip: { get: async (_environment, orderRef) => (asked.push(orderRef), toShip.find((entry) => entry.orderRef === orderRef) ?? null) },
    ledger: { parcels: async (_environment, orderRef) => ledger.filter((entry) => entry.orderRef === orderRef) },
  });
  return { check, asked };
}

describe('a scan that is the slip of an order to ship', () => {
  it('answers "to-ship" with the shop’s parcel count for a slip in the list, as the scanner sent it (suffix and spaces gone)', async () => {
    const { check, asked } = lists([shipment('SHIP-1', 2)], []);
    expect(await check('test', '  SHIP-1\r\n')).toMatchObject({ outcome: 'to-ship', scan: 'SHIP-1', parcels: 2, shipment: { orderRef: 'SHIP-1' } });
    expect(asked).toEqual(['SHIP-1']);
  });

  it('offers one parcel when the shop said nothing, and the count a begun shipment recorded over the shop’s', async () => {
    const { check } = lists([shipment('SHIP-2', null), shipment('SHIP-3', 1)], [parcel('SHIP-3', 1, 3, 'created'), parcel('SHIP-3', 2, 3, 'unknown')]);
    expect(await check('test', 'SHIP-2')).toMatchObject({ parcels: 1 });
    expect(await check('test', 'SHIP-3')).toMatchObject({ parcels: 3 });
  });

  it('is no slip to ship when every parcel is created (it prints through the duplicate guard), when unknown, or when the scan is unusable', async () => {
    const { check, asked } = lists([shipment('SHIP-4', 2)], [parcel('SHIP-4', 1, 2, 'created'), parcel('SHIP-4', 2, 2, 'created')]);
    expect(await check('test', 'SHIP-4')).toBeNull();
    expect(await check('test', 'ORD-9')).toBeNull();
    expect(await check('test', 'ORD\u0007-1')).toBeNull();
    expect(asked).toEqual(['SHIP-4', 'ORD-9']);
  });
});
