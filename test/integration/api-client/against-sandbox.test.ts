/**
 * The client against the sandbox over real HTTP: every endpoint, every error code the service can
 * produce, and the retry policy under the sandbox's fault knobs (429 storms, 5xx bursts, latency,
 * dropped connections, labels not generated yet), set through its control API.
 *
 * MALFORMED_RESPONSE is not here: the sandbox only sends well-formed answers, so that code is proven
 * against purpose-built servers in endpoints.test.ts.
 */
import { PDFDocument } from 'pdf-lib';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryClient, DeliveryApiError, type DeliveryClient, type DeliveryClientOptions } from '../../../src/main/api';
import { pickupTypeFilterMatches } from '../../../src/shared/api/schemas';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index';

// The Delivery Service API specification (v1.0.0), pickup point rules: a 406 whose message says no
// carrier offering pickup point delivery is available for this address.
const pickupPointRejectedText = 'No carrier offering pickup point delivery is available for this address';

let sandbox: RunningSandbox;
const clients: DeliveryClient[] = [];

const quietFaults = {
  latencyMs: 0,
  latencyJitterMs: 0,
  errorRate: 0,
  rateLimitRate: 0,
  dropRate: 0,
  dropMode: 'either',
  labelDelayMs: 0,
  labelNotReadyStatus: 404,
} as const;

beforeAll(async () => {
  sandbox = await startSandbox({ printers: 0, seedSize: 'small', rateLimit: { requestsPerSecond: 0 }, faults: quietFaults });
});
afterEach(async () => {
  await control('PATCH', '/settings', { faults: quietFaults, rateLimit: { requestsPerSecond: 0 } });
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await sandbox.close();
});

