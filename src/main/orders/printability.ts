/**
 * Whether a label may be printed for an order, given what the index knows of its status. A
 * terminal order (delivered, returned, lost, cancelled) gets no label unless a person overrides
 * the refusal and says why: printing one would put a dead parcel into the network.
 */
import type { OrderStatus } from '../../shared/api/schemas';
import { StationError, type ErrorFacts } from '../../shared/errors';
import type { IndexedOrder } from './order-index';
import { isTerminalStatus } from './status-progress';

export interface PrintOverride {
  operator: string;
  reason: string;
}

export type Printability =
  | { allowed: true; status: OrderStatus | null; overridden: false }
  | { allowed: true; status: OrderStatus; overridden: true; override: PrintOverride }
  | { allowed: false; status: OrderStatus; message: string };

const statusWords: Partial<Record<OrderStatus, string>> = {
  completed: 'already delivered',
  returned: 'returned to the sender',
  lost: 'confirmed lost',
  cancelled: 'cancelled',
};

type OrderFacts = Pick<IndexedOrder, 'orderId' | 'orderRef' | 'status' | 'voided'>;

export function checkPrintable(order: OrderFacts, override?: PrintOverride): Printability {
  const status = order.status;
  if (order.voided) {
    // Cancelled from this station: the service has no parcel to deliver, so no override prints one.
    return { allowed: false, status: status ?? 'cancelled', message: voidedMessage(order, order.voided) };
  }
  if (status === null || !isTerminalStatus(status)) return { allowed: true, status, overridden: false };
  if (override && override.operator.trim() !== '' && override.reason.trim() !== '') {
    return { allowed: true, status, overridden: true, override };
  }
  const name = order.orderRef ? `${order.orderRef} (order ${order.orderId})` : `Order ${order.orderId}`;
  return {
    allowed: false,
    status,
    message: `${name} is ${statusWords[status] ?? status}, so no label is printed for it. Put the parcel aside and ask your lead; a lead can override this with a reason.`,
  };
}

/**
 * For the printing code: returns the decision when printing may go ahead, throws ORDER_VOIDED
 * for an order cancelled from this station (details say when, by whom and why, for the screen's
 * own words) and ORDER_TERMINAL otherwise.
 */
export function assertPrintable(order: OrderFacts, override?: PrintOverride): Exclude<Printability, { allowed: false }> {
  if (order.voided) {
    throw new StationError('ORDER_VOIDED', voidedMessage(order, order.voided), voidDetails(order.voided), { facts: voidFacts(order, order.voided) });
  }
  const decision = checkPrintable(order, override);
  if (!decision.allowed) {
    throw new StationError('ORDER_TERMINAL', decision.message, [`status: ${decision.status}`], { facts: terminalFacts(order, decision.status) });
  }
  return decision;
}

/** What the screen words a terminal order's refusal with. */
export function terminalFacts(order: Pick<IndexedOrder, 'orderId' | 'orderRef'>, status: OrderStatus): ErrorFacts {
  return { orderRef: order.orderRef ?? order.orderId, orderId: order.orderId, status };
}

/** What the screen words a voided order's refusal with. */
export function voidFacts(order: Pick<IndexedOrder, 'orderId' | 'orderRef'>, voided: NonNullable<IndexedOrder['voided']>): ErrorFacts {
  return { orderRef: order.orderRef ?? order.orderId, orderId: order.orderId, voidedAt: voided.at, voidedBy: voided.by, reason: voided.reason };
}

/** The refusal's facts as `name: value` details, for logs and the CLI. */
export function voidDetails(voided: NonNullable<IndexedOrder['voided']>): string[] {
  return [`voided_at: ${voided.at}`, `voided_by: ${voided.by}`, `reason: ${voided.reason}`];
}

function voidedMessage(order: Pick<IndexedOrder, 'orderId' | 'orderRef'>, voided: NonNullable<IndexedOrder['voided']>): string {
  const name = order.orderRef ? `${order.orderRef} (order ${order.orderId})` : `Order ${order.orderId}`;
  return `${name} was cancelled at ${voided.at} by ${voided.by} (${voided.reason}). Keep it off the pallet.`;
}
