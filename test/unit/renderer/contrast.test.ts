import { describe, expect, it } from 'vitest';
import { contrastRatio, palette, paletteProperties, strokes } from '../../../src/renderer/src/theme/palette';

describe('colour contrast (WCAG AA)', () => {
  it('computes contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('gives every text colour at least 4.5:1 against its background', () => {
    for (const [name, pair] of Object.entries(palette)) expect(contrastRatio(pair.fg, pair.bg), name).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps outlines and field borders at 3:1 against the page and cards', () => {
    for (const [name, colour] of Object.entries(strokes)) {
      expect(contrastRatio(colour, palette.page.bg), name).toBeGreaterThanOrEqual(3);
      expect(contrastRatio(colour, palette.card.bg), name).toBeGreaterThanOrEqual(3);
    }
  });

  it('sets a custom property for each colour the stylesheet uses', () => {
    const names = new Map(paletteProperties());
    expect(names.get('--live-bg')).toBe(palette.live.bg);
    expect(names.get('--warning-fg')).toBe(palette.warning.fg);
    expect(names.get('--focus-ring')).toBe(strokes['focus-ring']);
  });
});
