import { describe, expect, it } from 'vitest';
import type { WebhookDispatcher } from '../../../src/sandbox/webhooks/dispatcher';
import type { WebhookRegistration } from '../../../src/sandbox/world/types';
import { World } from '../../../src/sandbox/world/world';

const started = new Date(2026, 4, 6, 10, 30).getTime();
const quietDispatcher = { emit: () => undefined } as unknown as WebhookDispatcher;

function world(clock: { now: number }): World {
  return new World({ seed: 'unit', orders: 60, pickupPoints: 600, trackingBase: 'http://sandbox/track', defaultPrintSize: 'A6', now: () => clock.now, dispatcher: quietDispatcher });
}

const snapshot = (w: World, name: 'test' | 'live') =>
  [...w.env(name).orders.values()].map((order) => ({ id: order.orderId, barcode: order.barcode, createdAt: order.createdAt, pudoId: order.pudoId, status: order.status }));

describe('the world of the sandbox', () => {
  it('makes an environment\'s orders when it is first used, the same as if made at the start', () => {
    const clock = { now: started };
    const early = world(clock);
    const expected = { test: snapshot(early, 'test'), live: snapshot(early, 'live') };
    const late = world(clock);
    // Hours later, in the other order: the same orders, dated from when the sandbox started.
    clock.now = started + 5 * 3_600_000;
    expect(snapshot(late, 'live')).toEqual(expected.live);
    expect(snapshot(late, 'test')).toEqual(expected.test);
    for (const order of late.env('live').orders.values()) expect(order.createdAt).toBeLessThanOrEqual(started);
  });

  it('lists an environment\'s accounts before its orders are made, as the same companies and keys', () => {
    const w = world({ now: started });
    const accounts = w.accountsOf('live');
    expect([...accounts.keys.keys()]).toHaveLength(4);
    expect(w.env('live').keys).toBe(accounts.keys);
    expect(w.env('live').companies).toBe(accounts.companies);
    expect(w.accountsOf('live').revokedKey).toBe(w.env('live').revokedKey);
  });

  it('keeps the webhook registrations over a reset when asked to, and only then', () => {
    const w = world({ now: started });
    const registration: WebhookRegistration = { id: 'wh_1', companyId: 'noordwind', url: 'http://127.0.0.1:1/hook', statuses: undefined };
    w.env('test').webhooks.push(registration);
    w.reset(true);
    expect(w.env('test').webhooks).toEqual([registration]);
    expect(w.env('live').webhooks).toEqual([]);
    w.reset();
    expect(w.env('test').webhooks).toEqual([]);
  });
});
