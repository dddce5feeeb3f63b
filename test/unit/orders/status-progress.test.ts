import { describe, expect, it } from 'vitest';
import { orderStatuses, terminalStatuses, type OrderStatus } from '../../../src/shared/api/schemas';
import { decideStatus, statusRank } from '../../../src/main/orders/status-progress';

const known = (status: OrderStatus | null, updatedAt: string | null = null) => ({ status, updatedAt });
const news = (status: OrderStatus, previousStatus: OrderStatus | null, updatedAt: string | null = null) => ({ status, previousStatus, updatedAt });

describe('order status progress', () => {
  it('ranks every status of the spec, terminal ones last', () => {
    expect(Object.keys(statusRank).sort()).toEqual([...orderStatuses].sort());
    const highest = Math.max(...Object.values(statusRank));
    for (const status of terminalStatuses) expect(statusRank[status]).toBe(highest);
  });

  it('takes the first status it hears of', () => {
    expect(decideStatus(known(null), news('in_transit', 'expected'))).toBe('applied');
  });

  it('follows the stated flow forwards', () => {
    expect(decideStatus(known('draft'), news('expected', 'draft'))).toBe('applied');
    expect(decideStatus(known('expected'), news('in_transit', 'expected'))).toBe('applied');
    expect(decideStatus(known('in_transit'), news('out_for_delivery', 'in_transit'))).toBe('applied');
    expect(decideStatus(known('out_for_delivery'), news('completed', 'out_for_delivery'))).toBe('applied');
  });

  it('jumps ahead when events in between were missed or are late', () => {
    expect(decideStatus(known('draft'), news('out_for_delivery', 'in_transit'))).toBe('applied');
  });

  it('ignores a late event that would move the order backwards', () => {
    expect(decideStatus(known('out_for_delivery'), news('expected', 'draft'))).toBe('ignored-backward');
    expect(decideStatus(known('in_transit'), news('draft', null))).toBe('ignored-backward');
  });

  it('never leaves a terminal status', () => {
    for (const terminal of terminalStatuses) {
      expect(decideStatus(known(terminal), news('in_transit', 'expected'))).toBe('ignored-terminal');
      expect(decideStatus(known(terminal), news('draft', terminal))).toBe('ignored-terminal');
    }
  });

  it('lets a cancellation through from any live status', () => {
    expect(decideStatus(known('in_transit'), news('cancelled', 'in_transit'))).toBe('applied');
    expect(decideStatus(known('out_for_delivery'), news('cancelled', 'expected'))).toBe('applied');
  });

  it('trusts previousStatus when the event continues from what is known, even to a lower stage', () => {
    // A second delivery attempt: awaiting_next_attempt -> out_for_delivery.
    expect(decideStatus(known('awaiting_next_attempt'), news('out_for_delivery', 'awaiting_next_attempt'))).toBe('applied');
    expect(decideStatus(known('awaiting_next_attempt'), news('out_for_delivery', 'in_transit'))).toBe('ignored-backward');
  });

  it('goes by the service time first, so a status entered twice is followed and a late event is not', () => {
    const t = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
    // Second delivery attempt delivered late: out_for_delivery (10:30) after awaiting_next_attempt (10:20).
    expect(decideStatus(known('awaiting_next_attempt', t(20)), news('out_for_delivery', 'awaiting_next_attempt', t(30)))).toBe('applied');
    // The first out_for_delivery (10:10) arriving after all of that changes nothing.
    expect(decideStatus(known('out_for_delivery', t(30)), news('out_for_delivery', 'in_transit', t(10)))).toBe('same');
    // The awaiting_next_attempt event (10:20) arriving after the second attempt (10:30) is old news,
    // even though its previousStatus is the status known now.
    expect(decideStatus(known('out_for_delivery', t(30)), news('awaiting_next_attempt', 'out_for_delivery', t(20)))).toBe('ignored-backward');
    // Without times, the status order decides.
    expect(decideStatus(known('out_for_delivery', null), news('expected', 'draft', t(5)))).toBe('ignored-backward');
  });

  it('breaks a tie between statuses of one stage by the service time', () => {
    const earlier = '2026-03-01T10:00:00.000Z';
    const later = '2026-03-01T11:00:00.000Z';
    expect(decideStatus(known('awaiting_next_attempt', earlier), news('at_pickup_point', 'out_for_delivery', later))).toBe('applied');
    expect(decideStatus(known('awaiting_next_attempt', later), news('at_pickup_point', 'out_for_delivery', earlier))).toBe('ignored-backward');
  });

  it('calls a repeat of the known status the same', () => {
    expect(decideStatus(known('expected'), news('expected', 'draft'))).toBe('same');
    expect(decideStatus(known('cancelled'), news('cancelled', 'draft'))).toBe('same');
  });
});
