/**
 * What an admin sees of the receiver, and what a fault inside it costs: GET /healthz on the
 * receiver's own machine answers its uptime, requests, events, the process's stray errors and
 * whether the store answers; a request the receiver itself fails on is answered 500 and the
 * next one goes on as if nothing happened.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logging/logger';
import { logStrayErrors } from '../../../src/main/logging/stray-errors';
import { createWebhookReceiver, type WebhookReceiver } from '../../../src/main/orders/webhook-receiver';
import type { StatusEventProcessor } from '../../../src/main/orders/status-events';
import type { CallOutput } from '../../../src/shared/contract';
import { createTestStation, type TestStation } from '../../support/station';
import { statusEvent } from './payloads';

let test: TestStation | null = null;
let receiver: WebhookReceiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
  await test?.dispose();
  test = null;
});

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the receiver\'s health', () => {
  it('answers GET /healthz from this machine, counting the process\'s stray errors, even when the allow-list leaves this machine out', async () => {
    const processEvents = new EventEmitter();
    const logLines: string[] = [];
    const strayErrors = logStrayErrors(createLogger((line) => logLines.push(line)), processEvents);
    test = await createTestStation({ strayErrors });
    const station = test.station;
    const call = (name: string, input: unknown) => station.dispatcher.dispatch(name, input, { host: 'web' });
    await call('settings.set', { environment: 'test', webhooks: { host: '127.0.0.1', port: 0, allowedSources: ['10.20.0.0/16'] } });
    const started = await call('webhooks.start', {});
    if (!started.ok) throw new Error(started.error.message);
    const status = started.value as CallOutput<'webhooks.status'>;
    const base = `http://127.0.0.1:${status.port}`;
    const eventPath = status.paths.find((entry) => entry.environment === 'test')?.path ?? '';

    // The service's path is closed to this machine by the allow-list; the health check is not.
    expect((await post(`${base}${eventPath}`, statusEvent('ORD-1', 'draft', null))).status).toBe(403);
    const first = await fetch(`${base}/healthz`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await first.json()).toMatchObject({ status: 'ok', store: 'reachable', requests: { accepted: 0, rejected: 1, failed: 0 }, strayErrors: 0, lastEventAt: null });

    processEvents.emit('uncaughtException', new TypeError("Cannot read properties of undefined (reading 'port')"));
    processEvents.emit('unhandledRejection', new Error('lease renewal failed'));
    expect(await (await fetch(`${base}/healthz`)).json()).toMatchObject({ strayErrors: 2 });
    expect(logLines.map((line) => JSON.parse(line) as { message: string; strayErrors: number }).map(({ message, strayErrors: count }) => [message, count])).toEqual([
      ['uncaught exception', 1],
      ['unhandled rejection', 2],
    ]);

    const head = await fetch(`${base}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    // Only read: anything else at that path is an unknown path (after the allow-list, which refuses it).
    expect((await post(`${base}/healthz`, {})).status).toBe(403);
  });

  it('shows no count of stray errors where the host does not count them (null, not 0)', async () => {
    test = await createTestStation();
    const station = test.station;
    const call = (name: string, input: unknown) => station.dispatcher.dispatch(name, input, { host: 'web' });
    await call('settings.set', { environment: 'test', webhooks: { host: '127.0.0.1', port: 0 } });
    const started = await call('webhooks.start', {});
    if (!started.ok) throw new Error(started.error.message);
    const answer = await fetch(`http://127.0.0.1:${(started.value as CallOutput<'webhooks.status'>).port}/healthz`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'ok', store: 'reachable', strayErrors: null });
  });
});

describe('a fault inside the receiver', () => {
  it('answers the one request it failed on 500, logs the stack, and answers the next ones', async () => {
    test = await createTestStation();
    const logLines: string[] = [];
    let written = 0;
    // A processor with a bug for one order: what any fault in the receiver's own code looks like to a request.
    const processor: StatusEventProcessor = {
      enqueue: (_environment, payload) => {
        if (payload.orderId === 'ORD-BUG') throw new TypeError("Cannot read properties of undefined (reading 'status')");
        written += 1;
        return { outcome: 'queued', written: Promise.resolve() };
      },
      drained: async () => undefined,
      queueLength: () => 0,
      counters: () => ({ queued: written, duplicates: 0, applied: written, same: 0, ignoredBackward: 0, ignoredTerminal: 0, failed: 0, conflicts: 0, future: 0 }),
    };
    receiver = createWebhookReceiver({
      settings: test.station.settings,
      processor,
      logger: createLogger((line) => logLines.push(line)),
      storeReachable: async () => true,
    });
    const status = await receiver.open({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${status.port}${status.paths.find((entry) => entry.environment === 'test')?.path}`;

    const broken = await post(url, statusEvent('ORD-BUG', 'draft', null));
    expect(broken.status).toBe(500);
    expect(await broken.json()).toEqual({ error: 'Internal Server Error' });
    for (let n = 0; n < 20; n += 1) expect((await post(url, statusEvent(`ORD-${n}`, 'draft', null))).status).toBe(200);
    expect(receiver.status().requests).toEqual({ accepted: 20, rejected: 1, failed: 1 });
    const logged = logLines.map((line) => JSON.parse(line) as { level: string; message: string; stack?: string }).find((line) => line.message === 'webhook request failed');
    expect(logged).toMatchObject({ level: 'error' });
    expect(logged?.stack).toContain("TypeError: Cannot read properties of undefined (reading 'status')");
    expect(logged?.stack).toContain('enqueue');
  });
});