async function control(method: 'GET' | 'PATCH' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const answer = await request(`${sandbox.control.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.control.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await answer.body.json();
  if (answer.statusCode >= 300) throw new Error(`control ${method} ${path}: ${answer.statusCode} ${JSON.stringify(json)}`);
  return json;
}
const setFaults = (faults: Partial<Record<keyof typeof quietFaults, number | string>>) => control('PATCH', '/settings', { faults });

const company = (index: number) => sandbox.environments.test.companies[index]!;
const noordwind = () => company(0);
const deVries = () => company(1);
const amsterdamLocation = () => noordwind().locationIds[0]!;

interface Observed {
  api: DeliveryClient;
  retries: Array<Record<string, unknown>>;
  logLines: string[];
}

function client(options: Partial<DeliveryClientOptions> & { key?: string | null } = {}): Observed {
  const { key, ...rest } = options;
  const retries: Array<Record<string, unknown>> = [];
  const logLines: string[] = [];
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    logLines.push(`${level} ${message} ${JSON.stringify(fields)}`);
    if (message.includes('retried')) retries.push(fields ?? {});
  };
  const api = createDeliveryClient({
    baseUrl: sandbox.environments.test.baseUrl,
    environment: 'test',
    getApiKey: async () => (key === undefined ? noordwind().apiKey : key),
    retry: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 200, totalBudgetMs: 6000, retryAfterCapMs: 3000 },
    timeouts: { connectMs: 1000, responseMs: 1000, bodyIdleMs: 1000, attemptMs: 3000 },
    labelWait: { maxAttempts: 6, totalMs: 5000, delayMs: 200 },
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    ...rest,
  });
  clients.push(api);
  return { api, retries, logLines };
}

async function outcome<T>(promise: Promise<T>): Promise<{ value?: T; error?: DeliveryApiError; ms: number }> {
  const start = performance.now();
  try {
    const value = await promise;
    return { value, ms: performance.now() - start };
  } catch (error) {
    if (!(error instanceof DeliveryApiError)) throw error;
    return { error, ms: performance.now() - start };
  }
}

const amsterdam = { street: 'Kerkstraat', houseNumber: '12', suffix: '', postalCode: '1017 GC', city: 'Amsterdam', countryCode: 'NL' };
const groningen = { ...amsterdam, postalCode: '9711 AA', city: 'Groningen' };
let refCounter = 0;
const newOrder = (extra: Record<string, unknown> = {}) => ({
  locationId: amsterdamLocation(),
  orderRef: `API-CLIENT-${process.pid}-${(refCounter += 1)}`,
  deliveryName: 'Iris Visser',
  deliveryAddress: amsterdam,
  ...extra,
});

async function pagesOfBundle(api: DeliveryClient, bundleId: string): Promise<number> {
  const labels = await api.getBundleLabels(bundleId);
  let pages = 0;
  for (const label of labels) pages += (await PDFDocument.load(label.bytes)).getPageCount();
  return pages;
}

describe('every endpoint', () => {
  it('checks an address: deliverable, and out of area with the reason', async () => {
    const { api } = client();
    const ok = await api.checkAddress(amsterdamLocation(), { deliveryAddress: amsterdam });
    expect(ok.deliverable).toBe(true);
    expect(ok.resolvedAddress.city).toBe('Amsterdam');
    const no = await api.checkAddress(amsterdamLocation(), { deliveryAddress: groningen });
    expect(no).toMatchObject({ deliverable: false, reason: 'OUT_OF_AREA' });
  });

  it('checks a postal code', async () => {
    const { api } = client();
    await expect(api.checkPostalCode(amsterdamLocation(), { postalCode: '1017gc', countryCode: 'NL' })).resolves.toEqual({ deliverable: true });
    await expect(api.checkPostalCode(amsterdamLocation(), { postalCode: '9711AA', countryCode: 'NL' })).resolves.toMatchObject({ deliverable: false, reason: 'OUT_OF_AREA' });
  });

  it('lists the coverage of a location', async () => {
    const { api } = client();
    const coverage = await api.coverage(amsterdamLocation());
    expect(coverage.NL).toContain('1');
    expect(Object.values(coverage).every((list) => list.length > 0)).toBe(true);
  });

  it('searches pickup points with repeated type filters', async () => {
    const { api } = client();
    const result = await api.searchPickupPoints({ countryCode: 'NL', postalCode: '1017GC', maxResults: 5, types: ['PARCEL_LOCKER', 'MAILBOX_POBOX'] });
    expect(result.points.length).toBeGreaterThan(0);
    expect(result.points.length).toBeLessThanOrEqual(5);
    const allowed = [...pickupTypeFilterMatches.PARCEL_LOCKER, ...pickupTypeFilterMatches.MAILBOX_POBOX];
    for (const point of result.points) expect(allowed).toContain(point.type);
    const distances = result.points.map((point) => point.distanceMeters ?? 0);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });

  it('creates an order and fetches its ZPL in the pinned orientation, whatever the company setting', async () => {
    const { api } = client({ orientation: 'landscape' });
    await control('PATCH', `/environments/test/companies/noordwind/settings`, { orientation: 'portrait' });
    try {
      const created = await api.createOrder(newOrder());
      expect(created.status).toBe('draft');
      // Both orientations use the A6 roll (^PW839 ^LL1184); landscape turns every field (^FWR).
      const landscape = await api.getLabel(created.orderId, { format: 'zpl' });
      const portrait = await api.getLabel(created.orderId, { format: 'zpl', orientation: 'portrait' });
      const landscapeZpl = landscape.format === 'zpl' ? landscape.zpl : '';
      const portraitZpl = portrait.format === 'zpl' ? portrait.zpl : '';
      expect(landscapeZpl).toMatch(/^\s*\^XA[\s\S]*\^XZ\s*$/);
      expect(landscapeZpl).toContain('^FWR');
      expect(portraitZpl).toContain('^FWN');
      expect(portraitZpl).not.toContain('^FWR');
      expect(portraitZpl).toContain(created.barcode);
    } finally {
      await control('PATCH', `/environments/test/companies/noordwind/settings`, { orientation: 'landscape' });
    }
  });

  it('fetches PDF labels, with a print size', async () => {
    const { api } = client();
    const created = await api.createOrder(newOrder());
    const a6 = await api.getLabel(created.orderId, { format: 'pdf' });
    const a4 = await api.getLabel(created.orderId, { format: 'pdf', printSize: 'A4' });
    const size = async (bytes: Uint8Array) => (await PDFDocument.load(bytes)).getPage(0).getSize();
    const [small, large] = await Promise.all([size(a6.bytes), size(a4.bytes)]);
    expect(large.width * large.height).toBeGreaterThan(small.width * small.height * 3);
  });

  it("fetches a bundle's labels: one page per order", async () => {
    const { api } = client();
    const first = await api.createOrder(newOrder());
    await api.createOrder(newOrder({ orderBundleId: first.orderBundle.bundleId }));
    await api.createOrder(newOrder({ orderBundleId: first.orderBundle.bundleId }));
    expect(await pagesOfBundle(api, first.orderBundle.bundleId)).toBe(3);
  });

  it('cancels an order, and a second cancel is refused', async () => {
    const { api } = client();
    const created = await api.createOrder(newOrder());
    await expect(api.cancelOrder(created.orderId)).resolves.toMatchObject({ orderId: created.orderId, status: 'cancelled' });
    const again = await outcome(api.cancelOrder(created.orderId));
    expect(again.error?.code).toBe('VALIDATION');
    expect(again.error?.message).toMatch(/can no longer be cancelled/);
  });
});

describe('every error code', () => {
  it('VALIDATION locally: nothing is sent', async () => {
    const { api, logLines } = client();
    const { error } = await outcome(api.createOrder(newOrder({ deliveryName: '' })));
    expect(error?.code).toBe('VALIDATION');
    expect(error?.attempts).toBe(0);
    expect(logLines).toHaveLength(0);
  });

  it("VALIDATION from the service carries its messages", async () => {
    const { api } = client();
    const { error } = await outcome(api.createOrder(newOrder({ deliveryAddress: groningen })));
    expect(error?.code).toBe('VALIDATION');
    expect(error?.status).toBe(400);
    expect(error?.details?.[0]).toMatch(/not deliverable/);
    const badLocation = await outcome(api.coverage('not-a-number'));
    expect(badLocation.error?.details).toEqual(['locationId must be a numeric string']);
  });

  it('KEY_MISSING', async () => {
    const { api } = client({ key: null });
    expect((await outcome(api.coverage(amsterdamLocation()))).error?.code).toBe('KEY_MISSING');
  });

  it('KEY_REJECTED for a revoked key and for a live key used on test', async () => {
    const revoked = client({ key: sandbox.environments.test.revokedKey });
    const { error } = await outcome(revoked.api.coverage(amsterdamLocation()));
    expect([error?.code, error?.status, error?.attempts]).toEqual(['KEY_REJECTED', 401, 1]);
    const wrongEnvironment = client({ key: sandbox.environments.live.companies[0]!.apiKey });
    expect((await outcome(wrongEnvironment.api.coverage(amsterdamLocation()))).error?.code).toBe('KEY_REJECTED');
  });

  it("FORBIDDEN on another company's location and order", async () => {
    const { api } = client();
    const location = await outcome(api.coverage(deVries().locationIds[0]!));
    expect([location.error?.code, location.error?.status]).toEqual(['FORBIDDEN', 403]);
    const orders = (await control('GET', '/environments/test/todays-orders')) as { orders: Array<{ orderId: string; companyName: string }> };
    const foreign = orders.orders.find((order) => order.companyName === deVries().name);
    expect(foreign).toBeDefined();
    const label = await outcome(api.getLabel(foreign!.orderId, { format: 'zpl' }));
    expect(label.error?.code).toBe('FORBIDDEN');
    expect(label.error?.message).toContain(foreign!.orderId);
  });

  it('ORDER_NOT_FOUND for an unknown order or bundle, at once', async () => {
    const { api } = client();
    const label = await outcome(api.getLabel('00000000-0000-0000-0000-000000000000', { format: 'zpl' }));
    expect([label.error?.code, label.error?.status, label.error?.attempts]).toEqual(['ORDER_NOT_FOUND', 404, 1]);
    expect(label.ms).toBeLessThan(500);
    const bundle = await outcome(api.getBundleLabels('BND-NOSUCH'));
    expect(bundle.error?.code).toBe('ORDER_NOT_FOUND');
    expect(bundle.error?.message).toBe('Bundle BND-NOSUCH was not found (HTTP 404).');
    expect((await outcome(api.cancelOrder('nope'))).error?.code).toBe('ORDER_NOT_FOUND');
  });

  it("PICKUP_POINT_REJECTED with the service's message", async () => {
    const { api } = client({ key: deVries().apiKey });
    const { points } = await api.searchPickupPoints({ countryCode: 'NL', postalCode: '2801AB', maxResults: 1 });
    const pudoId = points[0]?.pudoId;
    expect(pudoId).toBeDefined();
    const { error } = await outcome(
      api.createOrder({ locationId: deVries().locationIds[0]!, deliveryName: 'Iris Visser', deliveryAddress: { ...amsterdam, postalCode: '2801 AB', city: 'Gouda' }, pudoId }),
    );
    expect([error?.code, error?.status]).toEqual(['PICKUP_POINT_REJECTED', 406]);
    expect(error?.serviceMessage).toBe(pickupPointRejectedText);
  });

  it('RATE_LIMITED when a 429 storm outlasts the attempts, honouring Retry-After', async () => {
    await setFaults({ rateLimitRate: 1 });
    const { api, retries } = client({ retry: { maxAttempts: 2, baseDelayMs: 20, maxDelayMs: 50, totalBudgetMs: 6000, retryAfterCapMs: 3000 } });
    const { error, ms } = await outcome(api.coverage(amsterdamLocation()));
    expect([error?.code, error?.status, error?.attempts, error?.retryAfterMs]).toEqual(['RATE_LIMITED', 429, 2, 1000]);
    expect(retries).toHaveLength(1);
    expect(ms).toBeGreaterThanOrEqual(990);
    expect(ms).toBeLessThan(2500);
  });

  it('SERVER_ERROR when a 5xx burst outlasts the attempts', async () => {
    await setFaults({ errorRate: 1 });
    const { api } = client();
    const { error } = await outcome(api.getLabel('any', { format: 'zpl' }));
    expect(error?.code).toBe('SERVER_ERROR');
    expect([500, 502, 503]).toContain(error?.status);
    expect(error?.attempts).toBe(4);
  });

  it('NETWORK when every connection is dropped', async () => {
    await setFaults({ dropRate: 1, dropMode: 'before' });
    const { api } = client();
    const { error } = await outcome(api.checkPostalCode(amsterdamLocation(), { postalCode: '1017GC', countryCode: 'NL' }));
    expect([error?.code, error?.attempts]).toEqual(['NETWORK', 4]);
  });

  it('TIMEOUT when every answer is slower than the response timeout', async () => {
    await setFaults({ latencyMs: 700 });
    const { api } = client({ retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 10 }, timeouts: { connectMs: 1000, responseMs: 300, bodyIdleMs: 300, attemptMs: 1000 } });
    const { error, ms } = await outcome(api.coverage(amsterdamLocation()));
    expect([error?.code, error?.attempts]).toEqual(['TIMEOUT', 2]);
    expect(ms).toBeLessThan(2 * 300 + 400);
  });

  it('LABEL_NOT_READY when the label is further away than the wait allows, without waiting it out', async () => {
    await setFaults({ labelDelayMs: 60_000 });
    const { api } = client();
    const created = await api.createOrder(newOrder());
    const { error, ms } = await outcome(api.getLabel(created.orderId, { format: 'zpl' }));
    expect([error?.code, error?.status]).toEqual(['LABEL_NOT_READY', 404]);
    expect(error?.retryAfterMs).toBe(60_000);
    expect(ms).toBeLessThan(1000);
  });

  describe('OUTCOME_UNKNOWN: POST /orders is sent once, never repeated', () => {
    it('a 5xx: the sandbox refused before processing, so nothing was created', async () => {
      const { api } = client();
      const first = await api.createOrder(newOrder());
      await setFaults({ errorRate: 1 });
      const { error } = await outcome(api.createOrder(newOrder({ orderBundleId: first.orderBundle.bundleId })));
      await setFaults({ errorRate: 0 });
      expect([error?.code, error?.attempts]).toEqual(['OUTCOME_UNKNOWN', 1]);
      expect(error?.message).toMatch(/Check the order list/);
      expect(await pagesOfBundle(api, first.orderBundle.bundleId)).toBe(1);
    });

    it('a drop after processing: created exactly once, not twice', async () => {
      const { api } = client();
      const first = await api.createOrder(newOrder());
      await setFaults({ dropRate: 1, dropMode: 'after' });
      const { error } = await outcome(api.createOrder(newOrder({ orderBundleId: first.orderBundle.bundleId })));
      await setFaults({ dropRate: 0 });
      expect([error?.code, error?.attempts]).toEqual(['OUTCOME_UNKNOWN', 1]);
      expect(await pagesOfBundle(api, first.orderBundle.bundleId)).toBe(2);
    });

    it('a drop before processing: reported the same way, and nothing was created', async () => {
      const { api } = client();
      const first = await api.createOrder(newOrder());
      await setFaults({ dropRate: 1, dropMode: 'before' });
      const { error } = await outcome(api.createOrder(newOrder({ orderBundleId: first.orderBundle.bundleId })));
      await setFaults({ dropRate: 0 });
      expect(error?.code).toBe('OUTCOME_UNKNOWN');
      expect(await pagesOfBundle(api, first.orderBundle.bundleId)).toBe(1);
    });

    it('a timeout: the order is not sent again', async () => {
      const { api } = client({ timeouts: { connectMs: 1000, responseMs: 200, bodyIdleMs: 200, attemptMs: 1000 } });
      const first = await api.createOrder(newOrder());
      await setFaults({ latencyMs: 400 });
      const { error } = await outcome(api.createOrder(newOrder({ orderBundleId: first.orderBundle.bundleId })));
      await setFaults({ latencyMs: 0 });
      expect([error?.code, error?.attempts]).toEqual(['OUTCOME_UNKNOWN', 1]);
      // Whether the service went on to create it is exactly what the client cannot know; what it
      // guarantees is that it did not send the order a second time. This wait proves that nothing
      // more happens: it lasts as long as the service's added latency, so the first request is done.
      await new Promise((resolve) => setTimeout(resolve, 400));
      const pages = await pagesOfBundle(api, first.orderBundle.bundleId);
      expect(pages).toBeGreaterThanOrEqual(1);
      expect(pages).toBeLessThanOrEqual(2);
    });

    it('a 429 says the order was not created', async () => {
      const { api } = client();
      await setFaults({ rateLimitRate: 1 });
      const { error } = await outcome(api.createOrder(newOrder()));
      expect([error?.code, error?.attempts]).toEqual(['RATE_LIMITED', 1]);
      expect(error?.message).toContain('The order was not created');
    });
  });
});

describe('the retry policy under the fault knobs', () => {
  it.each([404, 409, 425, 503])('waits out a label answered %i "not generated yet", then prints', async (status) => {
    await setFaults({ labelDelayMs: 300, labelNotReadyStatus: status });
    const { api, retries } = client();
    const created = await api.createOrder(newOrder());
    const { value, error, ms } = await outcome(api.getLabel(created.orderId, { format: 'zpl' }));
    expect(error).toBeUndefined();
    expect(value?.format).toBe('zpl');
    expect(retries.map((r) => r.reason)).toEqual(['not-ready']);
    // The sandbox's Retry-After is whole seconds (1 s here), and the client honours it.
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(2500);
  });

  it("waits out a just-created bundle's labels", async () => {
    await setFaults({ labelDelayMs: 300 });
    const { api } = client();
    const created = await api.createOrder(newOrder());
    await expect(api.getBundleLabels(created.orderBundle.bundleId)).resolves.toHaveLength(1);
  });

  it('rides out a 5xx burst and succeeds', async () => {
    await setFaults({ errorRate: 1 });
    const { api, retries } = client({ retry: { maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 200, totalBudgetMs: 6000 } });
    setTimeout(() => void setFaults({ errorRate: 0 }), 400);
    const { value, error, ms } = await outcome(api.coverage(amsterdamLocation()));
    expect(error).toBeUndefined();
    expect(value?.NL).toBeDefined();
    expect(retries.length).toBeGreaterThanOrEqual(2);
    expect(retries.every((r) => r.code === 'SERVER_ERROR')).toBe(true);
    expect(ms).toBeLessThan(2000);
  });

  it('rides out dropped connections and succeeds', async () => {
    await setFaults({ dropRate: 1, dropMode: 'before' });
    const { api, retries } = client({ retry: { maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 200, totalBudgetMs: 6000 } });
    setTimeout(() => void setFaults({ dropRate: 0 }), 400);
    const { value, error } = await outcome(api.searchPickupPoints({ countryCode: 'NL', postalCode: '1017GC', maxResults: 2 }));
    expect(error).toBeUndefined();
    expect(value?.points.length).toBeGreaterThan(0);
    expect(retries.every((r) => r.code === 'NETWORK')).toBe(true);
  });

  it("rides out the sandbox's real rate limit, honouring its Retry-After", async () => {
    await control('PATCH', '/settings', { rateLimit: { requestsPerSecond: 2, burst: 2 } });
    const { api, retries } = client();
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 5 }, () => outcome(api.coverage(amsterdamLocation()))));
    const ms = performance.now() - started;
    expect(results.map((r) => r.error?.code)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(retries.length).toBeGreaterThanOrEqual(3);
    expect(retries.every((r) => r.code === 'RATE_LIMITED' && Number(r.delayMs) >= 1000)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(990);
    expect(ms).toBeLessThan(6000);
  });

  it('keeps the total time within the budget in an endless storm', async () => {
    await setFaults({ errorRate: 1 });
    const { api } = client({ retry: { maxAttempts: 1000, baseDelayMs: 50, maxDelayMs: 200, totalBudgetMs: 1500 } });
    const { error, ms } = await outcome(api.getBundleLabels('BND-ANY'));
    expect(error?.code).toBe('SERVER_ERROR');
    expect(error?.attempts).toBeGreaterThan(3);
    expect(ms).toBeLessThan(1500 + 300);
  });

  it('copes with latency and jitter inside the timeout', async () => {
    await setFaults({ latencyMs: 50, latencyJitterMs: 150 });
    const { api, retries } = client();
    const created = await api.createOrder(newOrder());
    await expect(api.getLabel(created.orderId, { format: 'pdf' })).resolves.toMatchObject({ format: 'pdf' });
    expect(retries).toHaveLength(0);
  });

  it('a cancel whose answer was lost is retried, and the refusal says it may already be cancelled', async () => {
    const { api } = client();
    const created = await api.createOrder(newOrder());
    await setFaults({ dropRate: 1, dropMode: 'after' });
    setTimeout(() => void setFaults({ dropRate: 0 }), 150);
    const { error } = await outcome(api.cancelOrder(created.orderId));
    expect(error?.code).toBe('VALIDATION');
    expect(error?.message).toMatch(/earlier attempt may already have cancelled it/);
    const order = (await control('GET', `/environments/test/orders/${created.orderId}`)) as { status: string };
    expect(order.status).toBe('cancelled');
  });

  it('holds the concurrency limit: 9 slow labels through 3 slots take three rounds', async () => {
    await setFaults({ latencyMs: 200 });
    const { api } = client({ concurrency: 3 });
    const orders = (await control('GET', '/environments/test/todays-orders')) as { orders: Array<{ orderId: string; companyName: string; zplAvailable: boolean }> };
    const own = orders.orders.filter((o) => o.companyName === noordwind().name && o.zplAvailable).slice(0, 9);
    expect(own).toHaveLength(9);
    const started = performance.now();
    const labels = await Promise.all(own.map((o) => api.getLabel(o.orderId, { format: 'zpl' })));
    const ms = performance.now() - started;
    expect(labels.every((label) => label.format === 'zpl')).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(3 * 200 - 20);
  });

  it('never hands the key to the logger', async () => {
    await setFaults({ errorRate: 1 });
    const { api, logLines } = client({ retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    await outcome(api.coverage(amsterdamLocation()));
    await setFaults({ errorRate: 0 });
    await api.coverage(amsterdamLocation());
    expect(logLines.length).toBeGreaterThanOrEqual(3);
    expect(logLines.join('\n')).not.toContain(noordwind().apiKey);
  });
});
