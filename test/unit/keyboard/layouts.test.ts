import { describe, expect, it } from 'vitest';
import { composeDeadKey, keyboardLayoutIds, keyOutput, strokesFor } from '../../../src/shared/keyboard/layouts';
import { chartKeys, keyboardCharts } from '../../support/keyboard-charts';

describe('the keyboard layouts agree with their published charts', () => {
  for (const layout of keyboardLayoutIds) {
    it(`${layout}: every key alone and with Shift, the 102nd key, and its AltGr characters`, () => {
      const chart = keyboardCharts[layout];
      const keys = chartKeys(chart);
      // Four rows of 13, 13, 11 and 10 keys plus the 102nd key, at two levels, less the keys that type nothing.
      expect(keys.length).toBeGreaterThan(90);
      const wrong = keys.filter((key) => {
        const output = keyOutput(layout, { code: key.code, shift: key.shift, altGraph: false });
        return key.dead ? JSON.stringify(output) !== JSON.stringify({ dead: key.character }) : output !== key.character;
      });
      expect(wrong.map((key) => `${key.code}${key.shift ? '+Shift' : ''} should type ${key.character}`)).toEqual([]);
      for (const [code, character] of Object.entries(chart.altGr)) expect(keyOutput(layout, { code, shift: false, altGraph: true }), `AltGr+${code}`).toBe(character);
    });
  }

  it('types the same digits on the numpad on every layout, and Space as a space', () => {
    for (const layout of keyboardLayoutIds) {
      for (const digit of '0123456789') expect(keyOutput(layout, { code: `Numpad${digit}`, shift: false, altGraph: false })).toBe(digit);
      expect(keyOutput(layout, { code: 'Space', shift: true, altGraph: false })).toBe(' ');
    }
  });

  it('knows where a character is typed, the plainest way first and never on the numpad', () => {
    expect(strokesFor('fr', '1')).toEqual([{ code: 'Digit1', shift: true, altGraph: false }]);
    expect(strokesFor('de', '-')).toEqual([{ code: 'Slash', shift: false, altGraph: false }]);
    expect(strokesFor('us', '\\')[0]).toEqual({ code: 'Backslash', shift: false, altGraph: false });
    expect(strokesFor('de', '@')).toEqual([{ code: 'KeyQ', shift: false, altGraph: true }]);
    expect(strokesFor('us', '€')).toEqual([]);
  });

  it('composes a dead key with what follows as Windows does', () => {
    expect(composeDeadKey('^', 'e')).toBe('ê');
    expect(composeDeadKey('¨', 'u')).toBe('ü');
    expect(composeDeadKey('´', ' ')).toBe('´');
    expect(composeDeadKey('^', '1')).toBe('^1');
  });
});
