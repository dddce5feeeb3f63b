import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallOutput } from '../../../src/shared/contract';
import { createTestStation, type TestStation } from '../../support/station';
import { statusEvent } from './payloads';

let test: TestStation;
const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });

type Status = CallOutput<'webhooks.status'>;

async function startReceiver(bodyLimitBytes = 64 * 1024): Promise<{ status: Status; url: (environment: 'sandbox' | 'test' | 'live') => string }> {
  await call('settings.set', { webhooks: { host: '127.0.0.1', port: 0, bodyLimitBytes } });
  const started = await call('webhooks.start', {});
  if (!started.ok) throw new Error(started.error.message);
  const status = started.value as Status;
  const url = (environment: string) => `http://127.0.0.1:${status.port}${status.paths.find((entry) => entry.environment === environment)?.path}`;
  return { status, url };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

const lookup = async (scan: string) => {
  await test.station.services.webhooks.drained();
  return call('orders.lookup', { scan, remote: false });
};

beforeEach(async () => {
  test = await createTestStation();
  // Events go to the test environment's path: the sandbox environment would start the embedded sandbox.
  await call('settings.set', { environment: 'test' });
});
afterEach(async () => {
  await test.dispose();
});

describe('webhook receiver', () => {
  it('is off until switched on, then listens with one secret path per environment', async () => {
    expect(await call('webhooks.status', {})).toMatchObject({ ok: true, value: { running: false, enabled: false } });
    const { status } = await startReceiver();
    expect(status).toMatchObject({ running: true, enabled: true, host: '127.0.0.1' });
    expect(status.port).toBeGreaterThan(0);
    const paths = status.paths.map((entry) => entry.path);
    expect(new Set(paths).size).toBe(3);
    for (const path of paths) expect(path).toMatch(/^\/webhooks\/[A-Za-z0-9_-]{32,}$/);
    expect(await call('webhooks.stop', {})).toMatchObject({ ok: true, value: { running: false, enabled: false } });
  });

  it('answers 200 and records the order, its identifiers and its status in the environment of the secret', async () => {
    const { url } = await startReceiver();
    const response = await post(url('test'), statusEvent('ORD-100', 'expected', 'draft'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(await lookup('BC-ORD-100')).toMatchObject({
      ok: true,
      value: { order: { environment: 'test', orderId: 'ORD-100', orderRef: 'REF-ORD-100', bundleId: 'BUN-7', recipient: 'Anna de Vries', status: 'expected', source: 'webhook' } },
    });
    await call('settings.set', { environment: 'live' });
    expect(await lookup('BC-ORD-100')).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
  });

  it('drops duplicates, ignores backward moves and never leaves a terminal status', async () => {
    const { url } = await startReceiver();
    const target = url('test');
    for (const event of [
      statusEvent('ORD-1', 'in_transit', 'expected'),
      statusEvent('ORD-1', 'in_transit', 'expected'),
      statusEvent('ORD-1', 'expected', 'draft'),
      statusEvent('ORD-1', 'draft', null),
      statusEvent('ORD-2', 'cancelled', 'expected'),
      statusEvent('ORD-2', 'in_transit', 'expected'),
    ]) {
      expect((await post(target, event)).status).toBe(200);
    }
    expect(await lookup('ORD-1')).toMatchObject({ ok: true, value: { order: { status: 'in_transit' } } });
    expect(await lookup('ORD-2')).toMatchObject({ ok: true, value: { order: { status: 'cancelled' }, printable: { allowed: false } } });
    const status = await call('webhooks.status', {});
    expect(status).toMatchObject({ ok: true, value: { requests: { accepted: 6 }, events: { queued: 6, duplicates: 1, applied: 2, ignoredBackward: 2, ignoredTerminal: 1, waiting: 0 } } });
  });

  it('rejects wrong secrets, wrong methods, wrong content and oversized bodies without stopping', async () => {
    const { url, status } = await startReceiver(2048);
    const good = url('test');
    const base = `http://127.0.0.1:${status.port}`;
    expect((await post(`${base}/webhooks/${'x'.repeat(32)}`, statusEvent('ORD-1', 'draft', null))).status).toBe(404);
    expect((await post(`${base}/`, statusEvent('ORD-1', 'draft', null))).status).toBe(404);
    expect((await fetch(good)).status).toBe(405);
    expect((await post(good, 'orderId=1', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await post(good, '{"orderId": ')).status).toBe(400);
    const invalid = await post(good, { ...statusEvent('ORD-1', 'draft', null), status: 'teleported' });
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(await invalid.json())).toContain('status');
    expect((await post(good, { ...statusEvent('ORD-1', 'draft', null), riderNote: 'x'.repeat(5000) })).status).toBe(413);
    const chunked = await fetch(good, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (let n = 0; n < 10; n += 1) controller.enqueue(new TextEncoder().encode(' '.repeat(1000)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit).catch((error: unknown) => error);
    if (chunked instanceof Response) expect(chunked.status).toBe(413);

    await new Promise<void>((resolve) => {
      const socket = connect(status.port, '127.0.0.1', () => socket.end('\x00\x01GARBAGE / HTTP/9.9\r\n\r\n'));
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
      socket.resume();
    });

    expect((await post(good, statusEvent('ORD-1', 'draft', null))).status).toBe(200);
    expect(await lookup('ORD-1')).toMatchObject({ ok: true, value: { order: { status: 'draft' } } });
    const after = await call('webhooks.status', {});
    expect(after).toMatchObject({ ok: true, value: { running: true, requests: { accepted: 1 } } });
    if (after.ok) expect((after.value as Status).requests.rejected).toBeGreaterThanOrEqual(7);
  });

  it('starts again by itself when the station restarts with the receiver switched on', async () => {
    const { status } = await startReceiver();
    expect(status.running).toBe(true);
    const dataDir = test.dataDir;
    await test.station.close();
    const { composeStation } = await import('../../../src/main/composition');
    const { createLogger } = await import('../../../src/main/logging/logger');
    const { memoryKeyStore } = await import('../../support/station');
    const again = await composeStation({ dataDir, host: 'web', version: '0', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });
    try {
      // Composing binds nothing; the host's start step resumes the receiver.
      expect(await again.dispatcher.dispatch('webhooks.status', {}, { host: 'web' })).toMatchObject({ ok: true, value: { running: false, enabled: true } });
      await again.start({ webhooks: true });
      expect(await again.dispatcher.dispatch('webhooks.status', {}, { host: 'web' })).toMatchObject({ ok: true, value: { running: true, enabled: true } });
    } finally {
      await again.close();
    }
    test.station = await composeStation({ dataDir, host: 'web', version: '0', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });
  });
});
