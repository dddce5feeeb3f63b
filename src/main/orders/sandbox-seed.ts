/**
 * The embedded sandbox's day of orders in the station's index, so a trainee can scan a packing
 * slip at once. The sandbox starts from its seed every time the station starts it, so its own
 * word on each seeded order's status replaces whatever the index remembers from an earlier run
 * (a parcel cancelled yesterday is back to draft in today's sandbox), and its orders count as
 * learnt today: they are today's orders of a world that started today.
 */
import type { OrderStatus } from '../../shared/api/schemas';
import type { OrderIndex } from './order-index';

export interface SeedOrder {
  orderId: string;
  orderRef: string;
  barcode: string;
  bundleId: string;
  status: OrderStatus;
  deliveryName: string;
}

export async function seedSandboxOrders(index: OrderIndex, orders: readonly SeedOrder[]): Promise<number> {
  await index.transaction(async (tx) => {
    await index.upsertBatch(
      tx,
      'sandbox',
      orders.map((order) => ({ orderId: order.orderId, orderRef: order.orderRef, barcode: order.barcode, bundleId: order.bundleId, recipient: order.deliveryName })),
      'import',
    );
    for (const order of orders) await index.reseed(tx, 'sandbox', order.orderId, order.status);
  });
  return orders.length;
}
