/**
 * The retry policy over real sockets: exact attempt sequences against a scripted server, the waits
 * between them, timeouts, dropped connections, the concurrency limit and the never-repeated
 * POST /orders.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeliveryClient, DeliveryApiError, type DeliveryClientOptions } from '../../../src/main/api';
import { orderRecord, pdfBase64, sendJson, startScriptedServer, zplBase64, type Script, type ScriptedServer } from './scripted-server';
import { waitUntil } from '../../support/wait-until';

const apiKey = 'sk_test_retry_key';
const servers: ScriptedServer[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const fast: Partial<DeliveryClientOptions> = {
  retry: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 100, totalBudgetMs: 5000, retryAfterCapMs: 2000 },
  timeouts: { connectMs: 500, responseMs: 300, bodyIdleMs: 300, attemptMs: 1000 },
  labelWait: { maxAttempts: 5, totalMs: 1500, delayMs: 100 },
};

async function setup(script: Script, options: Partial<DeliveryClientOptions> = {}) {
  const server = await startScriptedServer(script);
  servers.push(server);
  const retries: Array<Record<string, unknown>> = [];
  const api = createDeliveryClient({
    baseUrl: server.baseUrl,
    getApiKey: async () => apiKey,
    logger: { info: () => undefined, warn: (message, fields) => message.includes('retried') && retries.push(fields ?? {}), error: () => undefined },
    ...fast,
    ...options,
  });
  closers.push(() => api.close());
  return { server, api, retries };
}

async function timed<T>(promise: Promise<T>): Promise<{ error: DeliveryApiError | undefined; value: T | undefined; ms: number }> {
  const start = performance.now();
  try {
    const value = await promise;
    return { value, error: undefined, ms: performance.now() - start };
  } catch (error) {
    if (!(error instanceof DeliveryApiError)) throw error;
    return { value: undefined, error, ms: performance.now() - start };
  }
}

const gaps = (server: ScriptedServer) => server.requests.slice(1).map((r, i) => r.at - (server.requests[i]?.at ?? 0));
const address = { street: 'Damrak', houseNumber: '1', postalCode: '1012 LG', countryCode: 'NL' };
const newOrder = { locationId: '101', orderRef: 'REF-777', deliveryName: 'Ada', deliveryAddress: address };

describe('429 storms', () => {
  it('honours Retry-After in seconds between attempts, then succeeds', async () => {
    const { server, api } = await setup((req, res) =>
      req.index < 2 ? sendJson(res, 429, { statusCode: 429, message: 'Too Many Requests' }, { 'retry-after': '0.25' }) : sendJson(res, 200, { label: zplBase64 }),
    );
    const { value, error } = await timed(api.getLabel('ORD-1', { format: 'zpl' }));
    expect(error).toBeUndefined();
    expect(value?.format).toBe('zpl');
    expect(server.requests).toHaveLength(3);
    for (const gap of gaps(server)) expect(gap).toBeGreaterThanOrEqual(240);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const { server, api } = await setup((req, res) =>
      req.index === 0 ? sendJson(res, 429, '', { 'retry-after': new Date(Date.now() + 1500).toUTCString() }) : sendJson(res, 200, { NL: ['1011'] }),
    );
    await api.coverage('101');
    // HTTP dates have whole-second resolution: the wait is between 0.5 and 1.5 s.
    expect(gaps(server)[0]).toBeGreaterThanOrEqual(450);
  });

  it('a storm that never ends gives RATE_LIMITED after maxAttempts, within the budget', async () => {
    const { server, api, retries } = await setup((_req, res) => sendJson(res, 429, '', { 'retry-after': '0.1' }));
    const { error, ms } = await timed(api.searchPickupPoints({ countryCode: 'NL', postalCode: '1012LG' }));
    expect(error?.code).toBe('RATE_LIMITED');
    expect(error?.attempts).toBe(4);
    expect(error?.retryAfterMs).toBe(100);
    expect(server.requests).toHaveLength(4);
    expect(retries).toHaveLength(3);
    expect(ms).toBeLessThan(2000);
  });

  it('a Retry-After beyond the cap ends the retries at once and tells the caller the wait', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 429, '', { 'retry-after': '120' }));
    const { error, ms } = await timed(api.coverage('101'));
    expect(error?.code).toBe('RATE_LIMITED');
    expect(error?.retryAfterMs).toBe(120_000);
    expect(error?.message).toContain('Try again in 120 s');
    expect(server.requests).toHaveLength(1);
    expect(ms).toBeLessThan(500);
  });
});

describe('5xx bursts', () => {
  it('retries a burst of 500/502/503 and succeeds', async () => {
    const statuses = [500, 502, 503];
    const { server, api } = await setup((req, res) => {
      const status = statuses[req.index];
      if (status) sendJson(res, status, '<html>oops</html>');
      else sendJson(res, 200, { deliverable: true });
    });
    await expect(api.checkPostalCode('101', { postalCode: '1012LG', countryCode: 'NL' })).resolves.toEqual({ deliverable: true });
    expect(server.requests).toHaveLength(4);
  });

  it('gives SERVER_ERROR when the burst outlasts the attempts', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 500, { statusCode: 500, message: 'Internal server error' }));
    const { error } = await timed(api.checkAddress('101', { deliveryAddress: address }));
    expect(error?.code).toBe('SERVER_ERROR');
    expect(error?.status).toBe(500);
    expect(server.requests).toHaveLength(4);
  });

  it('total time stays within the budget however many attempts are allowed', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 503, ''), {
      retry: { maxAttempts: 1000, baseDelayMs: 50, maxDelayMs: 200, totalBudgetMs: 1200 },
    });
    const { error, ms } = await timed(api.coverage('101'));
    expect(error?.code).toBe('SERVER_ERROR');
    expect(ms).toBeLessThan(1200 + 300);
    expect(server.requests.length).toBeGreaterThan(4);
    expect(server.requests.length).toBeLessThan(60);
  });

  it('spreads retries with jitter rather than a fixed rhythm', async () => {
    const { server, api } = await setup((req, res) => (req.index < 5 ? sendJson(res, 503, '') : sendJson(res, 200, { NL: ['1'] })), {
      retry: { maxAttempts: 6, baseDelayMs: 80, maxDelayMs: 80, totalBudgetMs: 5000 },
    });
    await api.coverage('101');
    const observed = gaps(server);
    expect(observed).toHaveLength(5);
    for (const gap of observed) expect(gap).toBeLessThan(80 + 150);
    expect(Math.max(...observed) - Math.min(...observed)).toBeGreaterThan(5);
  });
});

describe('timeouts', () => {
  it('a server that never answers gives TIMEOUT after bounded attempts', async () => {
    const { server, api } = await setup(() => undefined, { retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 10, totalBudgetMs: 5000 } });
    const { error, ms } = await timed(api.getLabel('ORD-1', { format: 'zpl' }));
    expect(error?.code).toBe('TIMEOUT');
    expect(server.requests).toHaveLength(3);
    expect(ms).toBeGreaterThanOrEqual(3 * 290);
    expect(ms).toBeLessThan(3 * 300 + 600);
  });

  it('an answer slower than the response timeout is abandoned and retried', async () => {
    const { server, api } = await setup((req, res) => {
      setTimeout(() => sendJson(res, 200, { label: zplBase64 }), req.index === 0 ? 600 : 100);
    });
    const { value } = await timed(api.getLabel('ORD-1', { format: 'zpl' }));
    expect(value?.format).toBe('zpl');
    expect(server.requests).toHaveLength(2);
  });

  it('a body that trickles in forever is cut off by the attempt timeout', async () => {
    const { server, api } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"label":"');
      const drip = setInterval(() => res.write('QUFB'), 100);
      res.on('close', () => clearInterval(drip));
    }, { retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 10 }, timeouts: { responseMs: 300, bodyIdleMs: 300, attemptMs: 500, connectMs: 500 } });
    const { error, ms } = await timed(api.getLabel('ORD-1', { format: 'zpl' }));
    expect(error?.code).toBe('TIMEOUT');
    expect(server.requests).toHaveLength(2);
    expect(ms).toBeLessThan(2 * 500 + 400);
  });

  it('the attempt timeout is clipped to what is left of the budget', async () => {
    const { api } = await setup(() => undefined, {
      retry: { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 700 },
      timeouts: { connectMs: 500, responseMs: 500, bodyIdleMs: 500, attemptMs: 500 },
    });
    const { error, ms } = await timed(api.coverage('101'));
    expect(error?.code).toBe('TIMEOUT');
    expect(ms).toBeLessThan(700 + 300);
  });
});

describe('dropped connections', () => {
  it('retries a read when the server drops the connection, on a fresh connection', async () => {
    const { server, api } = await setup((req, res, raw) => {
      if (req.index < 2) raw.socket.destroy();
      else sendJson(res, 200, { label: pdfBase64 });
    });
    const label = await api.getLabel('ORD-1', { format: 'pdf' });
    expect(label.format).toBe('pdf');
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((r) => r.socketId)).size).toBe(3);
  });

  it('gives NETWORK when every attempt is dropped', async () => {
    const { server, api } = await setup((_req, _res, raw) => raw.socket.destroy());
    const { error } = await timed(api.getBundleLabels('BND-1'));
    expect(error?.code).toBe('NETWORK');
    expect(server.requests).toHaveLength(4);
  });

  it('a refused connection is NETWORK after bounded retries for reads', async () => {
    const port = await closedPort();
    const api = createDeliveryClient({ baseUrl: `http://127.0.0.1:${port}`, getApiKey: async () => apiKey, ...fast });
    closers.push(() => api.close());
    const { error, ms } = await timed(api.coverage('101'));
    expect(error?.code).toBe('NETWORK');
    expect(error?.attempts).toBe(4);
    expect(error?.message).toContain('ECONNREFUSED');
    expect(ms).toBeLessThan(1000);
  });
});

describe('POST /orders is never repeated', () => {
  it.each([
    ['a 500', ((_req, res) => sendJson(res, 500, '')) as Script],
    ['a 503 with Retry-After', ((_req, res) => sendJson(res, 503, '', { 'retry-after': '1' })) as Script],
    ['a dropped connection', ((_req, _res, raw) => raw.socket.destroy()) as Script],
    ['no answer', (() => undefined) as Script],
    ['a reset after the headers', ((_req, res, raw) => {
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"id":');
      setTimeout(() => raw.socket.destroy(), 20);
    }) as Script],
  ])('%s gives OUTCOME_UNKNOWN after exactly one request', async (_name, script) => {
    const { server, api } = await setup(script);
    const { error, ms } = await timed(api.createOrder(newOrder));
    expect(error?.code).toBe('OUTCOME_UNKNOWN');
    expect(error?.message).toMatch(/may or may not have been created/);
    expect(error?.message).toContain('REF-777');
    expect(error?.attempts).toBe(1);
    expect(ms).toBeLessThan(1500);
    // Proves that nothing more happens: a retry would follow within the base delay (20 ms here).
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('a 429 is RATE_LIMITED after exactly one request and says nothing was created', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 429, '', { 'retry-after': '1' }));
    const { error } = await timed(api.createOrder(newOrder));
    expect(error?.code).toBe('RATE_LIMITED');
    expect(error?.message).toContain('The order was not created');
    expect(server.requests).toHaveLength(1);
  });

  it('a refused connection is NETWORK, not retried: nothing was sent', async () => {
    const port = await closedPort();
    const api = createDeliveryClient({ baseUrl: `http://127.0.0.1:${port}`, getApiKey: async () => apiKey, ...fast });
    closers.push(() => api.close());
    const { error } = await timed(api.createOrder(newOrder));
    expect(error?.code).toBe('NETWORK');
    expect(error?.attempts).toBe(1);
    expect(error?.message).toContain('The order was not created');
  });
});

describe('cancel is repeated like a read', () => {
  it('retries a 503 and returns the cancelled order', async () => {
    const { server, api } = await setup((req, res) => (req.index === 0 ? sendJson(res, 503, '') : sendJson(res, 200, orderRecord({ status: 'cancelled' }))));
    await expect(api.cancelOrder('ORD-501')).resolves.toMatchObject({ status: 'cancelled' });
    expect(server.requests.map((r) => r.method)).toEqual(['PATCH', 'PATCH']);
  });

  it('a refusal after a dropped first attempt warns that the order may already be cancelled', async () => {
    const { api } = await setup((req, res, raw) => {
      if (req.index === 0) raw.socket.destroy();
      else sendJson(res, 400, { statusCode: 400, message: ['Order can no longer be cancelled'], error: 'Bad Request' });
    });
    const { error } = await timed(api.cancelOrder('ORD-501'));
    expect(error?.code).toBe('VALIDATION');
    expect(error?.message).toMatch(/earlier attempt may already have cancelled it/);
  });
});

describe('labels not generated yet', () => {
  it('a 404 right after creating the order is waited out', async () => {
    let labelCalls = 0;
    const { server, api } = await setup((req, res) => {
      if (req.method === 'POST') return sendJson(res, 201, orderRecord());
      labelCalls += 1;
      return labelCalls <= 2 ? sendJson(res, 404, { statusCode: 404, message: 'Label not found' }) : sendJson(res, 200, { label: zplBase64 });
    });
    const created = await api.createOrder(newOrder);
    const label = await api.getLabel(created.orderId, { format: 'zpl' });
    expect(label.orderId).toBe('ORD-501');
    expect(server.requests).toHaveLength(4);
    for (const gap of gaps(server).slice(1)) expect(gap).toBeGreaterThanOrEqual(95);
  });

  it('a 404 on an order this client did not just create is ORDER_NOT_FOUND at once', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 404, ''));
    const { error } = await timed(api.getLabel('ORD-UNKNOWN', { format: 'zpl' }));
    expect(error?.code).toBe('ORDER_NOT_FOUND');
    expect(server.requests).toHaveLength(1);
  });

  it('409 / 425 / 503 with Retry-After mean "not yet", and the wait follows Retry-After', async () => {
    const answers: Array<[number, string]> = [
      [409, '0.2'],
      [425, '0.2'],
      [503, '0.2'],
    ];
    const { server, api } = await setup((req, res) => {
      const answer = answers[req.index];
      if (answer) sendJson(res, answer[0], '', { 'retry-after': answer[1] });
      else sendJson(res, 200, { label: zplBase64 });
    });
    await expect(api.getLabel('ORD-1', { format: 'zpl' })).resolves.toMatchObject({ format: 'zpl' });
    expect(server.requests).toHaveLength(4);
    for (const gap of gaps(server)) expect(gap).toBeGreaterThanOrEqual(190);
  });

  it('a label that never comes gives LABEL_NOT_READY within the wait allowance', async () => {
    const { server, api } = await setup((req, res) => (req.method === 'POST' ? sendJson(res, 201, orderRecord()) : sendJson(res, 404, '')));
    await api.createOrder(newOrder);
    const { error, ms } = await timed(api.getLabel('ORD-501', { format: 'zpl' }));
    expect(error?.code).toBe('LABEL_NOT_READY');
    expect(error?.message).toContain('ORD-501');
    expect(ms).toBeLessThan(1500 + 200);
    expect(server.requests.length - 1).toBeLessThanOrEqual(5);
  });

  it('a 404 with Retry-After means "not yet" even for an order created elsewhere', async () => {
    const { server, api } = await setup((req, res) =>
      req.index === 0 ? sendJson(res, 404, { statusCode: 404, message: 'not generated yet' }, { 'retry-after': '0.15' }) : sendJson(res, 200, { label: zplBase64 }),
    );
    await expect(api.getLabel('ORD-ELSEWHERE', { format: 'zpl' })).resolves.toMatchObject({ orderId: 'ORD-ELSEWHERE' });
    expect(server.requests).toHaveLength(2);
    expect(gaps(server)[0]).toBeGreaterThanOrEqual(140);
  });

  it("a just-created bundle's labels are waited for too", async () => {
    let bundleCalls = 0;
    const { api } = await setup((req, res) => {
      if (req.method === 'POST') return sendJson(res, 201, orderRecord());
      bundleCalls += 1;
      return bundleCalls === 1 ? sendJson(res, 404, '') : sendJson(res, 200, [{ label: pdfBase64 }]);
    });
    await api.createOrder(newOrder);
    await expect(api.getBundleLabels('BND-9')).resolves.toHaveLength(1);
  });
});

describe('connections and concurrency', () => {
  it('never has more requests in flight than the concurrency limit, and reuses connections', async () => {
    const { server, api } = await setup((_req, res) => setTimeout(() => sendJson(res, 200, { label: zplBase64 }), 30), { concurrency: 3 });
    const labels = await Promise.all(Array.from({ length: 12 }, (_, i) => api.getLabel(`ORD-${i}`, { format: 'zpl' })));
    expect(labels).toHaveLength(12);
    expect(server.requests).toHaveLength(12);
    expect(server.maxInFlight()).toBe(3);
    expect(new Set(server.requests.map((r) => r.socketId)).size).toBeLessThanOrEqual(3);
  });

  it('keeps connections alive across sequential calls', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 200, { NL: ['1011'] }));
    for (let i = 0; i < 6; i += 1) await api.coverage('101');
    expect(server.requests).toHaveLength(6);
    // undici may open a second connection when the next call starts as the previous one completes.
    expect(new Set(server.requests.map((r) => r.socketId)).size).toBeLessThanOrEqual(2);
  });

  it('time spent queued for a slot does not eat the retry budget', async () => {
    let lastCalls = 0;
    const { api } = await setup(
      (req, res) => {
        if (req.url.pathname.endsWith('/LAST') && (lastCalls += 1) === 1) return sendJson(res, 503, '');
        return setTimeout(() => sendJson(res, 200, { label: zplBase64 }), 400);
      },
      // Each answer takes a third of the budget: room for a busy machine, and four of them queued are still longer than it.
      {
        concurrency: 1,
        retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 10, totalBudgetMs: 1_200 },
        timeouts: { connectMs: 500, responseMs: 1_000, bodyIdleMs: 300, attemptMs: 2_000 },
      },
    );
    const ids = ['A', 'B', 'C', 'D', 'LAST'];
    const results = await Promise.all(ids.map((id) => timed(api.getLabel(id, { format: 'zpl' }))));
    // LAST waited about 1,600 ms for its slot, longer than the whole budget, and still got its retry.
    expect(results.map((r) => r.error?.code)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(lastCalls).toBe(2);
  });

  it('a request waiting to retry does not hold a slot', async () => {
    const { server, api } = await setup(
      (req, res) => (req.url.pathname.includes('SLOW') && req.index === 0 ? sendJson(res, 429, '', { 'retry-after': '0.5' }) : sendJson(res, 200, { label: zplBase64 })),
      { concurrency: 1 },
    );
    const slow = api.getLabel('SLOW', { format: 'zpl' });
    await waitUntil(() => server.requests.length === 1, 'the first answer to SLOW, a 429', 5000, 2);
    const { ms } = await timed(api.getLabel('QUICK', { format: 'zpl' }));
    await slow;
    expect(ms).toBeLessThan(400);
    expect(server.requests.map((r) => r.url.pathname)).toEqual(['/orders/label/SLOW', '/orders/label/QUICK', '/orders/label/SLOW']);
  });
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
