/**
 * Which status an order is in when news arrives late, twice or out of order (webhooks promise
 * neither order nor single delivery). In order of trust:
 *  1. terminal statuses never change again (spec);
 *  2. the service's own time of each status (`updatedAt`), when both sides have one: later wins,
 *     which also gets repeated statuses right (a second delivery attempt goes out_for_delivery twice);
 *  3. an event whose previousStatus is the status we know continues exactly from it;
 *  4. otherwise the order of statuses: the stated flow draft → expected → in_transit →
 *     out_for_delivery → completed, with the unstated statuses placed after the point in the
 *     flow where they can happen; a move to a lower rank is a move backwards and is ignored.
 * Times the station made up itself (when it learnt of a status from a manifest) are never
 * compared with the service's, so they are not stored as status times.
 */
import { terminalStatuses, type OrderStatus } from '../../shared/api/schemas';

/** Progress through the delivery: a move to a lower rank is a move backwards. */
export const statusRank: Readonly<Record<OrderStatus, number>> = {
  draft: 0,
  expected: 1,
  inactive: 2, // label printed, never scanned
  in_transit: 3,
  missing: 4, // scanned once, now not found
  error: 4,
  out_for_delivery: 5,
  awaiting_next_attempt: 6,
  at_pickup_point: 6,
  address_not_found: 7,
  rejected: 7,
  failed: 7,
  in_return_transit: 8,
  completed: 9,
  returned: 9,
  lost: 9,
  cancelled: 9,
};

export const isTerminalStatus = (status: OrderStatus): boolean => terminalStatuses.includes(status);

export interface KnownStatus {
  status: OrderStatus | null;
  /** The service's updatedAt for that status (ISO 8601), when it told us. */
  updatedAt: string | null;
}

export interface StatusNews {
  status: OrderStatus;
  previousStatus: OrderStatus | null;
  /** The service's updatedAt for the news, when the source carries it. */
  updatedAt: string | null;
}

export type StatusDecision = 'applied' | 'same' | 'ignored-backward' | 'ignored-terminal';

export function decideStatus(current: KnownStatus, news: StatusNews): StatusDecision {
  if (current.status === null) return 'applied';
  if (isTerminalStatus(current.status)) return news.status === current.status ? 'same' : 'ignored-terminal';
  const order = compareTimes(news.updatedAt, current.updatedAt);
  if (order !== 0) {
    if (news.status === current.status) return 'same';
    return order > 0 ? 'applied' : 'ignored-backward';
  }
  if (news.status === current.status) return 'same';
  // The event continues exactly from what we know: the service says so, whatever the ranks.
  if (news.previousStatus === current.status) return 'applied';
  if (isTerminalStatus(news.status)) return 'applied';
  return statusRank[news.status] > statusRank[current.status] ? 'applied' : 'ignored-backward';
}

/** The later of two service times (for keeping the newest time of a repeated status). */
export function laterTime(a: string | null, b: string | null): string | null {
  return compareTimes(a, b) >= 0 ? (a ?? b) : b;
}

/** >0 when a is later, <0 when earlier, 0 when equal or either is unknown. */
function compareTimes(a: string | null, b: string | null): number {
  if (a === null || b === null) return 0;
  const left = Date.parse(a);
  const right = Date.parse(b);
  if (Number.isNaN(left) || Number.isNaN(right)) return 0;
  return Math.sign(left - right);
}
