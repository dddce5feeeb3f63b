import { describe, expect, it } from 'vitest';
import { GROUP_SEPARATOR, MAX_SCAN_LENGTH, normalizeIdentifier, normalizeScan } from '../../../src/shared/scan';

const value = (raw: string) => {
  const result = normalizeScan(raw);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(raw)} to normalise, got ${result.reason}`);
  return result.value;
};

describe('scan normalisation', () => {
  it('trims the Enter, Tab and spaces a scanner or a person adds', () => {
    expect(value('  REF-1001\r\n')).toBe('REF-1001');
    expect(value('\tREF-1001\t')).toBe('REF-1001');
  });

  it('keeps case and inner spaces: matching is exact', () => {
    expect(value('ref-1001')).toBe('ref-1001');
    expect(value('AB 12 CD')).toBe('AB 12 CD');
  });

  it('strips an AIM symbology identifier and reports which one it was', () => {
    expect(normalizeScan(']C1REF-1001')).toEqual({ ok: true, value: 'REF-1001', symbology: 'C1' });
    expect(normalizeScan(']E0 8712345678906')).toEqual({ ok: true, value: '8712345678906', symbology: 'E0' });
    expect(normalizeScan(']Q3ORDER-7')).toEqual({ ok: true, value: 'ORDER-7', symbology: 'Q3' });
    expect(normalizeScan('REF-1001')).toEqual({ ok: true, value: 'REF-1001', symbology: null });
  });

  it('strips the identifier only at the start, after trimming', () => {
    expect(value('  ]C0ABC')).toBe('ABC');
    expect(value('AB]C0C')).toBe('AB]C0C');
  });

  it('maps every spelling of GS/FNC1 to the one separator byte', () => {
    const expected = `0112345678901231${GROUP_SEPARATOR}10LOT7`;
    for (const spelling of ['\x1D', '<GS>', '<gs>', '{GS}', '[GS]', '<FNC1>', 'Alt029', 'Alt0029', 'ALT+029', '^]', '\u241D']) {
      expect(value(`0112345678901231${spelling}10LOT7`), spelling).toBe(expected);
    }
  });

  it('drops a separator at either end (FNC1 in first position, a trailing FNC1)', () => {
    expect(value(']C1\x1D0112345678901231\x1D')).toBe('0112345678901231');
    expect(value('<GS>REF-1<GS>')).toBe('REF-1');
  });

  it('drops spaces, line ends and separators at the ends however they alternate, so normalising again changes nothing (found by fuzzing)', () => {
    expect(value('a [GS]\r<FNC1>Alt+029')).toBe('a');
    expect(value('\x1D \x1D\tREF-1 \x1D\r\n\x1D ')).toBe('REF-1');
    expect(value(value('a [GS]\r<FNC1>Alt+029'))).toBe('a');
  });

  it('refuses control and invisible characters with a reason that names the character', () => {
    for (const raw of ['REF\x07-1', 'REF\x00', 'RE\u200BF', 'REF\u2028X', 'A\x1BB']) {
      const result = normalizeScan(raw);
      expect(result.ok, JSON.stringify(raw)).toBe(false);
      if (!result.ok) {
        expect(result.reason).toBe('control-character');
        expect(result.message).toMatch(/U\+[0-9A-F]{4}/);
      }
    }
  });

  it('refuses an empty scan', () => {
    for (const raw of ['', '   ', '\r\n', ']C1', '<GS>']) {
      const result = normalizeScan(raw);
      expect(result).toMatchObject({ ok: false, reason: 'empty' });
    }
  });

  it('refuses absurd lengths, before and after normalisation', () => {
    expect(normalizeScan('A'.repeat(MAX_SCAN_LENGTH))).toMatchObject({ ok: true });
    expect(normalizeScan('A'.repeat(MAX_SCAN_LENGTH + 1))).toMatchObject({ ok: false, reason: 'too-long' });
    const huge = normalizeScan('x'.repeat(1_000_000));
    expect(huge).toMatchObject({ ok: false, reason: 'too-long' });
    if (!huge.ok) expect(huge.message).toContain('1000000');
  });

  it('normalises stored identifiers the same way as scans, so they compare equal', () => {
    expect(normalizeIdentifier(' 0112345678901231<GS>10LOT7 ')).toBe(value(']C10112345678901231\x1D10LOT7'));
    expect(normalizeIdentifier('')).toBeNull();
    expect(normalizeIdentifier(null)).toBeNull();
    expect(normalizeIdentifier(undefined)).toBeNull();
  });
});
