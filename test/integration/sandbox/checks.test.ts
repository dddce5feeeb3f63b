import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
// Test environment: Noordwind Amsterdam (company 0, location 0) covers NL 1-3 with every capability,
// NL 4-7 without notAtNeighbour, a few full Zwolle codes and BE 2/9 without pickup points.
let amsterdamLoc: string;
let cheeseLoc: string;
let bikesLoc: string;

beforeAll(async () => {
  h = await startHarness();
  amsterdamLoc = h.location(0);
  cheeseLoc = h.location(1);
  bikesLoc = h.location(2);
});
afterAll(() => h.close());

const address = (over: Record<string, unknown> = {}) => ({ street: 'Kerkstraat', houseNumber: '12', suffix: '', postalCode: '1017 GC', city: 'Amsterdam', countryCode: 'NL', ...over });
const check = (loc: string, body: unknown, key?: string) => h.api('POST', `/orders/check/${loc}`, { body, ...(key ? { key } : {}) });
const postal = (loc: string, body: unknown, key?: string) => h.api('POST', `/orders/check/postal-code/${loc}`, { body, ...(key ? { key } : {}) });

describe('POST /orders/check/{locationId}', () => {
  it('a deliverable address: 200, deliverable true, resolvedAddress, no reason and no missingCapabilities', async () => {
    const reply = await check(amsterdamLoc, { deliveryAddress: address(), signature: true, notAtNeighbour: true, pickupPoint: true });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      deliverable: true,
      resolvedAddress: { street: 'Kerkstraat', houseNumber: '12', suffix: '', postalCode: '1017 GC', city: 'Amsterdam', countryCode: 'NL', coordinates: { lat: expect.any(Number), lng: expect.any(Number) } },
    });
  });

  it('the geocoder corrects case and spacing, fills the city and places the address near its town', async () => {
    const reply = await check(amsterdamLoc, { deliveryAddress: { street: '  prins   hendrikstraat ', houseNumber: ' 7 ', suffix: 'b', postalCode: '1017gc', countryCode: 'nl' } });
    const resolved = reply.body.resolvedAddress;
    expect(resolved).toMatchObject({ street: 'Prins Hendrikstraat', houseNumber: '7', suffix: 'B', postalCode: '1017 GC', city: 'Amsterdam', countryCode: 'NL' });
    // Amsterdam's centre is 52.37 N, 4.90 E: within about 10 km.
    expect(Math.abs(resolved.coordinates.lat - 52.37)).toBeLessThan(0.1);
    expect(Math.abs(resolved.coordinates.lng - 4.9)).toBeLessThan(0.15);
    const again = await check(amsterdamLoc, { deliveryAddress: { street: 'Prins Hendrikstraat', houseNumber: '7', suffix: 'B', postalCode: '1017 GC', countryCode: 'NL' } });
    expect(again.body.resolvedAddress.coordinates).toEqual(resolved.coordinates);
  });

  it('coordinates are plausible for German and Belgian postal codes too', async () => {
    const berlin = await check(bikesLoc, { deliveryAddress: address({ street: 'Hauptstraße', postalCode: '10115', city: '', countryCode: 'DE' }) }, h.key(2));
    expect(berlin.body.resolvedAddress.city).toBe('Berlin');
    expect(Math.abs(berlin.body.resolvedAddress.coordinates.lat - 52.52)).toBeLessThan(0.2);
    const gent = await check(amsterdamLoc, { deliveryAddress: address({ street: 'Veldstraat', postalCode: '9000', countryCode: 'BE' }) });
    expect(gent.body).toMatchObject({ deliverable: true, resolvedAddress: { city: 'Gent', countryCode: 'BE' } });
    expect(Math.abs(gent.body.resolvedAddress.coordinates.lng - 3.72)).toBeLessThan(0.15);
  });

  it('outside the location\'s coverage: 200 with deliverable false, reason OUT_OF_AREA and missingCapabilities', async () => {
    const reply = await check(amsterdamLoc, { deliveryAddress: address({ street: 'Hauptstraße', postalCode: '10115', countryCode: 'DE' }), signature: true });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ deliverable: false, reason: 'OUT_OF_AREA', missingCapabilities: { signature: true, notAtNeighbour: false, pickupPoint: false } });
    expect(reply.body.resolvedAddress).toMatchObject({ postalCode: '10115', countryCode: 'DE' });
  });

  it('a requested capability the area lacks: deliverable false and exactly that capability missing', async () => {
    const eindhoven = address({ postalCode: '5611 AB', city: 'Eindhoven' });
    const noNeighbour = await check(amsterdamLoc, { deliveryAddress: eindhoven, signature: true, notAtNeighbour: true });
    expect(noNeighbour.body).toMatchObject({ deliverable: false, reason: 'CAPABILITY_UNAVAILABLE', missingCapabilities: { signature: false, notAtNeighbour: true, pickupPoint: false } });
    expect((await check(amsterdamLoc, { deliveryAddress: eindhoven, signature: true })).body.deliverable).toBe(true);
  });

  it('pickupPoint: true answers whether a pudoId order would be accepted', async () => {
    const antwerp = address({ street: 'Meir', postalCode: '2000', city: 'Antwerpen', countryCode: 'BE' });
    expect((await check(amsterdamLoc, { deliveryAddress: antwerp })).body.deliverable).toBe(true);
    const pickup = await check(amsterdamLoc, { deliveryAddress: antwerp, pickupPoint: true });
    expect(pickup.body).toMatchObject({ deliverable: false, missingCapabilities: { pickupPoint: true } });
    const cheese = await check(cheeseLoc, { deliveryAddress: address(), pickupPoint: true }, h.key(1));
    expect(cheese.body).toMatchObject({ deliverable: false, missingCapabilities: { pickupPoint: true, signature: false, notAtNeighbour: false } });
    expect((await check(amsterdamLoc, { deliveryAddress: address(), pickupPoint: true })).body.deliverable).toBe(true);
  });

  it('full postal codes in the coverage list serve exactly those codes', async () => {
    expect((await check(amsterdamLoc, { deliveryAddress: address({ postalCode: '8011 AB', city: 'Zwolle' }) })).body.deliverable).toBe(true);
    expect((await check(amsterdamLoc, { deliveryAddress: address({ postalCode: '8011 AC', city: 'Zwolle' }) })).body).toMatchObject({ deliverable: false, reason: 'OUT_OF_AREA' });
  });

  it('an address the geocoder cannot place: deliverable false, reason ADDRESS_NOT_FOUND, resolvedAddress still present', async () => {
    for (const deliveryAddress of [address({ postalCode: 'ABCDEF' }), address({ houseNumber: 'zonder' }), address({ countryCode: 'ZZ', postalCode: '12345' })]) {
      const reply = await check(amsterdamLoc, { deliveryAddress });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ deliverable: false, reason: 'ADDRESS_NOT_FOUND', resolvedAddress: expect.any(Object) });
    }
  });

  it('dimensions must satisfy length >= width >= height (400); equal sides are fine', async () => {
    const bad = await check(amsterdamLoc, { deliveryAddress: address(), dimensions: { length: 100, width: 200, height: 50 } });
    expect(bad.body).toEqual({ statusCode: 400, message: ['dimensions must satisfy length >= width >= height'], error: 'Bad Request' });
    const flat = await check(amsterdamLoc, { deliveryAddress: address(), dimensions: { length: 300, width: 200, height: 250 } });
    expect(flat.status).toBe(400);
    expect((await check(amsterdamLoc, { deliveryAddress: address(), dimensions: { length: 300, width: 300, height: 300 } })).body.deliverable).toBe(true);
  });

  it('size and weight above the ceilings are not deliverable (DIMENSIONS_EXCEEDED, WEIGHT_EXCEEDED)', async () => {
    expect((await check(amsterdamLoc, { deliveryAddress: address(), dimensions: { length: 1300, width: 500, height: 400 } })).body).toMatchObject({ deliverable: false, reason: 'DIMENSIONS_EXCEEDED' });
    expect((await check(amsterdamLoc, { deliveryAddress: address(), weight: 31_501 })).body).toMatchObject({ deliverable: false, reason: 'WEIGHT_EXCEEDED' });
    expect((await check(amsterdamLoc, { deliveryAddress: address(), weight: 31_500, dimensions: { length: 1200, width: 800, height: 800 } })).body.deliverable).toBe(true);
  });

  it('validation: 400 with one message per field, named by its full path', async () => {
    const reply = await check(amsterdamLoc, { deliveryAddress: { street: '', houseNumber: '1', postalCode: '   ', countryCode: 'Netherlands' }, weight: -5, signature: 'yes' });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('Bad Request');
    expect(reply.body.message).toEqual(
      expect.arrayContaining([
        'deliveryAddress.street should not be empty',
        'deliveryAddress.postalCode should not be empty',
        expect.stringMatching(/^deliveryAddress\.countryCode /),
        expect.stringMatching(/^weight /),
        'signature must be a boolean',
      ]),
    );
    const missing = await check(amsterdamLoc, {});
    expect(missing.body.message).toEqual(['deliveryAddress should not be empty']);
  });
});

