import { describe, expect, it } from 'vitest';
import { assertPrintable, checkPrintable } from '../../../src/main/orders/printability';
import { StationError } from '../../../src/shared/errors';

const order = (status: Parameters<typeof checkPrintable>[0]['status']) => ({ orderId: 'ORD-1', orderRef: 'REF-1', status });

describe('printability', () => {
  it('allows orders with a live or unknown status', () => {
    expect(checkPrintable(order(null))).toEqual({ allowed: true, status: null, overridden: false });
    expect(checkPrintable(order('draft'))).toMatchObject({ allowed: true });
    expect(checkPrintable(order('in_transit'))).toMatchObject({ allowed: true });
  });

  it('refuses terminal orders in words a packer understands', () => {
    const decision = checkPrintable(order('cancelled'));
    expect(decision.allowed).toBe(false);
    if (!decision.allowed) expect(decision.message).toContain('REF-1 (order ORD-1) is cancelled');
    for (const status of ['completed', 'returned', 'lost'] as const) expect(checkPrintable(order(status)).allowed).toBe(false);
  });

  it('lets a person override the refusal, with who and why', () => {
    const override = { operator: 'Lead Anna', reason: 'customer re-ordered, same parcel' };
    expect(checkPrintable(order('cancelled'), override)).toEqual({ allowed: true, status: 'cancelled', overridden: true, override });
  });

  it('does not accept an override without a name or a reason', () => {
    expect(checkPrintable(order('cancelled'), { operator: ' ', reason: 'x' }).allowed).toBe(false);
    expect(checkPrintable(order('cancelled'), { operator: 'Anna', reason: '' }).allowed).toBe(false);
  });

  it('throws ORDER_TERMINAL for the printing code', () => {
    expect(() => assertPrintable(order('lost'))).toThrow(StationError);
    try {
      assertPrintable(order('lost'));
    } catch (error) {
      expect((error as StationError).code).toBe('ORDER_TERMINAL');
    }
    expect(assertPrintable(order('expected'))).toMatchObject({ allowed: true, overridden: false });
  });
});
