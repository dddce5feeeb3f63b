/**
 * The receiver against senders that are slow on purpose or send what no service would: a
 * connection that never finishes its headers or its body is cut at the configured limits (5 s for
 * headers, 10 s for the request), not at Node's 30 s connection check; an `updatedAt` that is not
 * ISO 8601 and a NUL in any text are answered 400 at once, so the service does not send them again
 * for ever.
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallOutput } from '../../../src/shared/contract';
import { createTestStation, type TestStation } from '../../support/station';
import { statusEvent } from './payloads';

let test: TestStation;
const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });

async function startReceiver(): Promise<{ port: number; path: string }> {
  await call('settings.set', { webhooks: { host: '127.0.0.1', port: 0 } });
  const started = await call('webhooks.start', {});
  if (!started.ok) throw new Error(started.error.message);
  const status = started.value as CallOutput<'webhooks.status'>;
  return { port: status.port!, path: status.paths.find((entry) => entry.environment === 'test')!.path };
}

/** Milliseconds from connecting until the receiver closes the connection; `trickle` writes on it meanwhile. */
function lifetime(port: number, trickle: (socket: Socket) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => trickle(socket));
    socket.on('error', () => undefined);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error('the receiver kept the slow connection for 40 s'));
    }, 40_000);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve(Date.now() - started);
    });
  });
}

beforeEach(async () => {
  test = await createTestStation();
  await call('settings.set', { environment: 'test' });
});
afterEach(async () => {
  await test.dispose();
});

describe('slow senders', () => {
  it('cuts a connection whose headers never end after about 5 s, and one whose body never ends after about 10 s', async () => {
    const { port, path } = await startReceiver();
    const timers: NodeJS.Timeout[] = [];
    const drip = (socket: Socket, first: string, next: string) => {
      socket.write(first);
      timers.push(setInterval(() => socket.writable && socket.write(next), 500));
    };
    const [headers, body] = await Promise.all([
      lifetime(port, (socket) => drip(socket, `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n`, 'x-slow: 1\r\n')),
      lifetime(port, (socket) => drip(socket, `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{`, ' ')),
    ]);
    for (const timer of timers) clearInterval(timer);
    // Before: both lived about 30 s (Node checks the limits every connectionsCheckingInterval, 30 s by default).
    expect(headers).toBeGreaterThanOrEqual(4_500);
    expect(headers).toBeLessThan(8_000);
    expect(body).toBeGreaterThanOrEqual(9_500);
    expect(body).toBeLessThan(13_000);
  }, 60_000);
});

describe('a sender that keeps its connection', () => {
  it('answers a hundred events on one kept-alive connection without holding anything per event on it', async () => {
    const { port, path } = await startReceiver();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const send = (n: number) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify(statusEvent(`ORD-${700 + n}`, 'in_transit', 'expected'));
        const sent = request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        sent.on('socket', (socket) => sockets.add(socket));
        sent.on('error', reject);
        sent.end(body);
      });
    try {
      const statuses: number[] = [];
      for (let n = 0; n < 100; n += 1) statuses.push(await send(n));
      expect(new Set(statuses)).toEqual(new Set([200]));
      // One connection carried them all, as a service's sender keeps it.
      expect(sockets.size).toBe(1);
      // Node's warnings come on a later turn of the loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      agent.destroy();
      process.off('warning', onWarning);
    }
  });
});

describe('events no service would send', () => {
  const post = (url: string, body: unknown) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('answers 400 to more than 16 levels, 256 keys in an object or 1,024 items in an array, and 200 at the limits', async () => {
    const { port, path } = await startReceiver();
    const url = `http://127.0.0.1:${port}${path}`;
    const event = statusEvent('ORD-8', 'in_transit', 'expected');
    // The event itself is one level; its extra field adds the rest.
    const nestedIn = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`) as unknown;
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, n) => [`k${n}`, n]));
    const atLimits = [{ carrierData: nestedIn(15) }, keys(256 - Object.keys(event).length), { carrierData: Array.from({ length: 1024 }, () => 0) }];
    const beyond = [
      { extra: { carrierData: nestedIn(16) }, message: 'objects and arrays nest more than 16 deep' },
      { extra: keys(257 - Object.keys(event).length), message: 'an object has more than 256 keys' },
      { extra: { carrierData: Array.from({ length: 1025 }, () => 0) }, message: 'an array has more than 1024 items' },
    ];
    for (const { extra, message } of beyond) {
      const response = await post(url, { ...event, ...extra });
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 400, body: { error: 'Bad Request', message } });
    }
    for (const extra of atLimits) expect((await post(url, { ...event, ...extra })).status).toBe(200);
  });

  it('answers a body nested 100,000 deep 400 and goes on taking events', async () => {
    await call('settings.set', { webhooks: { bodyLimitBytes: 1024 * 1024 } });
    const { port, path } = await startReceiver();
    const url = `http://127.0.0.1:${port}${path}`;
    for (const body of ['['.repeat(100_000) + ']'.repeat(100_000), `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`]) {
      expect((await post(url, body)).status).toBe(400);
    }
    expect((await post(url, statusEvent('ORD-9', 'in_transit', 'expected'))).status).toBe(200);
  });

  it('answers 400 to an updatedAt that is not ISO 8601, and stores nothing', async () => {
    const { port, path } = await startReceiver();
    const url = `http://127.0.0.1:${port}${path}`;
    for (const updatedAt of ['yesterday', 'Tue, 01 Dec 2026 09:00:00 GMT', '2026-03-01 09:00', '2026-03-01T09:00:00', '1', '2026-13-01T09:00:00Z']) {
      const response = await post(url, statusEvent('ORD-5', 'in_transit', 'expected', { updatedAt }));
      expect({ updatedAt, status: response.status }).toEqual({ updatedAt, status: 400 });
    }
    await test.station.services.webhooks.drained();
    expect(await call('orders.lookup', { scan: 'ORD-5', remote: false })).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
    expect((await post(url, statusEvent('ORD-5', 'in_transit', 'expected', { updatedAt: '2026-03-01T09:00:00+01:00' }))).status).toBe(200);
  });

  it('answers 400 to a NUL in any text, the first time and every time the service sends it again', async () => {
    const { port, path } = await startReceiver();
    const url = `http://127.0.0.1:${port}${path}`;
    // In a field, in an unknown field nested ten levels down, in a key.
    const nested = { carrierData: JSON.parse(`${'['.repeat(9)}{"note":"\\u0000"}${']'.repeat(9)}`) as unknown };
    for (const extra of [{ deliveryName: 'Anna\u0000' }, { riderNote: '\u0000' }, { orderRef: 'REF\u0000-6' }, nested, { carrierData: { 'key\u0000': 1 } }]) {
      for (let attempt = 0; attempt < 3; attempt += 1) expect((await post(url, statusEvent('ORD-6', 'in_transit', 'expected', extra))).status).toBe(400);
    }
    expect((await post(url, statusEvent('ORD-6', 'in_transit', 'expected'))).status).toBe(200);
  });
});
