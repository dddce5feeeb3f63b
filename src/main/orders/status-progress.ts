/**
 * Which status an order is in when news arrives late, twice or out of order (webhooks promise
 * neither order nor single delivery). The stated flow is draft → expected → in_transit →
 * out_for_delivery → completed, with cancelled possible up to in_transit; statuses outside it
 * get a place after the point in the flow where they can happen. Terminal statuses never change.
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
  /** The service's updatedAt for that status (ISO 8601), when known. */
  updatedAt: string | null;
}

export interface StatusNews {
  status: OrderStatus;
  previousStatus: OrderStatus | null;
  updatedAt: string | null;
}

export type StatusDecision = 'applied' | 'same' | 'ignored-backward' | 'ignored-terminal';

export function decideStatus(current: KnownStatus, news: StatusNews): StatusDecision {
  if (current.status === null) return 'applied';
  if (news.status === current.status) return 'same';
  if (isTerminalStatus(current.status)) return 'ignored-terminal';
  // The event continues exactly from what we know: the service says so, whatever the ranks.
  if (news.previousStatus === current.status) return 'applied';
  if (isTerminalStatus(news.status)) return 'applied';
  const step = statusRank[news.status] - statusRank[current.status];
  if (step !== 0) return step > 0 ? 'applied' : 'ignored-backward';
  // Same stage, different status, and the chain is broken: the later service timestamp wins.
  if (news.updatedAt && current.updatedAt) {
    const newer = Date.parse(news.updatedAt) > Date.parse(current.updatedAt);
    return newer ? 'applied' : 'ignored-backward';
  }
  return 'ignored-backward';
}
