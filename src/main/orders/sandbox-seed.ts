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

export function seedSandboxOrders(index: OrderIndex, orders: readonly SeedOrder[]): number {
  index.transaction(() => {
    for (const order of orders) {
      index.upsert('sandbox', { orderId: order.orderId, orderRef: order.orderRef, barcode: order.barcode, bundleId: order.bundleId, recipient: order.deliveryName }, 'import');
      index.reseed('sandbox', order.orderId, order.status);
    }
  });
  return orders.length;
}
