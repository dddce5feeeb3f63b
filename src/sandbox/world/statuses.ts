/** Moving an order to a new status, with the side effects a courier's progress would leave on it. */
import { terminalStatuses, type OrderStatus } from '../../shared/api/schemas';
import type { Order } from './types';

export class StatusMoveError extends Error {}

/** Applies the move and returns the status the order left. Terminal orders never move again. */
export function applyStatus(order: Order, status: OrderStatus, now: number): OrderStatus {
  const previous = order.status;
  if (terminalStatuses.includes(previous)) throw new StatusMoveError(`Order ${order.orderId} is ${previous}, a terminal status; it never changes again`);
  if (previous === status) throw new StatusMoveError(`Order ${order.orderId} is already ${status}`);
  order.status = status;
  order.updatedAt = now;
  switch (status) {
    case 'in_transit':
      order.sortedAt ??= now;
      break;
    case 'out_for_delivery':
      order.attempt += 1;
      break;
    case 'awaiting_next_attempt':
      order.riderNote = 'Nobody answered the door; a second attempt is scheduled.';
      break;
    case 'completed':
      order.completedAt = now;
      if (order.signature) order.signee = order.deliveryName;
      break;
    default:
      break;
  }
  return previous;
}