describe('POST /orders/check/postal-code/{locationId}', () => {
  it('case and whitespace in the postal code are ignored', async () => {
    const answers = await Promise.all(['1018 PN', '1018pn', '1018PN', ' 1018  p n '].map((postalCode) => postal(amsterdamLoc, { postalCode, countryCode: 'NL' })));
    for (const reply of answers) expect(reply.body).toEqual({ deliverable: true });
  });

  it('has no resolvedAddress; when false it gives reason and missingCapabilities with signature and notAtNeighbour only', async () => {
    const reply = await postal(amsterdamLoc, { postalCode: '5611AB', countryCode: 'NL', notAtNeighbour: true });
    expect(reply.body).toEqual({ deliverable: false, reason: 'CAPABILITY_UNAVAILABLE', missingCapabilities: { signature: false, notAtNeighbour: true } });
    const out = await postal(amsterdamLoc, { postalCode: '80331', countryCode: 'DE' });
    expect(out.body).toEqual({ deliverable: false, reason: 'OUT_OF_AREA', missingCapabilities: { signature: false, notAtNeighbour: false } });
    expect((await postal(amsterdamLoc, { postalCode: 'XYZ', countryCode: 'NL' })).body).toMatchObject({ deliverable: false, reason: 'POSTAL_CODE_NOT_FOUND' });
  });

  it('dimension and weight rules apply as in the address check', async () => {
    expect((await postal(amsterdamLoc, { postalCode: '1018PN', countryCode: 'NL', dimensions: { length: 1, width: 2, height: 1 } })).status).toBe(400);
    expect((await postal(amsterdamLoc, { postalCode: '1018PN', countryCode: 'NL', weight: 50_000 })).body.reason).toBe('WEIGHT_EXCEEDED');
  });

  it('errors are 400 with the error body', async () => {
    const reply = await postal(amsterdamLoc, { countryCode: 'NL' });
    expect(reply.body).toEqual({ statusCode: 400, message: ['postalCode should not be empty'], error: 'Bad Request' });
    expect((await postal(amsterdamLoc, { postalCode: '1018PN' })).body.message).toEqual(['countryCode should not be empty']);
  });
});

