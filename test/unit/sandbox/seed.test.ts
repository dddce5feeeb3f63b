import { describe, expect, it } from 'vitest';
import { createGeocoder } from '../../../src/sandbox/geo/geocoder';
import { createPickupDirectory } from '../../../src/sandbox/pickup/directory';
import { createRandom } from '../../../src/sandbox/random';
import { coverageOf, findArea, judge } from '../../../src/sandbox/world/deliverability';
import { seedEnvironment } from '../../../src/sandbox/world/seed';

const geocoder = createGeocoder();
const directory = createPickupDirectory({ size: 1000, random: createRandom('unit/points'), geocoder });
const now = new Date(2026, 4, 6, 10, 30).getTime();
const seed = (name: 'test' | 'live', text = 'unit') =>
  seedEnvironment(name, { seed: text, orders: 200, now, trackingBase: 'http://sandbox/track', defaultPrintSize: 'A6' }, { geocoder, directory });

describe('the seeded generator', () => {
  it('repeats itself for the same seed and differs for another', () => {
    const a = createRandom('x');
    const b = createRandom('x');
    const c = createRandom('y');
    const draw = (r: ReturnType<typeof createRandom>) => Array.from({ length: 5 }, () => r.next());
    expect(draw(a)).toEqual(draw(b));
    expect(draw(createRandom('x'))).not.toEqual(draw(c));
    expect(createRandom('x').fork('a').next()).toBe(createRandom('x').fork('a').next());
  });
});

describe('the seed of an environment', () => {
  it('is deterministic', () => {
    const first = seed('test');
    const again = seed('test');
    expect([...again.orders.keys()]).toEqual([...first.orders.keys()]);
    expect([...again.keys.keys()]).toEqual([...first.keys.keys()]);
    expect([...seed('test', 'other').orders.keys()]).not.toEqual([...first.orders.keys()]);
  });

  it('has 200 orders in bundles, dated earlier on the day of "now", each deliverable from its location', () => {
    const env = seed('test');
    expect(env.orders.size).toBe(200);
    const dayStart = new Date(2026, 4, 6).getTime();
    for (const order of env.orders.values()) {
      expect(order.createdAt).toBeGreaterThanOrEqual(dayStart);
      expect(order.createdAt).toBeLessThanOrEqual(now);
      const location = env.locations.get(order.locationId)!;
      const verdict = judge(location, order.address.countryCode, order.address.postalCode, true, { signature: order.signature, notAtNeighbour: order.notAtNeighbour }, 'X');
      expect(verdict.deliverable, `${order.orderRef} ${order.addressLine}`).toBe(true);
      expect(env.bundles.get(order.bundle.bundleId)!.orderIds).toContain(order.orderId);
    }
  });

  it('pickup point orders of the seed use a point whose carrier serves the address\'s area', () => {
    const env = seed('test');
    const withPoint = [...env.orders.values()].filter((order) => order.pudoId);
    expect(withPoint.length).toBeGreaterThan(0);
    for (const order of withPoint) {
      const area = findArea(env.locations.get(order.locationId)!, order.address.countryCode, order.address.postalCode)!;
      expect(area.capabilities.pickupPoint).toBe(true);
      expect(area.pickupCarriers).toContain(directory.byPudoId(order.pudoId!)!.carrier);
    }
  });

  it('keeps test and live apart: other keys, other location ids, other order ids', () => {
    const test = seed('test');
    const live = seed('live');
    expect([...live.locations.keys()].some((id) => test.locations.has(id))).toBe(false);
    expect([...live.keys.keys()].every((key) => key.startsWith('sk_live_'))).toBe(true);
    expect([...live.orders.keys()].some((id) => test.orders.has(id))).toBe(false);
    expect(test.revokedKey).not.toBe(live.revokedKey);
    expect(test.keys.get(test.revokedKey)!.revoked).toBe(true);
  });

  it('coverage lists omit countries without entries', () => {
    const env = seed('test');
    const cheese = env.locations.get(env.companies.get('devries')!.locationIds[0]!)!;
    expect(Object.keys(coverageOf(cheese))).toEqual(['NL']);
  });
});
