import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderRecordSchema } from '../../../src/shared/api/schemas';
import { newOrder, startHarness, startReceiver, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const createOrder = async () => (await h.api('POST', '/orders', { body: newOrder(h.location()) })).body as { orderId: string; orderRef: string };
const move = (orderId: string, status: string) => h.control('POST', `/environments/test/orders/${orderId}/status`, { status });
const cancel = (orderId: string) => h.api('PATCH', `/orders/cancel/${orderId}`);

describe('PATCH /orders/cancel/{orderId}', () => {
  it.each(['draft', 'expected', 'in_transit'])('allowed from %s: 200 with the order record, status cancelled', async (status) => {
    const order = await createOrder();
    if (status !== 'draft') {
      await move(order.orderId, 'expected');
      if (status === 'in_transit') await move(order.orderId, 'in_transit');
    }
    const reply = await cancel(order.orderId);
    expect(reply.status).toBe(200);
    const record = OrderRecordSchema.parse(reply.body);
    expect(record).toMatchObject({ orderId: order.orderId, orderRef: order.orderRef, status: 'cancelled' });
    expect(Date.parse(record.updatedAt)).toBeGreaterThanOrEqual(Date.parse(record.createdAt));
  });

  it.each(['out_for_delivery', 'awaiting_next_attempt', 'at_pickup_point', 'completed', 'failed', 'returned', 'lost'])(
    'refused from %s: 400 with a message saying it can no longer be cancelled',
    async (status) => {
      const order = await createOrder();
      await move(order.orderId, status);
      const reply = await cancel(order.orderId);
      expect(reply.body).toEqual({ statusCode: 400, message: [expect.stringContaining(`can no longer be cancelled: its status is ${status}`)], error: 'Bad Request' });
      expect((await h.control('GET', `/environments/test/orders/${order.orderId}`)).body.status).toBe(status);
    },
  );

  it('cancelling twice: the second is refused, the order stays cancelled', async () => {
    const order = await createOrder();
    expect((await cancel(order.orderId)).status).toBe(200);
    expect((await cancel(order.orderId)).status).toBe(400);
  });

  it('a cancel sends the cancelled webhook with the previous status', async () => {
    const receiver = await startReceiver();
    const registration = await h.control('POST', '/environments/test/webhooks', { company: 'noordwind', url: receiver.url, statuses: ['cancelled'] });
    try {
      const order = await createOrder();
      await move(order.orderId, 'expected');
      await cancel(order.orderId);
      const [hook] = await receiver.waitFor(1);
      expect(hook!.body).toMatchObject({ orderId: order.orderId, status: 'cancelled', previousStatus: 'expected' });
    } finally {
      await h.control('DELETE', `/environments/test/webhooks/${registration.body.id}`);
      await receiver.close();
    }
  });

  it('the label of a cancelled order can still be fetched, and does not move it', async () => {
    const order = await createOrder();
    await cancel(order.orderId);
    expect((await h.api('GET', `/orders/label/${order.orderId}?format=zpl`)).status).toBe(200);
    expect((await h.control('GET', `/environments/test/orders/${order.orderId}`)).body.status).toBe('cancelled');
  });

  it('ignores a request body; other companies\' orders are 403, unknown ones 404', async () => {
    const order = await createOrder();
    const reply = await h.api('PATCH', `/orders/cancel/${order.orderId}`, { body: { reason: 'customer changed mind' } });
    expect(reply.body.status).toBe('cancelled');
    const foreign = await h.api('POST', '/orders', { key: h.key(2), body: newOrder(h.location(2), { deliveryAddress: { street: 'Markt', houseNumber: '1', postalCode: '6811CG', countryCode: 'NL' } }) });
    expect((await cancel(foreign.body.orderId)).status).toBe(403);
    expect((await cancel('no-such-order')).status).toBe(404);
  });
});
