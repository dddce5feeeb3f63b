import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newOrder, startHarness, startReceiver, type Harness } from './harness';
import { waitForValue } from '../../support/wait-until';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seedSize: 'default', printers: 1, printerLabelsPerSecond: 50 });
});
afterAll(() => h.close());

interface Today {
  orderRef: string;
  orderId: string;
  barcode: string;
  bundleId: string;
  status: string;
  companyName: string;
  locationId: string;
}

const todays = async (env = 'test') => (await h.control('GET', `/environments/${env}/todays-orders`)).body.orders as Today[];

describe('control API: access', () => {
  it('needs its bearer token', async () => {
    const url = `${h.sandbox.control.baseUrl}/settings`;
    expect((await call('GET', url)).status).toBe(401);
    expect((await call('GET', url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await call('GET', url, { headers: { authorization: h.sandbox.control.token } })).status).toBe(401);
    expect((await h.control('GET', '/settings')).status).toBe(200);
    expect((await h.control('GET', '/no/such/thing')).status).toBe(404);
  });

  it('is not reachable through the public API: control paths there are 401, even with the token', async () => {
    const origin = new URL(h.base()).origin;
    for (const path of ['/settings', '/test/settings', '/reset', '/test/environments/test/todays-orders', '/control/settings']) {
      const reply = await call('GET', `${origin}${path}`, { key: h.key(), headers: { authorization: `Bearer ${h.sandbox.control.token}` } });
      expect(reply.status, path).toBe(401);
    }
    expect(new URL(h.sandbox.control.baseUrl).port).not.toBe(new URL(h.base()).port);
    expect(new URL(h.sandbox.control.baseUrl).hostname).toBe('127.0.0.1');
  });

  it('GET / describes the sandbox exactly as startSandbox returned it', async () => {
    expect((await h.control('GET', '/')).body).toEqual(JSON.parse(JSON.stringify(h.sandbox)));
  });
});

describe('control API: the seed', () => {
  it('about 200 of today\'s orders in about 40 bundles per environment, each listed with orderRef, orderId, barcode and bundleId', async () => {
    for (const env of ['test', 'live']) {
      const orders = await todays(env);
      expect(orders).toHaveLength(200);
      const bundles = new Set(orders.map((o) => o.bundleId));
      expect(bundles.size).toBeGreaterThanOrEqual(30);
      expect(bundles.size).toBeLessThanOrEqual(55);
      expect(new Set(orders.map((o) => o.orderId)).size).toBe(200);
      expect(new Set(orders.map((o) => o.barcode)).size).toBe(200);
      for (const order of orders) expect(order).toMatchObject({ orderRef: expect.any(String), orderId: expect.any(String), barcode: expect.any(String), bundleId: expect.any(String) });
    }
    const test = await todays('test');
    const live = await todays('live');
    expect(test.filter((o) => live.some((l) => l.orderId === o.orderId || l.barcode === o.barcode))).toEqual([]);
  });

  it('orders are dated today and belong to the listed companies and locations', async () => {
    const orders = await todays();
    const today = new Date();
    const localDay = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    const locations = new Set(h.sandbox.environments.test.companies.flatMap((c) => c.locationIds));
    for (const order of orders.slice(0, 25)) {
      const record = (await h.control('GET', `/environments/test/orders/${order.orderId}`)).body;
      const created = new Date(record.createdAt);
      const createdDay = `${created.getFullYear()}-${String(created.getMonth() + 1).padStart(2, '0')}-${String(created.getDate()).padStart(2, '0')}`;
      expect(createdDay).toBe(localDay);
      expect(created.getTime()).toBeLessThanOrEqual(Date.now());
      expect(locations.has(order.locationId)).toBe(true);
    }
    expect(new Set(orders.map((o) => o.companyName)).size).toBe(3);
    expect(new Set(orders.map((o) => o.status))).toEqual(new Set(['draft', 'expected', 'cancelled']));
  });

  it('is deterministic: the same seed gives the same keys and orders, another seed other ones', async () => {
    const [same, other] = await Promise.all([startHarness({ seedSize: 'default' }), startHarness({ seedSize: 'default', seed: 'another day' })]);
    try {
      const strip = (o: { environments: unknown }) => JSON.stringify(o.environments).replace(/127\.0\.0\.1:\d+/g, 'host');
      expect(strip(same.sandbox)).toBe(strip(h.sandbox));
      expect(strip(other.sandbox)).not.toBe(strip(h.sandbox));
      const list = async (harness: typeof h) => ((await harness.control('GET', '/environments/test/todays-orders')).body.orders as Today[]).map((o) => [o.orderRef, o.orderId, o.barcode, o.bundleId]);
      expect(await list(same)).toEqual(await list(h));
      expect(await list(other)).not.toEqual(await list(h));
    } finally {
      await Promise.all([same.close(), other.close()]);
    }
  });

  it('the description has at least two companies per environment, keys, locations and a revoked key', () => {
    for (const env of ['test', 'live'] as const) {
      const description = h.sandbox.environments[env];
      expect(description.companies.length).toBeGreaterThanOrEqual(2);
      for (const company of description.companies) {
        expect(company.apiKey).toMatch(new RegExp(`^sk_${env}_`));
        expect(company.locationIds.length).toBeGreaterThan(0);
      }
      expect(description.revokedKey).toMatch(new RegExp(`^sk_${env}_`));
    }
  });
});

describe('control API: operations', () => {
  it('reset goes back to the seed: created orders gone, issued keys gone, revoked seed key valid again, settings restored', async () => {
    const created = (await h.api('POST', '/orders', { body: newOrder(h.location()) })).body;
    const issued = (await h.control('POST', '/environments/test/keys', { companies: ['rijnland'] })).body.key;
    await h.control('POST', '/environments/test/keys/revoke', { apiKey: h.key(1) });
    await h.control('PATCH', '/environments/test/companies/devries/settings', { orientation: 'landscape', printSize: 'A4' });
    const firstSeeded = (await todays())[0]!;
    await h.control('POST', `/environments/test/orders/${firstSeeded.orderId}/status`, { status: 'lost' });

    expect((await h.control('POST', '/reset', {})).body).toEqual({ reset: true, keepWebhooks: false });
    expect((await h.api('GET', `/orders/label/${created.orderId}`)).status).toBe(404);
    expect((await h.api('GET', `/coverage/postal-codes/${h.location(2)}`, { key: issued })).status).toBe(401);
    expect((await h.api('GET', `/coverage/postal-codes/${h.location(1)}`, { key: h.key(1) })).status).toBe(200);
    const companies = (await h.control('GET', '/environments/test/companies')).body.companies;
    expect(companies.find((c: { id: string }) => c.id === 'devries').settings).toEqual({ orientation: 'portrait', printSize: 'A6' });
    expect((await todays())[0]).toEqual(firstSeeded);
  });

  it('reset can keep webhook registrations', async () => {
    const receiver = await startReceiver();
    try {
      await h.control('POST', '/environments/test/webhooks', { company: 'noordwind', url: receiver.url });
      await h.control('POST', '/reset', { keepWebhooks: true });
      expect((await h.control('GET', '/environments/test/webhooks')).body.webhooks).toHaveLength(1);
      await h.control('POST', '/reset', {});
      expect((await h.control('GET', '/environments/test/webhooks')).body.webhooks).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('rejects bad operator input with 400 and unknown things with 404', async () => {
    expect((await h.control('POST', '/environments/test/webhooks', { company: 'noordwind', url: 'ftp://x' })).status).toBe(400);
    expect((await h.control('POST', '/environments/test/webhooks', { company: 'nobody', url: 'http://127.0.0.1:1/x' })).status).toBe(404);
    expect((await h.control('POST', '/environments/test/webhooks', { company: 'noordwind', url: 'http://127.0.0.1:1/x', statuses: ['shipped'] })).status).toBe(400);
    expect((await h.control('PATCH', '/environments/test/companies/noordwind/settings', { orientation: 'diagonal' })).status).toBe(400);
    expect((await h.control('PATCH', '/environments/test/companies/noordwind/settings', {})).status).toBe(400);
    expect((await h.control('GET', '/environments/staging/todays-orders')).status).toBe(404);
    expect((await h.control('POST', '/environments/test/orders/nope/status', { status: 'expected' })).status).toBe(404);
    expect((await h.control('POST', '/environments/test/keys/revoke', { apiKey: 'sk_test_nope' })).status).toBe(404);
  });

  it('finds orders by orderRef, barcode or bundle', async () => {
    const first = (await todays())[0]!;
    const byRef = (await h.control('GET', `/environments/test/orders?orderRef=${encodeURIComponent(first.orderRef)}`)).body.orders;
    expect(byRef.map((o: { orderId: string }) => o.orderId)).toEqual([first.orderId]);
    const byBarcode = (await h.control('GET', `/environments/test/orders?barcode=${first.barcode}`)).body.orders;
    expect(byBarcode).toHaveLength(1);
    const byBundle = (await h.control('GET', `/environments/test/orders?bundleId=${first.bundleId}`)).body.orders;
    expect(byBundle.length).toBe((await todays()).filter((o) => o.bundleId === first.bundleId).length);
  });
});

describe('control API: the virtual printer', () => {
  it('lists the printer of the description, forwards faults and lists and renders printed labels', async () => {
    const [described] = h.sandbox.printers;
    expect(described).toEqual({ name: 'Virtual Zebra', host: '127.0.0.1', port: expect.any(Number), discoveryPort: expect.any(Number) });
    const printers = (await h.control('GET', '/printers')).body.printers;
    expect(printers).toEqual([expect.objectContaining({ name: 'Virtual Zebra', port: described!.port, listening: true })]);

    const order = (await todays()).find((o) => o.companyName.startsWith('Noordwind') && o.status === 'draft')!;
    const zpl = Buffer.from((await h.api('GET', `/orders/label/${order.orderId}?format=zpl&orientation=portrait`)).body.label, 'base64');
    await new Promise<void>((resolve, reject) => {
      const socket = connect(described!.port, '127.0.0.1', () => socket.end(zpl));
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const printed = await waitForValue(async () => {
      const labels = (await h.control('GET', '/printers/0/printed')).body.labels as { zpl: string; index: number }[];
      return labels.length > 0 ? labels : null;
    }, 'the label at the printer', 5000, 100);
    expect(printed).toHaveLength(1);
    expect(printed[0]!.zpl).toContain(order.barcode);
    const png = await call('GET', `${h.sandbox.control.baseUrl}/printers/Virtual%20Zebra/printed/0/png`, { headers: { authorization: `Bearer ${h.sandbox.control.token}` } });
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect((await h.control('GET', '/printers/0/printed/7/png')).status).toBe(404);

    const faults = await h.control('PATCH', '/printers/0/faults', { paperOut: true });
    expect(faults.body.paperOut).toBe(true);
    expect((await h.control('GET', '/printers/0')).body.faults.paperOut).toBe(true);
    expect((await h.control('PATCH', '/printers/0/faults', { paperOut: 'yes' })).status).toBe(400);
    expect((await h.control('DELETE', '/printers/0/faults')).body.paperOut).toBe(false);
    expect((await h.control('PUT', '/printers/0/speed', { labelsPerSecond: 4 })).body.labelsPerSecond).toBe(4);
    expect((await h.control('GET', '/printers/9')).status).toBe(404);
  });
});
