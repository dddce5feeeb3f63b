import { describe, expect, it } from 'vitest';
import { createI18n } from './all-languages';
import { selectionTotals, toPrintOf } from '../../../src/renderer/src/shift/run-math';

describe('shift start counts (issue 15)', () => {
  it('never counts cancelled or finished parcels as ones to print', () => {
    const listed = [
      { bundleId: 'B1', parcels: 10, printed: 3, leftOut: 2 },
      { bundleId: 'B2', parcels: 4, printed: 0 },
    ];
    expect(toPrintOf(listed[0]!)).toBe(5);
    expect(selectionTotals(['B1', 'B2'], listed)).toEqual({ labels: 9, unlisted: [] });
  });

  it('words one bundle and one parcel in the singular, in English and Dutch', () => {
    const summary = (language: 'en' | 'nl', bundles: number, parcels: number) => {
      const { t } = createI18n(language);
      return t('shift.listedSummary', { bundles: t('shift.listedBundles', { count: bundles }), toPrint: t('shift.toPrint', { count: parcels }) });
    };
    expect(summary('en', 1, 1)).toBe('1 bundle, 1 parcel to print');
    expect(summary('en', 2, 7)).toBe('2 bundles, 7 parcels to print');
    expect(summary('nl', 1, 1)).toBe('1 bundel met 1 pakket te printen');
    expect(summary('nl', 3, 12)).toBe('3 bundels met 12 pakketten te printen');
    expect(createI18n('en').t('shift.leftOut', { count: 1 })).toBe('1 cancelled or finished parcel left out');
  });
});

describe('a run on screen', () => {
  it('says "1 bundle on" for a run of one bundle, in every language with its own plural', () => {
    expect(createI18n('en').t('shift.runOn', { count: 1, printer: 'Bench 3' })).toBe('1 bundle on Bench 3');
    expect(createI18n('en').t('shift.runOn', { count: 4, printer: 'Bench 3' })).toBe('4 bundles on Bench 3');
    expect(createI18n('nl').t('shift.runOn', { count: 1, printer: 'Bench 3' })).toBe('1 bundel op Bench 3');
  });
});
