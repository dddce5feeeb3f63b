import { describe, expect, it } from 'vitest';
import { labelDataSchema, parseLabelData } from '../../../src/sandbox/labels/label-data';
import { bundleOf, labelFixture } from './label-fixture';

const issues = (input: unknown) => labelDataSchema.safeParse(input).error?.issues.map((issue) => issue.path.join('.')) ?? [];

describe('label data', () => {
  it('accepts an order with and without a bundle and normalises the country code', () => {
    expect(parseLabelData(labelFixture({ countryCode: 'be' })).countryCode).toBe('BE');
    expect(parseLabelData(labelFixture({ bundle: bundleOf(3, 3) })).bundle).toEqual(bundleOf(3, 3));
  });

  it('allows only barcode characters that ZPL and scanners pass through unchanged', () => {
    for (const barcode of ['JVGL0612345678', '00340434161094042557', 'AB-12.3/4+5']) expect(issues(labelFixture({ barcode }))).toEqual([]);
    for (const barcode of ['', 'AB 12', 'AB^12', 'AB~12', 'AB>12', 'AB_12', 'ÄB12']) expect(issues(labelFixture({ barcode }))).toContain('barcode');
  });

  it('refuses a barcode too long to scan on an A6 label', () => {
    expect(issues(labelFixture({ barcode: 'ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGH' }))).toContain('barcode');
    expect(issues(labelFixture({ barcode: '1'.repeat(48) }))).toEqual([]);
  });

  it('refuses a bundle position beyond the bundle size and a bad date or country', () => {
    expect(issues(labelFixture({ bundle: bundleOf(4, 3) }))).toContain('bundle.index');
    expect(issues(labelFixture({ bundle: bundleOf(0, 3) }))).toContain('bundle.index');
    expect(issues(labelFixture({ createdAt: 'yesterday' }))).toContain('createdAt');
    expect(issues(labelFixture({ countryCode: 'NLD' }))).toContain('countryCode');
  });

  it('names every missing field', () => {
    expect(issues({})).toEqual(
      expect.arrayContaining(['orderId', 'orderRef', 'barcode', 'deliveryName', 'deliveryAddress', 'postalCode', 'countryCode', 'senderName', 'createdAt']),
    );
  });
});
