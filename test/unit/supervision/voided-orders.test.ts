import { describe, expect, it } from 'vitest';
import { assertPrintable, checkPrintable } from '../../../src/main/orders/printability';
import { StationError } from '../../../src/shared/errors';

const voided = { at: '2026-03-01T09:42:00.000Z', by: 'Anna', reason: 'customer called' };
const order = { orderId: 'ORD-1', orderRef: 'REF-1', status: 'cancelled' as const, voided };

describe('an order cancelled from this station', () => {
  it('is refused as ORDER_VOIDED with when, by whom and why, even with a lead’s override', () => {
    let thrown: unknown;
    try {
      assertPrintable(order, { operator: 'Lead Lisa', reason: 'print it anyway' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StationError);
    expect((thrown as StationError).code).toBe('ORDER_VOIDED');
    expect((thrown as StationError).details).toEqual(['voided_at: 2026-03-01T09:42:00.000Z', 'voided_by: Anna', 'reason: customer called']);
    expect(checkPrintable(order, { operator: 'Lead Lisa', reason: 'print it anyway' }).allowed).toBe(false);
  });

  it('is still overridable like any cancelled order when the cancellation came from elsewhere (no void mark)', () => {
    expect(checkPrintable({ ...order, voided: null }, { operator: 'Lead Lisa', reason: 'reordered' }).allowed).toBe(true);
  });

});
