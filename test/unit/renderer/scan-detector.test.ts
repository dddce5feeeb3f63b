import { describe, expect, it } from 'vitest';
import { createScanDetector, type KeyDecision, type KeyFacts, type KeyTarget } from '../../../src/renderer/src/scan/scan-detector';

const key = (key: string, time: number, extra: Partial<KeyFacts> = {}): KeyFacts => ({
  key,
  time,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  repeat: false,
  isComposing: false,
  target: 'other',
  ...extra,
});

/** Types text one key every `gap` ms from `start`, then the suffix; returns every decision. */
function type(text: string, options: { gap: number; start?: number; suffix?: string; target?: KeyTarget; suffixGap?: number }) {
  const detector = createScanDetector();
  const decisions: KeyDecision[] = [];
  let time = options.start ?? 1000;
  for (const character of text) {
    decisions.push(detector.feed(key(character, time, { target: options.target ?? 'other' })));
    time += options.gap;
  }
  time += (options.suffixGap ?? options.gap) - options.gap;
  decisions.push(detector.feed(key(options.suffix ?? 'Enter', time, { target: options.target ?? 'other' })));
  return decisions;
}

const scanOf = (decisions: KeyDecision[]) => decisions.at(-1)?.scan;

/** Time moving forward: each call advances by `step` ms and returns the new time. */
const clock = (start = 0) => {
  let now = start;
  return (step: number) => (now += step);
};

describe('telling a scanner from typing', () => {
  it('takes a fast run ending in Enter as a scan, with "-", "/" and "." as typed', () => {
    const decisions = type('ORD-2024/0001.5', { gap: 5 });
    expect(scanOf(decisions)).toBe('ORD-2024/0001.5');
    expect(decisions.at(-1)?.preventDefault).toBe(true);
  });

  it('accepts Tab as the suffix too, and stops it moving the focus', () => {
    const decisions = type('3SABC123456', { gap: 8, suffix: 'Tab' });
    expect(scanOf(decisions)).toBe('3SABC123456');
    expect(decisions.at(-1)?.preventDefault).toBe(true);
  });

  it('does not take a person typing at 120 ms a key for a scan, and leaves their Enter alone', () => {
    const decisions = type('ORD-1001', { gap: 120 });
    expect(scanOf(decisions)).toBeUndefined();
    expect(decisions.every((decision) => !decision.preventDefault)).toBe(true);
  });

  it('ignores fast runs shorter than the minimum length (a key chord, a double press)', () => {
    expect(scanOf(type('ab', { gap: 5 }))).toBeUndefined();
    expect(scanOf(type('abcd', { gap: 5 }))).toBe('abcd');
  });

  it('needs the suffix to follow quickly: a person pressing Enter later gets no scan', () => {
    expect(scanOf(type('ORD-1001', { gap: 5, suffixGap: 400 }))).toBeUndefined();
  });

  it('keeps only the fast run when a person typed something before the scanner', () => {
    const detector = createScanDetector();
    detector.feed(key('x', 0));
    detector.feed(key('y', 300));
    const tick = clock(1000);
    for (const character of 'REF-77') detector.feed(key(character, tick(4)));
    expect(detector.feed(key('Enter', tick(4))).scan).toBe('REF-77');
  });

  it('never catches keys typed into a settings field, even at scanner speed', () => {
    const decisions = type('ORD-2024/0001.5', { gap: 5, target: 'text-field' });
    expect(scanOf(decisions)).toBeUndefined();
    expect(decisions.every((decision) => !decision.preventDefault)).toBe(true);
  });

  it('leaves the manual entry field to handle its own keys', () => {
    expect(scanOf(type('ORD-1001', { gap: 5, target: 'manual-entry' }))).toBeUndefined();
  });

  it('lets Shift through without breaking the run (scanners press it for capitals)', () => {
    const detector = createScanDetector();
    const tick = clock();
    for (const character of 'AB-12') {
      detector.feed(key('Shift', tick(2)));
      detector.feed(key(character, tick(2)));
    }
    expect(detector.feed(key('Enter', tick(2))).scan).toBe('AB-12');
  });

  it('treats a held key (auto-repeat) and shortcuts as a person, ending the run', () => {
    const detector = createScanDetector();
    const tick = clock();
    for (const character of 'ORD-') detector.feed(key(character, tick(5)));
    detector.feed(key('c', tick(5), { ctrlKey: true }));
    for (const character of '12') detector.feed(key(character, tick(5)));
    expect(detector.feed(key('Enter', tick(5))).scan).toBeUndefined();

    const repeated = createScanDetector();
    for (let index = 0; index < 6; index += 1) repeated.feed(key('a', tick(30), { repeat: index > 0 }));
    expect(repeated.feed(key('Enter', tick(5))).scan).toBeUndefined();
  });

  it('reads AltGr characters (Ctrl+Alt on Windows) as characters', () => {
    const detector = createScanDetector();
    const tick = clock();
    for (const character of 'ab') detector.feed(key(character, tick(5)));
    detector.feed(key('@', tick(5), { ctrlKey: true, altKey: true }));
    detector.feed(key('c', tick(5)));
    expect(detector.feed(key('Enter', tick(5))).scan).toBe('ab@c');
  });

  it('does not prevent the first key of a run (a person pressing Space on a button keeps working)', () => {
    const detector = createScanDetector();
    expect(detector.feed(key(' ', 0)).preventDefault).toBe(false);
    expect(detector.feed(key('Enter', 1000)).preventDefault).toBe(false);
  });

  it('prevents the keys inside a scan so a focused button is not pressed by a space in it', () => {
    const decisions = type('AB 12', { gap: 5 });
    expect(decisions.map((decision) => decision.preventDefault)).toEqual([false, true, true, true, true, true]);
  });

  it('follows a wider gap when configured for a slow wireless scanner', () => {
    const slow = createScanDetector({ maxGapMs: 90, minLength: 4 });
    const tick = clock();
    for (const character of 'ORD-1') slow.feed(key(character, tick(70)));
    expect(slow.feed(key('Enter', tick(70))).scan).toBe('ORD-1');
  });

  it('forgets the run on reset (the window lost focus)', () => {
    const detector = createScanDetector();
    const tick = clock();
    for (const character of 'ORD-1') detector.feed(key(character, tick(5)));
    detector.reset();
    expect(detector.feed(key('Enter', tick(5))).scan).toBeUndefined();
  });

  it('gives two scans back to back separately', () => {
    const detector = createScanDetector();
    const tick = clock();
    const scans: string[] = [];
    for (const text of ['ORD-1', 'ORD-2']) {
      for (const character of text) detector.feed(key(character, tick(5)));
      const decision = detector.feed(key('Enter', tick(5)));
      if (decision.scan) scans.push(decision.scan);
      tick(300);
    }
    expect(scans).toEqual(['ORD-1', 'ORD-2']);
  });
});
