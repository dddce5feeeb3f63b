/** PATCH /orders/cancel/{orderId}: allowed up to and including in_transit. */
import { cancellableStatuses } from '../../../shared/api/schemas';
import { badRequest } from '../../http/errors';
import { orderRecord } from '../../world/views';
import { authorizeOrder, type ApiAnswer, type ApiContext } from '../context';

export function cancelOrder(ctx: ApiContext): ApiAnswer {
  const order = authorizeOrder(ctx, ctx.params.orderId!);
  if (!cancellableStatuses.includes(order.status)) {
    throw badRequest([`order ${order.orderId} can no longer be cancelled: its status is ${order.status} (cancelling is possible up to and including in_transit)`]);
  }
  ctx.world.moveOrder(ctx.env, order, 'cancelled');
  return { status: 200, body: orderRecord(order) };
}
