import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateOrderResponseSchema } from '../../../src/shared/api/schemas';
import { amsterdam, newOrder, startHarness, type Harness } from './harness';

// The Delivery Service API specification (v1.0.0), pickup point rules: a 406 whose message says no
// carrier offering pickup point delivery is available for this address.
const pickupPointRejectedText = 'No carrier offering pickup point delivery is available for this address';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ pickupPoints: 4000 });
});
afterAll(() => h.close());

const create = (body: unknown, key?: string) => h.api('POST', '/orders', { body, ...(key ? { key } : {}) });

async function pointNear(postalCode: string, countryCode: string, carrierPrefix: RegExp, type?: string): Promise<{ pudoId: string; address: { street: string } }> {
  const reply = await h.api('GET', `/pickup-points?countryCode=${countryCode}&postalCode=${postalCode}&maxResults=100&maxDistanceKm=20${type ? `&types=${type}` : ''}`);
  const point = reply.body.points.find((p: { carrierPudoId: string }) => carrierPrefix.test(p.carrierPudoId));
  if (!point) throw new Error(`no point of ${carrierPrefix} near ${postalCode}`);
  return point;
}

describe('POST /orders: the created order', () => {
  it('201 with orderId, barcode, trackingUrl, orderBundle and the order record fields', async () => {
    const request = newOrder(h.location(), { name: 'Koffiebonen 1 kg', deliveryPhone: '+31 6 12345678', weight: 1200, dimensions: { length: 300, width: 200, height: 100 } });
    const reply = await create(request);
    expect(reply.status).toBe(201);
    const order = CreateOrderResponseSchema.parse(reply.body);
    expect(order).toMatchObject({
      orderRef: request.orderRef,
      status: 'draft',
      name: 'Koffiebonen 1 kg',
      deliveryName: 'Iris Visser',
      deliveryEmail: 'iris@mail.example',
      deliveryAddress: 'Kerkstraat 12, 1017 GC Amsterdam, NL',
      locationId: Number(h.location()),
    });
    expect(order.orderId).toEqual(expect.any(String));
    expect(order.barcode).toMatch(/^DT\d{13}$/);
    expect(order.trackingUrl).toMatch(new RegExp(`/track/${order.barcode}$`));
    expect(order.deliveryEta).toMatch(/^\d\d:\d\d - \d\d:\d\d$/);
    expect(order.deliveryEtaDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(order.deliveryDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(order.createdAt))).toBe(false);
    expect(order.updatedAt).toBe(order.createdAt);
    expect(order.orderBundle).toEqual({ id: expect.any(Number), bundleId: expect.any(String) });
    expect(order).not.toHaveProperty('pudoId');
  });

  it('the requested delivery date is kept; every order gets its own id and barcode', async () => {
    const a = await create(newOrder(h.location(), { deliveryDate: '2031-05-06' }));
    const b = await create(newOrder(h.location()));
    expect(a.body.deliveryDate).toBe('2031-05-06');
    expect(a.body.orderId).not.toBe(b.body.orderId);
    expect(a.body.barcode).not.toBe(b.body.barcode);
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('orders created in live stay in live, with live barcodes and locations', async () => {
    const reply = await h.api('POST', '/orders', { env: 'live', key: h.key(0, 'live'), body: newOrder(h.location(0, 'live')) });
    expect(reply.status).toBe(201);
    expect(reply.body.barcode).toMatch(/^DL/);
    expect((await h.api('GET', `/orders/label/${reply.body.orderId}`)).status).toBe(404);
    expect((await h.api('GET', `/orders/label/${reply.body.orderId}`, { env: 'live', key: h.key(0, 'live') })).status).toBe(200);
  });
});

describe('POST /orders: validation (Rules 4; Errors 400)', () => {
  it('lists every problem: missing locationId, empty deliveryName, empty deliveryAddress.postalCode', async () => {
    const reply = await create({ deliveryName: '', deliveryAddress: { ...amsterdam, postalCode: '' } });
    expect(reply.body).toEqual({
      statusCode: 400,
      message: ['locationId should not be empty', 'deliveryName should not be empty', 'deliveryAddress.postalCode should not be empty'],
      error: 'Bad Request',
    });
  });

  it('names nested and typed fields by their path', async () => {
    const reply = await create({ locationId: 1101, deliveryName: 'A', deliveryAddress: { street: 'X', countryCode: 'NL' }, weight: 'heavy', deliveryDate: '06-05-2031', deliveryEmail: 'not-an-email' });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toEqual(
      expect.arrayContaining([
        'locationId should not be empty',
        'deliveryAddress.houseNumber should not be empty',
        'deliveryAddress.postalCode should not be empty',
        'weight must be a number',
        'deliveryDate should be YYYY-MM-DD',
        'deliveryEmail must be an email',
      ]),
    );
    expect((await create({})).body.message).toEqual(['locationId should not be empty', 'deliveryName should not be empty', 'deliveryAddress should not be empty']);
  });

  it('a body that is not an object is a 400 too', async () => {
    for (const body of [[], 'text', 42, null]) {
      const reply = await h.api('POST', '/orders', { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error).toBe('Bad Request');
    }
  });

  it('dimensions must satisfy length >= width >= height', async () => {
    const reply = await create(newOrder(h.location(), { dimensions: { length: 10, width: 20, height: 5 } }));
    expect(reply.body).toEqual({ statusCode: 400, message: ['dimensions must satisfy length >= width >= height'], error: 'Bad Request' });
  });
});

describe('POST /orders: deliverability (Rules 1)', () => {
  it('an order the location cannot deliver is rejected with 400 naming the reason', async () => {
    const reply = await create(newOrder(h.location(), { deliveryAddress: { street: 'Hauptstraße', houseNumber: '1', postalCode: '10115', countryCode: 'DE' } }));
    expect(reply.body).toEqual({ statusCode: 400, message: [expect.stringContaining('OUT_OF_AREA')], error: 'Bad Request' });
    const noNeighbour = await create(newOrder(h.location(), { notAtNeighbour: true, deliveryAddress: { ...amsterdam, postalCode: '5611AB', city: 'Eindhoven' } }));
    expect(noNeighbour.body.message[0]).toMatch(/CAPABILITY_UNAVAILABLE \(notAtNeighbour\)/);
    const heavy = await create(newOrder(h.location(), { weight: 40_000 }));
    expect(heavy.body.message[0]).toMatch(/WEIGHT_EXCEEDED/);
  });

  it('skipping the check is allowed: a deliverable order goes through without one', async () => {
    expect((await create(newOrder(h.location(0, 'test', 1), { deliveryAddress: { street: 'Markt', houseNumber: '3', postalCode: '5911 HH', countryCode: 'NL' } }))).status).toBe(201);
  });
});

describe('POST /orders with pudoId (Rules 2, 3; Errors 406)', () => {
  it('accepted when the address lies in an area served by the point\'s carrier with pickup points on', async () => {
    const point = await pointNear('1017GC', 'NL', /^NP/);
    const check = await h.api('POST', `/orders/check/${h.location()}`, { body: { deliveryAddress: amsterdam, pickupPoint: true } });
    expect(check.body.deliverable).toBe(true);
    const reply = await create(newOrder(h.location(), { pudoId: point.pudoId }));
    expect(reply.status).toBe(201);
    expect(reply.body.pudoId).toBe(point.pudoId);
    // With pudoId the delivery address stays the shopper's own, not the point's.
    expect(reply.body.deliveryAddress).toBe('Kerkstraat 12, 1017 GC Amsterdam, NL');
    expect(reply.body.deliveryAddress).not.toContain(point.address.street);
  });

  it('406 with the exact body when the location has pickup point delivery switched off', async () => {
    const point = await pointNear('1017GC', 'NL', /^NP/);
    const check = await h.api('POST', `/orders/check/${h.location(1)}`, { key: h.key(1), body: { deliveryAddress: amsterdam, pickupPoint: true } });
    expect(check.body).toMatchObject({ deliverable: false, missingCapabilities: { pickupPoint: true } });
    const reply = await create(newOrder(h.location(1), { pudoId: point.pudoId }), h.key(1));
    expect(reply.status).toBe(406);
    expect(reply.body).toEqual({ statusCode: 406, message: pickupPointRejectedText, error: 'Not Acceptable' });
  });

  it('406 when the point\'s carrier does not serve the address\'s area: a searchable point is not necessarily orderable', async () => {
    // Noordwind Venlo serves NL 5 and 6 with NordPost only; EuroLocker lockers there are searchable but not orderable.
    const venlo = h.location(0, 'test', 1);
    const address = { street: 'Parade', houseNumber: '10', postalCode: '5911CB', countryCode: 'NL' };
    const locker = await pointNear('5911CB', 'NL', /^EL/, 'PARCEL_LOCKER');
    const reply = await create(newOrder(venlo, { deliveryAddress: address, pudoId: locker.pudoId }));
    expect(reply.body).toEqual({ statusCode: 406, message: pickupPointRejectedText, error: 'Not Acceptable' });
    const nordpost = await pointNear('5911CB', 'NL', /^NP/);
    expect((await create(newOrder(venlo, { deliveryAddress: address, pudoId: nordpost.pudoId }))).status).toBe(201);
  });

  it('406 when the address lies outside every area of the location, even though home delivery would also fail', async () => {
    const point = await pointNear('1017GC', 'NL', /^NP/);
    const reply = await create(newOrder(h.location(), { pudoId: point.pudoId, deliveryAddress: { street: 'Hauptstraße', houseNumber: '1', postalCode: '80331', countryCode: 'DE' } }));
    expect(reply.status).toBe(406);
  });

  it('an unknown pudoId (or a carrierPudoId sent as pudoId) is a 400', async () => {
    const point = (await h.api('GET', '/pickup-points?countryCode=NL&postalCode=1017GC&maxResults=1')).body.points[0];
    const reply = await create(newOrder(h.location(), { pudoId: point.carrierPudoId }));
    expect(reply.body).toEqual({ statusCode: 400, message: [expect.stringMatching(/^pudoId .* does not match a known pickup point$/)], error: 'Bad Request' });
  });
});

describe('POST /orders: bundles', () => {
  it('the first order creates a bundle; orderBundleId = its bundleId string joins it; the bundle label has both', async () => {
    const first = await create(newOrder(h.location()));
    const bundle = first.body.orderBundle;
    const second = await create(newOrder(h.location(), { orderBundleId: bundle.bundleId }));
    expect(second.status).toBe(201);
    expect(second.body.orderBundle).toEqual(bundle);
    const third = await create(newOrder(h.location()));
    expect(third.body.orderBundle.bundleId).not.toBe(bundle.bundleId);
    const labels = await h.api('GET', `/orders/label/bundle/${bundle.bundleId}`);
    expect(labels.status).toBe(200);
    const pdf = Buffer.from(labels.body[0].label, 'base64').toString('latin1');
    expect(pdf.match(/\/Type \/Page\b/g)).toHaveLength(2);
  });

  it('the numeric bundle id is not a bundleId; unknown bundles are 400; another company\'s bundle is 403', async () => {
    const first = await create(newOrder(h.location()));
    const numeric = await create(newOrder(h.location(), { orderBundleId: String(first.body.orderBundle.id) }));
    expect(numeric.status).toBe(400);
    expect(numeric.body.message[0]).toMatch(/does not match an existing bundle/);
    const foreign = await h.api('POST', '/orders', { key: h.key(1), body: newOrder(h.location(1), { orderBundleId: first.body.orderBundle.bundleId }) });
    expect(foreign.status).toBe(403);
  });

  it('a bundle belongs to one location: joining it from another location of the company is a 400', async () => {
    const first = await create(newOrder(h.location()));
    const other = await create(newOrder(h.location(0, 'test', 1), { orderBundleId: first.body.orderBundle.bundleId, deliveryAddress: { street: 'Markt', houseNumber: '3', postalCode: '5911HH', countryCode: 'NL' } }));
    expect(other.status).toBe(400);
  });
});
