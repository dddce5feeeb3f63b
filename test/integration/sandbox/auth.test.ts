import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startHarness, type Harness } from './harness';

let h: Harness;
let ownOrder: { orderId: string; bundleId: string };
let foreignOrder: { orderId: string; bundleId: string };

const endpoints = (loc: string, orderId: string, bundleId: string) => [
  ['POST', `/orders/check/${loc}`, { deliveryAddress: { street: 'Kerkstraat', houseNumber: '1', postalCode: '1017GC', countryCode: 'NL' } }],
  ['POST', `/orders/check/postal-code/${loc}`, { postalCode: '1017GC', countryCode: 'NL' }],
  ['GET', `/coverage/postal-codes/${loc}`, undefined],
  ['GET', '/pickup-points?countryCode=NL&postalCode=1017GC', undefined],
  ['POST', '/orders', { locationId: loc }],
  ['GET', `/orders/label/${orderId}`, undefined],
  ['GET', `/orders/label/bundle/${bundleId}`, undefined],
  ['PATCH', `/orders/cancel/${orderId}`, undefined],
] as const;

beforeAll(async () => {
  h = await startHarness();
  const { body } = await h.control('GET', '/environments/test/todays-orders');
  const orders = body.orders as { orderId: string; bundleId: string; companyName: string; status: string }[];
  ownOrder = orders.find((o) => o.companyName.startsWith('Noordwind') && o.status === 'draft')!;
  foreignOrder = orders.find((o) => o.companyName.startsWith('Kaasmakerij') && o.status === 'draft')!;
});
afterAll(() => h.close());