describe('GET /coverage/postal-codes/{locationId}', () => {
  it('lists numeric prefixes and full postal codes per country', async () => {
    const reply = await h.api('GET', `/coverage/postal-codes/${amsterdamLoc}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ NL: ['1', '2', '3', '4', '5', '6', '7', '8011AB', '8011CW', '8011PK'], BE: ['2', '9'] });
  });

  it('omits countries without coverage instead of returning empty lists', async () => {
    const cheese = await h.api('GET', `/coverage/postal-codes/${cheeseLoc}`, { key: h.key(1) });
    expect(Object.keys(cheese.body)).toEqual(['NL']);
    const bikes = await h.api('GET', `/coverage/postal-codes/${bikesLoc}`, { key: h.key(2) });
    expect(Object.keys(bikes.body).sort()).toEqual(['DE', 'NL']);
    for (const list of Object.values(bikes.body)) expect((list as string[]).length).toBeGreaterThan(0);
  });

  it('agrees with the postal code check: covered codes are deliverable, others OUT_OF_AREA', async () => {
    const coverage = (await h.api('GET', `/coverage/postal-codes/${bikesLoc}`, { key: h.key(2) })).body as Record<string, string[]>;
    expect(coverage.DE).toContain('5');
    expect((await postal(bikesLoc, { postalCode: '50667', countryCode: 'DE' }, h.key(2))).body.deliverable).toBe(true);
    expect((await postal(bikesLoc, { postalCode: '80331', countryCode: 'DE' }, h.key(2))).body.reason).toBe('OUT_OF_AREA');
  });

  it('errors are 400 with the error body', async () => {
    expect((await h.api('GET', '/coverage/postal-codes/12ab')).body).toEqual({ statusCode: 400, message: ['locationId must be a numeric string'], error: 'Bad Request' });
  });
});
