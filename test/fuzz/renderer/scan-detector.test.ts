/**
 * The scan detector under any key stream a keyboard, a scanner or a stuck key can produce: it
 * never throws, never holds more than a scan's worth of text, reads a scanner's barcode exactly
 * (a round trip from the keys it typed), never takes a person's slow typing for a scan, and
 * starts clean after reset(). Written against its public feed()/reset() only.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createScanDetector, defaultScanDetectorOptions, type KeyFacts, type KeyTarget } from '../../../src/renderer/src/scan/scan-detector';
import { MAX_RAW_SCAN_LENGTH } from '../../../src/shared/scan';
import { fuzz, timed } from '../budget';

const { maxGapMs, minLength } = defaultScanDetectorOptions;

const plainKey = (key: string, time: number, target: KeyTarget = 'other'): KeyFacts => ({ key, time, ctrlKey: false, altKey: false, metaKey: false, repeat: false, isComposing: false, target });

/** Any key a browser can report: characters of any script, named keys, modifiers, numpad digits, at any time. */
const anyKey: fc.Arbitrary<KeyFacts> = fc.record({
  key: fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 2 }),
    fc.constantFrom('Enter', 'Tab', 'Shift', 'Control', 'Alt', 'AltGraph', 'Dead', 'Process', 'Unidentified', 'Backspace', 'Escape', ']', '\x1D', ' ', ''),
  ),
  code: fc.option(fc.constantFrom('Numpad0', 'Numpad2', 'Numpad9', 'NumpadEnter', 'BracketRight', 'KeyA', 'Digit1', 'Numpadx'), { nil: undefined }),
  time: fc.oneof(fc.double({ min: -1e6, max: 1e9, noNaN: false }), fc.integer({ min: 0, max: 10_000 })),
  ctrlKey: fc.boolean(),
  altKey: fc.boolean(),
  metaKey: fc.boolean(),
  repeat: fc.boolean(),
  isComposing: fc.boolean(),
  target: fc.constantFrom<KeyTarget>('other', 'other', 'other', 'manual-entry', 'text-field'),
});

/** A barcode's text as a scanner types it (letters, digits and the signs refs use). */
const barcode = fc.string({ unit: fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789'), minLength, maxLength: 48 });

/** Feeds `text` as a scanner would: every gap within the detector's limit, then Enter. */
function typeAsScanner(feed: (facts: KeyFacts) => ReturnType<ReturnType<typeof createScanDetector>['feed']>, text: string, start: number, gaps: readonly number[]) {
  let time = start;
  const decisions = [...text].map((key, index) => {
    time += index === 0 ? 0 : (gaps[index % gaps.length] ?? 0);
    return feed(plainKey(key, time));
  });
  decisions.push(feed(plainKey('Enter', time + (gaps[0] ?? 0))));
  return decisions;
}

describe('the scan detector (fuzzed)', () => {
  it('never throws on any key stream, and never holds or hands on more than a scan can be', () => {
    fc.assert(
      fc.property(fc.array(anyKey, { maxLength: 300 }), (keys) => {
        const detector = createScanDetector();
        for (const facts of keys) {
          const decision = detector.feed(facts);
          expect(Number.isInteger(decision.reading) && decision.reading >= 0).toBe(true);
          if (decision.scan !== undefined) {
            expect(decision.scan.length).toBeLessThanOrEqual(MAX_RAW_SCAN_LENGTH + 1);
            expect(decision.scanLength).toBeGreaterThanOrEqual([...decision.scan].length);
          }
        }
      }),
      fuzz(1500),
    );
  });

  it('reads what a scanner typed exactly, once, at its Enter (a round trip), after any keys before and a reset', () => {
    fc.assert(
      fc.property(fc.array(anyKey, { maxLength: 40 }), barcode, fc.array(fc.integer({ min: 0, max: maxGapMs }), { minLength: 1, maxLength: 8 }), (before, text, gaps) => {
        const detector = createScanDetector();
        for (const facts of before) detector.feed(facts);
        detector.reset();
        const decisions = typeAsScanner(detector.feed, text, 1e7, gaps);
        const scans = decisions.filter((decision) => decision.scan !== undefined);
        expect(scans.map(({ preventDefault, scan, scanLength, reading }) => ({ preventDefault, scan, scanLength, reading }))).toEqual([
          { preventDefault: true, scan: text, scanLength: text.length, reading: 0 },
        ]);
        expect(decisions.at(-1)?.scan).toBe(text);
      }),
      fuzz(1500),
    );
  });

  it('never takes a person typing (every gap longer than a scanner\'s) for a scan', () => {
    fc.assert(
      fc.property(barcode, fc.array(fc.integer({ min: maxGapMs + 1, max: 2_000 }), { minLength: 1, maxLength: 8 }), (text, gaps) => {
        const detector = createScanDetector();
        const decisions = typeAsScanner(detector.feed, text, 0, gaps);
        expect(decisions.filter((decision) => decision.scan !== undefined)).toEqual([]);
      }),
      fuzz(1000),
    );
  });

  it('keeps a stuck key\'s 100,000 characters to a scan\'s length, in well under a second', () => {
    const detector = createScanDetector();
    const { value: last, ms } = timed(() => {
      for (let n = 0; n < 100_000; n += 1) detector.feed(plainKey('7', n));
      return detector.feed(plainKey('Enter', 100_000));
    });
    expect(last.scan?.length).toBe(MAX_RAW_SCAN_LENGTH + 1);
    expect(last.scanLength).toBe(100_000);
    expect(ms).toBeLessThan(1000);
  });
});
