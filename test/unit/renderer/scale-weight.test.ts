/**
 * The ship panel's weight from the bench's scale: only a stable weight above zero fills it, a typed
 * weight is never overwritten, and Enter sends what the panel shows (whole grams).
 */
import { describe, expect, it } from 'vitest';
import type { Shipment } from '../../../src/shared/contract/shipping';
import { createScaleStore } from '../../../src/renderer/src/scale/scale-store';
import { createShipStore } from '../../../src/renderer/src/ship/ship-store';
import { typedGrams } from '../../../src/renderer/src/ship/ShipWeight';
import { ok, scriptedStation } from './scripted-station';

const shipment: Shipment = {
  orderRef: 'SHOP-1',
  locationId: '1101',
  recipient: { name: 'Eva', email: null, phone: null },
  address: { street: 'Damrak', houseNumber: '1', suffix: '', postalCode: '1012 LG', city: 'Amsterdam', countryCode: 'NL' },
  parcels: 1,
  pudoId: null,
  weight: 500,
  dimensions: null,
  signature: false,
  notAtNeighbour: false,
  deliveryNote: null,
  deliveryDate: null,
  name: null,
};

const at = '2026-11-27T10:00:00.000Z';

function bench() {
  const scripted = scriptedStation({
    'scales.current': () => ok({ state: 'none' as const }),
    'shipping.ship': () => ok({ outcome: 'shipped' as const, orderRef: 'SHOP-1', parcels: [], elapsedMs: 1 }),
  });
  const scale = createScaleStore({ station: scripted.station });
  const ship = createShipStore({ station: scripted.station });
  scale.getState().follow();
  scale.getState().onWeighed((grams) => ship.getState().weighed(grams));
  return { scripted, scale, ship };
}

describe('the ship panel weight from the scale', () => {
  it('a settling weight and a stable zero do not fill it; a stable weight does, rounded to whole grams, and Enter sends it', async () => {
    const { scripted, ship } = bench();
    ship.getState().open(shipment);
    expect(ship.getState().weight).toEqual({ grams: 500, source: 'order' });
    scripted.emit('scales.reading', { state: 'settling', grams: 1874.6, at });
    scripted.emit('scales.reading', { state: 'stable', grams: 0, zero: true, net: false, tareGrams: null, at });
    expect(ship.getState().weight).toEqual({ grams: 500, source: 'order' });
    scripted.emit('scales.reading', { state: 'stable', grams: 1874.6, zero: false, net: false, tareGrams: null, at });
    expect(ship.getState().weight).toEqual({ grams: 1875, source: 'scale' });
    await ship.getState().enter();
    expect(scripted.named('shipping.ship')[0]?.input).toMatchObject({ orderRef: 'SHOP-1', weight: 1875 });
  });

  it('a typed weight wins over later readings, and is what Enter sends', async () => {
    const { scripted, ship } = bench();
    ship.getState().open(shipment);
    ship.getState().typeWeight(2340);
    scripted.emit('scales.reading', { state: 'stable', grams: 950, zero: false, net: false, tareGrams: null, at });
    expect(ship.getState().weight).toEqual({ grams: 2340, source: 'typed' });
    await ship.getState().enter();
    expect(scripted.named('shipping.ship')[0]?.input).toMatchObject({ weight: 2340 });
  });

  it("the order's own weight is not sent again (the station has it)", async () => {
    const { scripted, ship } = bench();
    ship.getState().open(shipment);
    await ship.getState().enter();
    expect(scripted.named('shipping.ship')[0]?.input).not.toHaveProperty('weight');
  });

  it('no panel open: a reading changes nothing', () => {
    const { scripted, ship } = bench();
    scripted.emit('scales.reading', { state: 'stable', grams: 700, zero: false, net: false, tareGrams: null, at });
    expect(ship.getState().weight).toBeNull();
  });
});

describe('a typed weight', () => {
  it('is whole grams, spaces and points allowed as thousands separators (1.250 in Dutch)', () => {
    expect(typedGrams('1250')).toBe(1250);
    expect(typedGrams('2 340')).toBe(2340);
    expect(typedGrams('1.250')).toBe(1250);
    expect(typedGrams('')).toBeNull();
    expect(typedGrams('12,5')).toBeNull();
    expect(typedGrams('0')).toBeNull();
    expect(typedGrams('1.5kg')).toBeNull();
  });
});
