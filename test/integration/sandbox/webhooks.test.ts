import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { orderStatuses, webhookPayloadFields, WebhookPayloadSchema } from '../../../src/shared/api/schemas';
import { newOrder, startHarness, startReceiver, type Harness, type Receiver } from './harness';

let h: Harness;
let receiver: Receiver;
const registrations: string[] = [];

beforeAll(async () => {
  h = await startHarness({ webhooks: { retryDelaysMs: [50, 100, 150], timeoutMs: 500 } });
});
afterAll(() => h.close());
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  for (const id of registrations.splice(0)) {
    for (const env of ['test', 'live']) await h.control('DELETE', `/environments/${env}/webhooks/${id}`);
  }
  await h.control('PATCH', '/settings', { webhooks: { duplicateRate: 0, outOfOrder: false } });
  await receiver.close();
});

async function register(body: Record<string, unknown>, env: 'test' | 'live' = 'test'): Promise<string> {
  const reply = await h.control('POST', `/environments/${env}/webhooks`, { company: 'noordwind', url: receiver.url, ...body });
  expect(reply.status).toBe(201);
  registrations.push(reply.body.id);
  return reply.body.id;
}

const idle = () => h.control('POST', '/webhooks/wait-idle', { timeoutMs: 10_000 });
const createOrder = async (env: 'test' | 'live' = 'test') =>
  (await h.api('POST', '/orders', { env, key: h.key(0, env), body: newOrder(h.location(0, env)) })).body as { orderId: string; orderRef: string; barcode: string; orderBundle: { id: number; bundleId: string }; id: number };
const move = (orderId: string, status: string, env = 'test') => h.control('POST', `/environments/${env}/orders/${orderId}/status`, { status });

