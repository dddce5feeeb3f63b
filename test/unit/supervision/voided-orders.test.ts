import { describe, expect, it } from 'vitest';
import { assertPrintable, checkPrintable } from '../../../src/main/orders/printability';
import { StationError } from '../../../src/shared/errors';
import { errorWords } from '../../../src/renderer/src/supervision/error-words';

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

  it('gives the screen the clock time and the lead for its own words', () => {
    const error = new StationError('ORDER_VOIDED', 'x', ['voided_at: 2026-03-01T09:42:00.000Z', 'voided_by: Anna', 'reason: customer called']).toData();
    const words = errorWords(error, 'en');
    expect(words.by).toBe('Anna');
    expect(words.reason).toBe('customer called');
    // The time in the station's own zone, as the packer's clock shows it.
    const local = new Date('2026-03-01T09:42:00.000Z');
    expect(words.time).toBe(`${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`);
    expect(errorWords(new StationError('CANCEL_REFUSED', 'y', ['status: out_for_delivery']).toData(), 'en').status).toBe('out_for_delivery');
  });
});
