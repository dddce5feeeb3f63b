import bwipjs from 'bwip-js/node';
import { describe, expect, it } from 'vitest';
import { code128Segments, encodeCode128 } from '../../../src/sandbox/labels/code128';

/** Bar and space widths of a symbol, the form bwip-js reports them in. */
function widths(bars: Array<readonly [number, number]>): number[] {
  const out: number[] = [];
  let edge = 0;
  for (const [offset, width] of bars) {
    if (offset > edge) out.push(offset - edge);
    out.push(width);
    edge = offset + width;
  }
  return out;
}

/** bwip-js (BWIPP) as an independent reference encoder. */
function reference(text: string): number[] {
  const [symbol] = bwipjs.raw({ bcid: 'code128', text });
  if (!symbol || !('sbs' in symbol)) throw new Error('bwip-js gave no linear symbol');
  return symbol.sbs;
}

describe('Code 128 encoder', () => {
  it('builds the textbook symbol for ABC: start B, data, check value, stop', () => {
    // check = (104 + 33*1 + 34*2 + 35*3) mod 103 = 1
    expect(encodeCode128('ABC').values).toEqual([104, 33, 34, 35, 1, 106]);
  });

  it('uses code set C for long digit runs and keeps letters in set B', () => {
    expect(code128Segments('JVGL0612345678')).toEqual([
      { set: 'B', text: 'JVGL' },
      { set: 'C', text: '0612345678' },
    ]);
    expect(code128Segments('00123456')).toEqual([{ set: 'C', text: '00123456' }]);
    expect(code128Segments('AB1234CD')).toEqual([{ set: 'B', text: 'AB1234CD' }]);
  });

  it.each(['JVGL0612345678', 'ABC', '12', '1234', '12345AB', 'AB12345', 'AB123456CD', '3SDEV0001234567', 'X', 'a.b-c/d+e'])(
    'draws %s bar for bar as bwip-js does',
    (text) => {
      expect(widths(encodeCode128(text).bars)).toEqual(reference(text));
    },
  );

  it.each(['12345', 'AB1234CD', '1234567890123', 'NL-2024-000123', 'a1b22c333d4444e55555', '0'])(
    'is as short as bwip-js for %s (ties may pick other code sets)',
    (text) => {
      const total = reference(text).reduce((sum, width) => sum + width, 0);
      expect(encodeCode128(text).modules).toBe(total);
    },
  );

  it('ends every symbol with the 13-module stop pattern after 11-module characters', () => {
    const symbol = encodeCode128('JVGL0612345678');
    expect(symbol.modules).toBe(11 * (symbol.values.length - 1) + 13);
    const last = symbol.bars.at(-1);
    expect(last && last[0] + last[1]).toBe(symbol.modules);
  });

  it('refuses text that Code 128 set B cannot carry', () => {
    expect(() => encodeCode128('')).toThrow(RangeError);
    expect(() => encodeCode128('tab\there')).toThrow(RangeError);
    expect(() => encodeCode128('Zoë')).toThrow(RangeError);
  });
});
