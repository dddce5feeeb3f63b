import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEmbeddedSandbox, type RunningSandbox } from '../../../src/main/embedded-sandbox';
import { startSandbox } from '../../../src/sandbox/index';
import type { OrderStatus } from '../../../src/shared/api/schemas';
import type { CallOutput } from '../../../src/shared/contract';
import { createTestStation, type TestStation } from '../../support/station';

// 10,000+ status events from the sandbox's webhook dispatcher, with duplicates and out-of-order
// delivery switched on: the index must end with every order's true last status.

const ordersInPlay = 4000;
const wantedMoves = 10_000;

// Realistic next statuses (the spec's flow plus the unstated ones where they can happen).
const next: Partial<Record<OrderStatus, OrderStatus[]>> = {
  draft: ['expected', 'expected', 'expected', 'cancelled'],
  expected: ['in_transit', 'in_transit', 'in_transit', 'inactive', 'cancelled'],
  inactive: ['in_transit', 'lost'],
  in_transit: ['out_for_delivery', 'out_for_delivery', 'out_for_delivery', 'missing', 'cancelled'],
  missing: ['in_transit', 'lost'],
  out_for_delivery: ['completed', 'completed', 'awaiting_next_attempt', 'at_pickup_point', 'failed'],
  awaiting_next_attempt: ['out_for_delivery'],
  at_pickup_point: ['completed', 'in_return_transit'],
  failed: ['in_return_transit'],
  in_return_transit: ['returned'],
};

let sandbox: RunningSandbox;
let test: TestStation;

const control = async (path: string, body?: unknown): Promise<unknown> => {
  const response = await fetch(`${sandbox.control.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${sandbox.control.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control ${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
};
const todaysOrders = async () => ((await control('/environments/test/todays-orders')) as { orders: { orderId: string; status: OrderStatus }[] }).orders;

beforeAll(async () => {
  sandbox = await startSandbox({
    seedSize: 'small',
    orders: ordersInPlay,
    printers: 0,
    // Events are held and sent newest first within a window of a second: longer than a round of
    // moves takes on a loaded machine, so an order's next status often overtakes the one before.
    webhooks: { duplicateRate: 0.25, outOfOrder: true, outOfOrderWindowMs: 1000, concurrency: 16, retryDelaysMs: [200, 500, 1000, 2000] },
  });
  test = await createTestStation({ sandbox: attachEmbeddedSandbox(sandbox) });
});
afterAll(async () => {
  await test?.dispose();
  await sandbox?.close();
});

describe('webhook stream from the sandbox', () => {
  it('ends with each order\'s true last status despite duplicates and out-of-order delivery', async () => {
    const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });
    await call('settings.set', { environment: 'test', webhooks: { host: '127.0.0.1', port: 0 } });
    const started = await call('webhooks.start', {});
    if (!started.ok) throw new Error(started.error.message);
    const status = started.value as CallOutput<'webhooks.start'>;
    const url = `http://127.0.0.1:${status.port}${status.paths.find((entry) => entry.environment === 'test')!.path}`;
    for (const company of sandbox.environments.test.companies) await control('/environments/test/webhooks', { company: company.name, url });

    // Drive the day forward in rounds: one move per order per round, each round a few ms after the last.
    let seed = 20260301;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const current = new Map((await todaysOrders()).map((order) => [order.orderId, order.status]));
    const moved = new Set<string>();
    let moves = 0;
    while (moves < wantedMoves) {
      const round: { orderId: string; status: OrderStatus }[] = [];
      for (const [orderId, status] of current) {
        const options = next[status];
        if (!options || random() < 0.15) continue;
        const target = options[Math.floor(random() * options.length)]!;
        round.push({ orderId, status: target });
        moved.add(orderId);
        current.set(orderId, target);
        if (moves + round.length >= wantedMoves) break;
      }
      if (round.length === 0) break;
      const answer = (await control('/environments/test/statuses', { moves: round })) as { moved: number };
      expect(answer.moved).toBe(round.length);
      moves += round.length;
      // Time is the input: the moves come in a paced stream, as the service's webhooks would.
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    expect(moves).toBe(wantedMoves);

    expect(await control('/webhooks/wait-idle', { timeoutMs: 90_000 })).toEqual({ idle: true });
    await test.station.services.webhooks.drained();

    const deliveries = ((await control('/environments/test/webhook-deliveries')) as { deliveries: { duplicate: boolean; state: string }[] }).deliveries;
    expect(deliveries.filter((delivery) => !delivery.duplicate)).toHaveLength(wantedMoves);
    expect(deliveries.filter((delivery) => delivery.duplicate).length).toBeGreaterThan(wantedMoves * 0.15);
    expect(deliveries.every((delivery) => delivery.state === 'delivered')).toBe(true);

    const truth = await todaysOrders();
    expect(moved.size).toBeGreaterThan(ordersInPlay * 0.8);
    const wrong: string[] = [];
    for (const order of truth) {
      const indexed = await test.station.services.orders.get('test', order.orderId);
      // An order that never moved sent no event, so the index has not heard of it.
      const expected = moved.has(order.orderId) ? order.status : null;
      if ((indexed?.status ?? null) !== expected) wrong.push(`${order.orderId}: index ${indexed?.status ?? 'unknown'}, service ${order.status}`);
    }
    expect(wrong).toEqual([]);

    const after = await call('webhooks.status', {});
    const counters = (after.ok ? (after.value as CallOutput<'webhooks.status'>) : null)?.events;
    expect(counters?.queued).toBe(deliveries.length);
    expect(counters?.duplicates).toBeGreaterThan(0);
    // Out-of-order delivery really happened: late events were recognised and ignored.
    expect(counters?.ignoredBackward).toBeGreaterThan(100);
    expect(counters?.failed).toBe(0);
    // 12,500 deliveries take 15 s on a quiet machine and several times that beside two other test files.
  }, 150_000);
});
