/**
 * Scan text as any scanner, keyboard or paste can deliver it: normalising never throws, answers
 * within milliseconds whatever the length, gives a value that holds nothing invisible and fits a
 * scan, or refuses with one of its coded reasons; and a barcode reads the same however a scanner
 * wraps it (AIM prefix, GS spelled any way, Enter or Tab after it): a round trip.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GROUP_SEPARATOR, MAX_SCAN_LENGTH, normalizeScan } from '../../src/shared/scan';
import { fuzz, timed, quickMs } from './budget';

// eslint-disable-next-line no-control-regex -- control characters are what must not come through
const invisible = /(?!\x1D)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const gsSpellings = ['\x1D', '<GS>', '{GS}', '[GS]', '<FNC1>', 'Alt0029', 'Alt+029', '^]', '\u241D'];

describe('scan text (fuzzed)', () => {
  it('never throws, answers quickly, and gives either a clean value or a coded refusal', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.string({ unit: fc.constantFrom(...gsSpellings, ']', 'C', '1', ' ', '\r', '\t', 'a'), maxLength: 400 })), (raw) => {
        const { value: result, ms } = timed(() => normalizeScan(raw));
        expect(ms).toBeLessThan(quickMs);
        if (result.ok) {
          expect(result.value.length).toBeGreaterThan(0);
          expect(result.value.length).toBeLessThanOrEqual(MAX_SCAN_LENGTH);
          expect(invisible.test(result.value)).toBe(false);
          expect(result.value).toBe(result.value.trim());
          expect(result.value.startsWith(GROUP_SEPARATOR) || result.value.endsWith(GROUP_SEPARATOR)).toBe(false);
        } else {
          expect(['empty', 'too-long', 'control-character']).toContain(result.reason);
        }
      }),
      fuzz(5000),
    );
  });

  it('reads a barcode the same however a scanner wraps it: AIM prefix, any GS spelling, Enter or Tab', () => {
    const part = fc.string({ unit: fc.constantFrom(...'ABCDEFXYZ0123456789-./'), minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(...gsSpellings), { minLength: 4, maxLength: 4 }),
        fc.option(fc.constantFrom(']C1', ']E0', ']Q3', ']d2'), { nil: '' }),
        fc.constantFrom('', '\r', '\n', '\r\n', '\t', ' '),
        (parts, spellings, prefix, suffix) => {
          const data = parts.join(GROUP_SEPARATOR);
          const scanned = prefix + parts.map((piece, index) => (index === 0 ? piece : `${spellings[index - 1]}${piece}`)).join('') + suffix;
          const result = normalizeScan(scanned);
          if (data.length > MAX_SCAN_LENGTH) expect(result).toMatchObject({ ok: false, reason: 'too-long' });
          else expect(result).toEqual({ ok: true, value: data, symbology: prefix === '' ? null : prefix.slice(1) });
        },
      ),
      fuzz(3000),
    );
  });
});