describe('webhooks: delivery (spec Events)', () => {
  it('a label fetch (draft → expected) POSTs exactly the spec\'s payload fields as application/json; charset=UTF-8', async () => {
    await register({ statuses: ['expected'] });
    const order = await createOrder();
    expect((await h.api('GET', `/orders/label/${order.orderId}?format=zpl`)).status).toBe(200);
    const [hook] = await receiver.waitFor(1);
    expect(hook!.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(Object.keys(hook!.body)).toEqual(webhookPayloadFields);
    const payload = WebhookPayloadSchema.parse(hook!.body);
    expect(payload).toMatchObject({
      id: order.id,
      orderId: order.orderId,
      orderRef: order.orderRef,
      status: 'expected',
      previousStatus: 'draft',
      barcode: order.barcode,
      orderBundle: order.orderBundle,
      locationId: Number(h.location()),
      deliveryName: 'Iris Visser',
      deliveryAddressObject: { street: 'Kerkstraat', houseNumber: '12', suffix: '', postalCode: '1017GC', city: 'Amsterdam', countryCode: 'NL' },
      mailbox: false,
      pods: [],
    });
    expect(hook!.path).toBe('/hooks/secret-path');
  });

  it('creation is the entry into draft: its webhook has previousStatus null', async () => {
    await register({ statuses: ['draft'] });
    const order = await createOrder();
    const [hook] = await receiver.waitFor(1);
    expect(hook!.body).toMatchObject({ orderId: order.orderId, status: 'draft', previousStatus: null });
  });

  it('the operator moves orders through every status, each entered status is delivered to a URL registered for all', async () => {
    await register({});
    const targets = orderStatuses.filter((status) => status !== 'draft');
    for (const status of targets) {
      const order = await createOrder();
      expect((await move(order.orderId, status)).body).toEqual({ orderId: order.orderId, previousStatus: 'draft', status });
    }
    await idle();
    const statuses = receiver.received.map((hook) => hook.body.status as string).filter((status) => status !== 'draft');
    expect(statuses.sort()).toEqual([...targets].sort());
    for (const hook of receiver.received) expect(WebhookPayloadSchema.safeParse(hook.body).success).toBe(true);
  });

  it('a courier journey fills the payload: sortedAt, attempt, completedAt, proof of delivery', async () => {
    await register({ statuses: ['completed'] });
    const order = await createOrder();
    for (const status of ['expected', 'in_transit', 'out_for_delivery', 'awaiting_next_attempt', 'out_for_delivery', 'completed']) {
      expect((await move(order.orderId, status)).status).toBe(200);
    }
    const [hook] = await receiver.waitFor(1);
    expect(hook!.body).toMatchObject({ status: 'completed', previousStatus: 'out_for_delivery', attempt: 2, sortedAt: expect.any(String), completedAt: expect.any(String) });
    expect(hook!.body.pods).toHaveLength(1);
  });

  it('only the registered statuses, only the registering company, only its environment', async () => {
    await register({ statuses: ['in_transit'] });
    const mine = await createOrder();
    await move(mine.orderId, 'expected');
    const cheeseOrder = (await h.api('POST', '/orders', { key: h.key(1), body: newOrder(h.location(1)) })).body;
    await move(cheeseOrder.orderId, 'expected');
    await move(cheeseOrder.orderId, 'in_transit');
    const live = await createOrder('live');
    await move(live.orderId, 'in_transit', 'live');
    await move(mine.orderId, 'in_transit');
    await idle();
    expect(receiver.received.map((hook) => [hook.body.orderId, hook.body.status])).toEqual([[mine.orderId, 'in_transit']]);
  });

  it('terminal statuses never change again (the operator gets a 409)', async () => {
    const order = await createOrder();
    await move(order.orderId, 'completed');
    const again = await move(order.orderId, 'in_transit');
    expect(again.status).toBe(409);
    expect((await move(order.orderId, 'nonsense')).status).toBe(400);
  });

  it('unregistered URLs get nothing more', async () => {
    const id = await register({});
    await h.control('DELETE', `/environments/test/webhooks/${id}`);
    await createOrder();
    await idle();
    expect(receiver.received).toHaveLength(0);
  });
});

describe('webhooks: retries, duplicates and ordering', () => {
  it('a non-2xx answer is retried on the schedule until a 2xx; every attempt carries the same payload', async () => {
    receiver.answer = (_hook, index) => (index < 2 ? 503 : 204);
    await register({ statuses: ['draft'] });
    const order = await createOrder();
    await receiver.waitFor(3);
    expect(receiver.received.map((hook) => hook.body)).toEqual([receiver.received[0]!.body, receiver.received[0]!.body, receiver.received[0]!.body]);
    // Waits of 50 and 100 ms between attempts (the configured schedule).
    expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(45);
    expect(receiver.received[2]!.at - receiver.received[1]!.at).toBeGreaterThanOrEqual(95);
    await idle();
    const log = (await h.control('GET', `/environments/test/webhook-deliveries?orderId=${order.orderId}`)).body.deliveries;
    expect(log).toEqual([expect.objectContaining({ state: 'delivered', attempts: 3, lastStatusCode: 204 })]);
  });

  it('gives up after the last retry: 1 + number of waits attempts', async () => {
    receiver.answer = () => 500;
    await register({ statuses: ['draft'] });
    const order = await createOrder();
    await idle();
    expect(receiver.received).toHaveLength(4);
    const log = (await h.control('GET', `/environments/test/webhook-deliveries?orderId=${order.orderId}`)).body.deliveries;
    expect(log).toEqual([expect.objectContaining({ state: 'failed', attempts: 4, lastError: 'HTTP 500' })]);
  });

  it('a receiver slower than the timeout counts as a failed attempt and is retried', async () => {
    const slowStarted: number[] = [];
    const { createServer } = await import('node:http');
    const slow = createServer((req, res) => {
      slowStarted.push(Date.now());
      req.resume();
      if (slowStarted.length === 1) setTimeout(() => res.end(), 1500).unref();
      else res.end();
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(slow.address() as { port: number }).port}/slow`;
    const reply = await h.control('POST', '/environments/test/webhooks', { company: 'noordwind', url, statuses: ['draft'] });
    registrations.push(reply.body.id);
    const order = await createOrder();
    await idle();
    slow.closeAllConnections();
    slow.close();
    expect(slowStarted).toHaveLength(2);
    const log = (await h.control('GET', `/environments/test/webhook-deliveries?orderId=${order.orderId}`)).body.deliveries;
    expect(log).toEqual([expect.objectContaining({ state: 'delivered', attempts: 2 })]);
  });

  it('duplicates switched on: every event arrives twice (receivers dedupe on orderId + status)', async () => {
    await h.control('PATCH', '/settings', { webhooks: { duplicateRate: 1 } });
    await register({});
    const order = await createOrder();
    await move(order.orderId, 'expected');
    await idle();
    const seen = receiver.received.map((hook) => `${hook.body.orderId}/${hook.body.status}`);
    expect(seen.sort()).toEqual([`${order.orderId}/draft`, `${order.orderId}/draft`, `${order.orderId}/expected`, `${order.orderId}/expected`]);
  });

  it('out-of-order switched on: a burst of moves arrives newest first (previousStatus tells the order)', async () => {
    await h.control('PATCH', '/settings', { webhooks: { outOfOrder: true, outOfOrderWindowMs: 300 } });
    await register({ statuses: ['expected', 'in_transit', 'out_for_delivery'] });
    const order = await createOrder();
    for (const status of ['expected', 'in_transit', 'out_for_delivery']) await move(order.orderId, status);
    await idle();
    expect(receiver.received.map((hook) => [hook.body.previousStatus, hook.body.status])).toEqual([
      ['in_transit', 'out_for_delivery'],
      ['expected', 'in_transit'],
      ['draft', 'expected'],
    ]);
  });

  it('many events: a batch of moves is delivered completely', async () => {
    await register({});
    const orders = await Promise.all(Array.from({ length: 20 }, () => createOrder()));
    const moves = orders.flatMap((order) => ['expected', 'in_transit', 'out_for_delivery', 'completed'].map((status) => ({ orderId: order.orderId, status })));
    const reply = await h.control('POST', '/environments/test/statuses', { moves });
    expect(reply.body.moved).toBe(80);
    await idle();
    expect(receiver.received).toHaveLength(100);
  });
});
