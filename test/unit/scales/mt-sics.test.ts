import { describe, expect, it } from 'vitest';
import { parseMtSicsLine } from '../../../src/shared/scales/mt-sics';

// Answer lines as the MT-SICS reference manual prints them (S command, "Example": S S     100.00 g).
describe('MT-SICS answers', () => {
  it('reads a stable weight in grams, and kilograms and pounds as grams', () => {
    expect(parseMtSicsLine('S S     100.00 g')).toEqual({ kind: 'weight', grams: 100, steady: true, net: false, tareGrams: null });
    expect(parseMtSicsLine('S S      1.235 kg\r\n')).toMatchObject({ grams: 1235, steady: true });
    expect(parseMtSicsLine('S S       2.00 lb')).toMatchObject({ grams: 907.2 });
  });

  it('reads a hair below zero ("-0", "-0.04 g") as 0 g, never "-0 g" (found by fuzzing)', () => {
    for (const line of ['S S         -0 g', 'S S      -0.04 g', 'S D     -0.000 kg']) {
      const sample = parseMtSicsLine(line);
      expect(sample).toMatchObject({ kind: 'weight', grams: 0 });
      expect(Object.is(sample.kind === 'weight' ? sample.grams : null, -0)).toBe(false);
    }
  });

  it('reads a dynamic weight (SI while the load moves) as not steady', () => {
    expect(parseMtSicsLine('S D     412.50 g')).toMatchObject({ kind: 'weight', grams: 412.5, steady: false });
  });

  it('says overload, underload, not executable and the general errors plainly', () => {
    expect(parseMtSicsLine('S +')).toEqual({ kind: 'condition', condition: 'overload', detail: 'S +' });
    expect(parseMtSicsLine('S -')).toEqual({ kind: 'condition', condition: 'negative', detail: 'S -' });
    expect(parseMtSicsLine('S I')).toEqual({ kind: 'condition', condition: 'busy', detail: 'S I' });
    for (const error of ['ES', 'ET', 'EL']) expect(parseMtSicsLine(error)).toEqual({ kind: 'condition', condition: 'fault', detail: error });
  });

  it('calls a negative weight negative, and anything else bad data', () => {
    expect(parseMtSicsLine('S S     -12.00 g')).toMatchObject({ condition: 'negative' });
    expect(parseMtSicsLine('S S     12.00 stone')).toMatchObject({ condition: 'bad-data' });
    expect(parseMtSicsLine('S S    1x2.00 g')).toMatchObject({ condition: 'bad-data' });
    expect(parseMtSicsLine('\u0002+ 0012.30 kg')).toMatchObject({ condition: 'bad-data' });
    expect(parseMtSicsLine(`S S ${'9'.repeat(80)} g`)).toMatchObject({ condition: 'bad-data' });
  });
});
