import { describe, expect, it } from 'vitest';
import { StableWeightFilter } from '../../../src/shared/scales/stable-weight';

const steady = (grams: number) => ({ kind: 'weight' as const, grams, steady: true, net: false, tareGrams: null });
const moving = (grams: number) => ({ kind: 'weight' as const, grams, steady: false, net: false, tareGrams: null });

describe('stable weight', () => {
  it('is stable only after the readings agreed for the whole window', () => {
    const filter = new StableWeightFilter({ windowMs: 600, toleranceGrams: 2 });
    expect(filter.push(steady(1250), 0).state).toBe('settling');
    expect(filter.push(steady(1251), 300).state).toBe('settling');
    expect(filter.push(steady(1250), 600)).toMatchObject({ state: 'stable', grams: 1250, zero: false });
  });

  it('a reading outside the tolerance starts the window again', () => {
    const filter = new StableWeightFilter({ windowMs: 600, toleranceGrams: 2 });
    filter.push(steady(1250), 0);
    filter.push(steady(1250), 300);
    expect(filter.push(steady(1262), 600).state).toBe('settling');
    expect(filter.push(steady(1262), 900).state).toBe('settling');
    expect(filter.push(steady(1263), 1200)).toMatchObject({ state: 'stable', grams: 1263 });
  });

  it('motion, or a condition, breaks the window', () => {
    const filter = new StableWeightFilter({ windowMs: 600, toleranceGrams: 2 });
    filter.push(steady(500), 0);
    filter.push(steady(500), 300);
    expect(filter.push(moving(500), 500)).toMatchObject({ state: 'settling', grams: 500 });
    expect(filter.push(steady(500), 700).state).toBe('settling');
    expect(filter.push({ kind: 'condition', condition: 'overload', detail: 'S +' }, 900)).toMatchObject({ state: 'condition', condition: 'overload' });
    expect(filter.push(steady(500), 1000).state).toBe('settling');
    expect(filter.push(steady(500), 1600).state).toBe('stable');
  });

  it('a steady zero is stable and says zero', () => {
    const filter = new StableWeightFilter({ windowMs: 200, toleranceGrams: 1 });
    filter.push(steady(0), 0);
    expect(filter.push(steady(0), 200)).toMatchObject({ state: 'stable', grams: 0, zero: true });
  });
});
