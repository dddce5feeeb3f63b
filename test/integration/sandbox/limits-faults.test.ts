import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../support/wait-until';
import { call, newOrder, startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const settle = (patch: unknown) => h.control('PATCH', '/settings', patch);
const coverage = (key?: string) => h.api('GET', `/coverage/postal-codes/${h.location()}`, key ? { key } : {});

/** Sends raw bytes and resolves with whatever comes back before the server closes (or 1 s passes). */
function raw(bytes: string | Buffer): Promise<string> {
  const { port } = new URL(h.base());
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    const done = () => resolve(Buffer.concat(chunks).toString('latin1'));
    socket.on('close', done);
    socket.setTimeout(1000, () => socket.destroy());
    socket.write(bytes);
  });
}

describe('rate limit (Errors 429)', () => {
  it('default: a burst of 100 per key, then 429 with Retry-After and the error body', async () => {
    const sandbox = await startHarness({ rateLimit: {} });
    try {
      const replies = await Promise.all(Array.from({ length: 130 }, () => sandbox.api('GET', `/coverage/postal-codes/${sandbox.location()}`)));
      const limited = replies.filter((reply) => reply.status === 429);
      expect(replies.filter((reply) => reply.status === 200).length).toBeGreaterThanOrEqual(100);
      expect(limited.length).toBeGreaterThan(0);
      expect(limited[0]!.body).toEqual({ statusCode: 429, message: expect.stringContaining('50 requests per second'), error: 'Too Many Requests' });
      expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The limit is per key: another company's key is unaffected.
      expect((await sandbox.api('GET', `/coverage/postal-codes/${sandbox.location(1)}`, { key: sandbox.key(1) })).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  it('set at run time: 2 per second, burst 3; after Retry-After the key may call again', async () => {
    await settle({ rateLimit: { requestsPerSecond: 2, burst: 3 } });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await coverage()).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await coverage();
      const wait = Number(limited.headers['retry-after']);
      expect(wait).toBe(1);
      // The key may call again once the bucket refills: within Retry-After, with room for a loaded machine.
      await waitUntil(async () => (await coverage()).status === 200, 'the key answered again after Retry-After', wait * 1000 + 2000, 100);
    } finally {
      await settle({ rateLimit: { requestsPerSecond: 0 } });
    }
  });

  it('the public tracking page is throttled too', async () => {
    const order = (await h.api('POST', '/orders', { body: newOrder(h.location()) })).body;
    const page = await call('GET', order.trackingUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain(order.barcode);
    const replies = await Promise.all(Array.from({ length: 20 }, () => call('GET', order.trackingUrl)));
    expect(replies.some((reply) => reply.status === 429)).toBe(true);
  });
});

describe('request bodies (Errors 400; 413)', () => {
  it('a body over 100 KiB gets 413 with the error body; one just under is read', async () => {
    const big = JSON.stringify({ ...newOrder(h.location()), deliveryNote: 'x'.repeat(110 * 1024) });
    const reply = await h.api('POST', '/orders', { rawBody: big, headers: { 'content-type': 'application/json' } });
    expect(reply.body).toEqual({ statusCode: 413, message: 'Request body is larger than 102400 bytes', error: 'Payload Too Large' });
    const under = JSON.stringify({ ...newOrder(h.location()), padding: 'x'.repeat(100 * 1024 - 400) });
    expect((await h.api('POST', '/orders', { rawBody: under, headers: { 'content-type': 'application/json' } })).status).toBe(201);
  });

  it('a chunked body that grows past the limit is cut off with 413', async () => {
    const head = `POST /test/orders HTTP/1.1\r\nHost: x\r\napi-key: ${h.key()}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = 'a'.repeat(60 * 1024);
    const answer = await raw(`${head}${chunk.length.toString(16)}\r\n${chunk}\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
  });

  it('malformed JSON is a 400 with the error body; so is JSON sent as another content type', async () => {
    const reply = await h.api('POST', '/orders', { rawBody: '{"locationId": "1101",', headers: { 'content-type': 'application/json' } });
    expect(reply.body).toEqual({ statusCode: 400, message: [expect.stringMatching(/^body is not valid JSON/)], error: 'Bad Request' });
    const text = await h.api('POST', `/orders/check/${h.location()}`, { rawBody: '{}', headers: { 'content-type': 'text/plain' } });
    expect(text.body).toEqual({ statusCode: 400, message: ['Content-Type must be application/json'], error: 'Bad Request' });
  });

  it('the size limit is a knob', async () => {
    await settle({ bodyLimitBytes: 2048 });
    try {
      const reply = await h.api('POST', '/orders', { body: { ...newOrder(h.location()), deliveryNote: 'y'.repeat(3000) } });
      expect(reply.status).toBe(413);
    } finally {
      await settle({ bodyLimitBytes: 102400 });
    }
  });
});

describe('fault knobs', () => {
  it('latency: every answer waits at least the set time', async () => {
    await settle({ faults: { latencyMs: 250 } });
    try {
      const started = Date.now();
      expect((await coverage()).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(245);
    } finally {
      await settle({ faults: { latencyMs: 0 } });
    }
  });

  it('5xx rate: answers 500/502/503 with the error body and changes nothing', async () => {
    await settle({ faults: { errorRate: 1 } });
    try {
      const ref = `FAULT-${Date.now()}`;
      const reply = await h.api('POST', '/orders', { body: newOrder(h.location(), { orderRef: ref }) });
      expect([500, 502, 503]).toContain(reply.status);
      expect(reply.body).toEqual({ statusCode: reply.status, message: expect.any(String), error: expect.any(String) });
      expect((await h.control('GET', `/environments/test/orders?orderRef=${ref}`)).body.orders).toEqual([]);
    } finally {
      await settle({ faults: { errorRate: 0 } });
    }
  });

  it('429 rate: answers 429 with Retry-After: 1', async () => {
    await settle({ faults: { rateLimitRate: 1 } });
    try {
      const reply = await coverage();
      expect(reply.status).toBe(429);
      expect(reply.headers['retry-after']).toBe('1');
    } finally {
      await settle({ faults: { rateLimitRate: 0 } });
    }
  });

  it('dropped connections before processing: the client sees a reset and nothing was created', async () => {
    await settle({ faults: { dropRate: 1, dropMode: 'before' } });
    const ref = `DROP-BEFORE-${Date.now()}`;
    try {
      await expect(h.api('POST', '/orders', { body: newOrder(h.location(), { orderRef: ref }) })).rejects.toThrow();
    } finally {
      await settle({ faults: { dropRate: 0 } });
    }
    expect((await h.control('GET', `/environments/test/orders?orderRef=${ref}`)).body.orders).toEqual([]);
  });

  it('dropped connections after processing: the order exists although the answer was lost', async () => {
    await settle({ faults: { dropRate: 1, dropMode: 'after' } });
    const ref = `DROP-AFTER-${Date.now()}`;
    try {
      await expect(h.api('POST', '/orders', { body: newOrder(h.location(), { orderRef: ref }) })).rejects.toThrow();
    } finally {
      await settle({ faults: { dropRate: 0, dropMode: 'either' } });
    }
    expect((await h.control('GET', `/environments/test/orders?orderRef=${ref}`)).body.orders).toHaveLength(1);
  });

  it('knobs set at start apply from the first request', async () => {
    const sandbox = await startHarness({ faults: { errorRate: 1 } });
    try {
      expect((await sandbox.api('GET', `/coverage/postal-codes/${sandbox.location()}`)).status).toBeGreaterThanOrEqual(500);
    } finally {
      await sandbox.close();
    }
  });

  it('settings patches are validated: unknown knobs and out-of-range values are a 400', async () => {
    expect((await settle({ faults: { errorRate: 2 } })).status).toBe(400);
    expect((await settle({ faults: { labelNotReadyStatus: 418 } })).status).toBe(400);
    expect((await settle({ nonsense: true })).status).toBe(400);
    expect((await h.control('GET', '/settings')).body.faults.errorRate).toBe(0);
  });
});

describe('bad input never crashes the server', () => {
  it('survives garbage and still answers normally', async () => {
    const key = h.key();
    const attempts: Promise<unknown>[] = [
      raw('GARBAGE\r\n\r\n'),
      raw(Buffer.from([0, 1, 2, 3, 255, 254, 10, 13, 10, 13])),
      raw(`GET /test/orders/label/${'%'.repeat(20)} HTTP/1.1\r\nHost: x\r\napi-key: ${key}\r\n\r\n`),
      raw(`GET /test/orders/label/%E0%A4%A HTTP/1.1\r\nHost: x\r\napi-key: ${key}\r\n\r\n`),
      raw(`GET /track/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n`),
      raw(`GET /test/pickup-points?${'a=1&'.repeat(5000)} HTTP/1.1\r\nHost: x\r\napi-key: ${key}\r\n\r\n`),
      raw(`POST /test/orders HTTP/1.1\r\nHost: x\r\napi-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{"a":`),
      raw(`GET /test/pickup-points HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(70_000)}\r\n\r\n`),
      h.api('POST', '/orders', { rawBody: '['.repeat(5000), headers: { 'content-type': 'application/json' } }),
      h.api('POST', '/orders', { rawBody: JSON.stringify({ deliveryAddress: { street: { $gt: '' } }, locationId: ['1101'], __proto__: { admin: true } }), headers: { 'content-type': 'application/json' } }),
      h.api('POST', '/orders', { rawBody: Buffer.from([0xff, 0xfe, 0xfd]), headers: { 'content-type': 'application/json' } }),
      h.api('GET', '/pickup-points?countryCode=NL&postalCode=1017GC&types=&lat=&maxDistanceKm=1e400'),
      h.api('GET', `/orders/label/${'x'.repeat(5000)}?format=zpl`),
      h.api('POST', `/orders/check/${h.location()}`, { body: { deliveryAddress: { street: 'a'.repeat(50_000), houseNumber: '1'.repeat(1000), postalCode: '1017GC', countryCode: 'NL' } } }),
    ];
    const results = await Promise.allSettled(attempts);
    for (const result of results) {
      if (result.status === 'fulfilled' && typeof result.value === 'object' && result.value && 'status' in result.value) {
        expect((result.value as { status: number }).status).toBeLessThan(500);
      }
    }
    expect((await coverage()).status).toBe(200);
  });
});
