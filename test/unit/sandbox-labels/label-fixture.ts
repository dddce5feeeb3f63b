import type { LabelData } from '../../../src/sandbox/labels/label-data';

/** A plausible order's label data; tests override the fields they are about. */
export function labelFixture(overrides: Partial<LabelData> = {}): LabelData {
  return {
    orderId: 'ord_7f3a9c2e41',
    orderRef: 'SHOP-2024-000123',
    barcode: 'JVGL0612345678',
    deliveryName: 'Zoë van der Berg',
    deliveryAddress: 'Keizersgracht 123 A, 1015 CJ Amsterdam',
    postalCode: '1015 CJ',
    city: 'Amsterdam',
    countryCode: 'NL',
    senderName: 'Bakkerij De Gouden Korenaar B.V.',
    createdAt: '2024-06-11T08:15:00Z',
    ...overrides,
  };
}

export const bundleOf = (index: number, count: number) => ({ index, count, bundleId: 'BNDL-20240611-0042' });