describe('auth: the api-key header (spec Authentication 1, 5)', () => {
  it('answers 401 with the error body on every endpoint when the key is missing', async () => {
    for (const [method, path, body] of endpoints(h.location(), ownOrder.orderId, ownOrder.bundleId)) {
      const reply = await h.api(method, path, { key: null, body });
      expect(reply.status, `${method} ${path}`).toBe(401);
      expect(reply.body).toEqual({ statusCode: 401, message: expect.any(String), error: 'Unauthorized' });
    }
  });

  it('answers 401 for a malformed key, an unknown key of the right shape and an empty header', async () => {
    const good = h.key();
    for (const key of ['not-a-key', `${good}x`, good.slice(0, -1), good.replace(/.$/, good.endsWith('A') ? 'B' : 'A'), ' ']) {
      const reply = await h.api('GET', `/coverage/postal-codes/${h.location()}`, { key });
      expect(reply.status, key).toBe(401);
    }
    const empty = await call('GET', `${h.base()}/coverage/postal-codes/${h.location()}`, { headers: { 'api-key': '' } });
    expect(empty.status).toBe(401);
  });

  it('answers 401 for the revoked key on every endpoint', async () => {
    const revoked = h.sandbox.environments.test.revokedKey;
    for (const [method, path, body] of endpoints(h.location(), ownOrder.orderId, ownOrder.bundleId)) {
      expect((await h.api(method, path, { key: revoked, body })).status, `${method} ${path}`).toBe(401);
    }
  });

  it('accepts the key only in the api-key header, not as a bearer token or query parameter', async () => {
    const key = h.key();
    expect((await call('GET', `${h.base()}/coverage/postal-codes/${h.location()}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    expect((await call('GET', `${h.base()}/coverage/postal-codes/${h.location()}?api-key=${key}`)).status).toBe(401);
  });
});

describe('auth: environments (spec Authentication 3)', () => {
  it('a test key on the live base URL is 401, and a live key on the test base URL is 401', async () => {
    expect((await h.api('GET', `/coverage/postal-codes/${h.location(0, 'live')}`, { env: 'live', key: h.key(0, 'test') })).status).toBe(401);
    expect((await h.api('GET', `/coverage/postal-codes/${h.location(0, 'test')}`, { env: 'test', key: h.key(0, 'live') })).status).toBe(401);
    expect((await h.api('GET', `/coverage/postal-codes/${h.location(0, 'live')}`, { env: 'live', key: h.key(0, 'live') })).status).toBe(200);
  });

  it('live locationIds differ from test ones, and a test locationId is unknown in live (403)', async () => {
    const test = h.sandbox.environments.test.companies.flatMap((c) => c.locationIds);
    const live = h.sandbox.environments.live.companies.flatMap((c) => c.locationIds);
    expect(test.filter((id) => live.includes(id))).toEqual([]);
    expect((await h.api('GET', `/coverage/postal-codes/${h.location(0, 'test')}`, { env: 'live', key: h.key(0, 'live') })).status).toBe(403);
  });

  it('an order of the test environment does not exist in live (404)', async () => {
    const reply = await h.api('GET', `/orders/label/${ownOrder.orderId}`, { env: 'live', key: h.key(0, 'live') });
    expect(reply.status).toBe(404);
    expect((await h.api('GET', `/orders/label/bundle/${ownOrder.bundleId}`, { env: 'live', key: h.key(0, 'live') })).status).toBe(404);
  });
});

describe('auth: only the listed endpoints (spec Authentication 4)', () => {
  it.each([
    ['GET', '/orders'],
    ['GET', '/orders/'],
    ['GET', '/orders/check/LOC'],
    ['DELETE', '/orders/cancel/ORDER'],
    ['POST', '/orders/cancel/ORDER'],
    ['GET', '/orders/cancel/ORDER'],
    ['PUT', '/orders'],
    ['GET', '/orders/ORDER'],
    ['GET', '/orders/label/ORDER/extra'],
    ['GET', '/orders/label/'],
    ['GET', '/pickup-points/'],
    ['POST', '/pickup-points'],
    ['GET', '/coverage/postal-codes'],
    ['GET', '/webhooks'],
    ['GET', '/'],
    ['GET', ''],
    ['OPTIONS', '/orders'],
    ['HEAD', '/pickup-points'],
    ['GET', '/ORDERS/label/ORDER'],
  ])('%s %s is 401 even with a valid key', async (method, template) => {
    const path = template.replace('LOC', h.location()).replace('ORDER', ownOrder.orderId);
    const reply = await h.api(method, path);
    expect(reply.status).toBe(401);
    if (method !== 'HEAD') expect(reply.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it('paths outside both base URLs are 401 with a valid key', async () => {
    const origin = new URL(h.base()).origin;
    for (const path of ['/orders', '/staging/orders/label/x', '/test', '/live/', '/api/test/pickup-points']) {
      expect((await call('GET', `${origin}${path}`, { key: h.key() })).status, path).toBe(401);
    }
  });
});

describe('auth: scoping to the key\'s companies (spec Authentication 3, 5; Errors 403, 404)', () => {
  it('a key used on another company\'s location is 403 on checks, coverage and create', async () => {
    const other = h.location(1);
    const replies = await Promise.all([
      h.api('POST', `/orders/check/${other}`, { body: { deliveryAddress: { street: 'Kerkstraat', houseNumber: '1', postalCode: '1017GC', countryCode: 'NL' } } }),
      h.api('POST', `/orders/check/postal-code/${other}`, { body: { postalCode: '1017GC', countryCode: 'NL' } }),
      h.api('GET', `/coverage/postal-codes/${other}`),
      h.api('POST', '/orders', { body: { locationId: other, deliveryName: 'A B', deliveryAddress: { street: 'Kerkstraat', houseNumber: '1', postalCode: '1017GC', countryCode: 'NL' } } }),
    ]);
    for (const reply of replies) expect(reply.body).toEqual({ statusCode: 403, message: expect.any(String), error: 'Forbidden' });
  });

  it('a key used on another company\'s order, label or bundle is 403', async () => {
    expect((await h.api('GET', `/orders/label/${foreignOrder.orderId}`)).status).toBe(403);
    expect((await h.api('GET', `/orders/label/${foreignOrder.orderId}?format=zpl`)).status).toBe(403);
    expect((await h.api('GET', `/orders/label/bundle/${foreignOrder.bundleId}`)).status).toBe(403);
    expect((await h.api('PATCH', `/orders/cancel/${foreignOrder.orderId}`)).status).toBe(403);
    const check = await h.control('GET', `/environments/test/orders/${foreignOrder.orderId}`);
    expect(check.body.status).toBe('draft');
  });

  it('a key may act on any location of its company: Noordwind has two', async () => {
    for (const id of h.sandbox.environments.test.companies[0]!.locationIds) {
      expect((await h.api('GET', `/coverage/postal-codes/${id}`)).status).toBe(200);
    }
  });

  it('orders and bundles that do not exist are 404 with the error body', async () => {
    for (const path of ['/orders/label/00000000-0000-4000-8000-000000000000', '/orders/label/bundle/BND-NOPE', '/orders/label/x%20y']) {
      expect((await h.api('GET', path)).body).toEqual({ statusCode: 404, message: expect.any(String), error: 'Not Found' });
    }
    expect((await h.api('PATCH', '/orders/cancel/nope')).status).toBe(404);
  });

  it('a location id that is not a number is a 400; one that exists nowhere is a 403', async () => {
    expect((await h.api('GET', '/coverage/postal-codes/abc')).body).toEqual({ statusCode: 400, message: ['locationId must be a numeric string'], error: 'Bad Request' });
    expect((await h.api('GET', '/coverage/postal-codes/999999')).status).toBe(403);
  });
});

describe('auth: keys issued and revoked by the operator (spec Authentication 2)', () => {
  it('a newly issued key works at once; a key issued for two companies acts on both; revoking ends it', async () => {
    const issued = await h.control('POST', '/environments/test/keys', { companies: ['noordwind', 'Kaasmakerij De Vries'] });
    expect(issued.status).toBe(201);
    const key = issued.body.key as string;
    expect(key).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect((await h.api('GET', `/coverage/postal-codes/${h.location(0)}`, { key })).status).toBe(200);
    expect((await h.api('GET', `/coverage/postal-codes/${h.location(1)}`, { key })).status).toBe(200);
    expect((await h.api('GET', `/coverage/postal-codes/${h.location(2)}`, { key })).status).toBe(403);
    expect((await h.api('GET', `/orders/label/${foreignOrder.orderId}?format=zpl`, { key })).status).toBe(200);
    expect((await h.api('GET', `/coverage/postal-codes/${h.location(0, 'live')}`, { key, env: 'live' })).status).toBe(401);

    expect((await h.control('POST', '/environments/test/keys/revoke', { apiKey: key })).status).toBe(200);
    expect((await h.api('GET', `/coverage/postal-codes/${h.location(0)}`, { key })).status).toBe(401);
  });
});
