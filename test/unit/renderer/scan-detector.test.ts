import { describe, expect, it } from 'vitest';
import { createScanDetector, type KeyDecision, type KeyFacts, type KeyTarget } from '../../../src/renderer/src/scan/scan-detector';
import { MAX_RAW_SCAN_LENGTH, normalizeScan } from '../../../src/shared/scan';

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

  it('keeps a scan whole when the busy PC hands one of its keys over late (the scanner pace before it)', () => {
    const detector = createScanDetector();
    const tick = clock(1000);
    // "NW" at a scanner's pace, then the "-" 120 ms late, as a loaded machine's X server timed it.
    const gaps = [0, 4, 120, 7, 7, 7, 7, 7, 7, 7, 7];
    [...'NW-104249-1'].forEach((character, index) => detector.feed(key(character, tick(gaps[index] ?? 7))));
    expect(detector.feed(key('Enter', tick(7))).scan).toBe('NW-104249-1');
  });

  it('does not lose a scan whose Enter comes late after keys at a scanner\'s pace', () => {
    expect(scanOf(type('NW-104249-3', { gap: 7, suffixGap: 63 }))).toBe('NW-104249-3');
    expect(scanOf(type('NW-104249-3', { gap: 7, suffixGap: 180 }))).toBe('NW-104249-3');
  });

  it('keeps an Alt + keypad scan whole when the first digit of one Alt code comes late', () => {
    const detector = createScanDetector();
    const tick = clock(1000);
    const altCode = (digits: string, late = false) => {
      detector.feed(key('Alt', tick(3), { code: 'AltLeft', altKey: true }));
      [...digits].forEach((digit, index) => detector.feed(key(digit, tick(late && index === 0 ? 110 : 6), { code: `Numpad${digit}`, altKey: true })));
      return detector.feed(key('Alt', tick(3), { type: 'keyup', code: 'AltLeft' }));
    };
    for (const [index, character] of [...'NW-1'].entries()) altCode(String(character.charCodeAt(0)), index === 2);
    expect(detector.feed(key('Enter', tick(6), { code: 'Enter' })).scan).toBe('NW-1');
  });

  it('still splits at a late key after keys at a person\'s pace, and a person typing is no scan', () => {
    // A person's key, then two more 60 ms apart, then the scanner 150 ms later: only the scan.
    const detector = createScanDetector();
    const tick = clock(1000);
    detector.feed(key('x', tick(0)));
    detector.feed(key('y', tick(150)));
    detector.feed(key('z', tick(60)));
    for (const character of 'REF-77') detector.feed(key(character, tick(character === 'R' ? 150 : 5)));
    expect(detector.feed(key('Enter', tick(5))).scan).toBe('REF-77');
    // A late key beyond the tolerance always splits.
    const split = createScanDetector();
    const later = clock(1000);
    for (const character of 'ABCDEF') split.feed(key(character, later(5)));
    for (const character of 'GHIJ') split.feed(key(character, later(character === 'G' ? 250 : 5)));
    expect(split.feed(key('Enter', later(5))).scan).toBe('GHIJ');
    expect(scanOf(type('ORD-1001', { gap: 60 }))).toBeUndefined();
    expect(scanOf(type('ORD-1001', { gap: 30, suffixGap: 120 }))).toBeUndefined();
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

describe('the group separator (GS, FNC1) in every form a keyboard wedge sends it', () => {
  /** Feeds a scan whose parts are joined by one GS typed as `gs`, ending in Enter; returns the scan. */
  function scanWithSeparator(parts: string[], gs: (detector: ReturnType<typeof createScanDetector>, tick: (step: number) => number) => void, gsAtEnd = false) {
    const detector = createScanDetector();
    const tick = clock(1000);
    parts.forEach((part, index) => {
      for (const character of part) detector.feed(key(character, tick(5)));
      if (index < parts.length - 1 || gsAtEnd) gs(detector, tick);
    });
    return detector.feed(key('Enter', tick(5)));
  }
  const controlBracket = (detector: ReturnType<typeof createScanDetector>, tick: (step: number) => number) => {
    detector.feed(key('Control', tick(3), { ctrlKey: true, code: 'ControlLeft' }));
    detector.feed(key(']', tick(3), { ctrlKey: true, code: 'BracketRight' }));
  };
  // Some layouts report another key for Ctrl+] (a German keyboard: "+"), but its code is the same.
  const controlBracketByCode = (detector: ReturnType<typeof createScanDetector>, tick: (step: number) => number) => {
    detector.feed(key('+', tick(3), { ctrlKey: true, code: 'BracketRight' }));
  };
  const altNumpad = (detector: ReturnType<typeof createScanDetector>, tick: (step: number) => number) => {
    detector.feed(key('Alt', tick(3), { altKey: true, code: 'AltLeft' }));
    for (const digit of '029') detector.feed(key(digit, tick(3), { altKey: true, code: `Numpad${digit}` }));
  };
  const literal = (detector: ReturnType<typeof createScanDetector>, tick: (step: number) => number) => {
    detector.feed(key('\x1D', tick(5)));
  };

  for (const [name, gs] of [
    ['Ctrl+]', controlBracket],
    ['Ctrl with the key of "]" on another layout', controlBracketByCode],
    ['Alt+029 on the numpad', altNumpad],
    ['the literal character', literal],
  ] as const) {
    it(`keeps a scan whole with GS as ${name} in the middle`, () => {
      const decision = scanWithSeparator(['0108712345678906', '10ABC123'], gs);
      expect(decision.scan).toBe('0108712345678906\x1D10ABC123');
      expect(decision.preventDefault).toBe(true);
    });

    it(`does not lose a scan with GS as ${name} at the end`, () => {
      expect(scanWithSeparator(['NW-104354-4'], gs, true).scan).toBe('NW-104354-4\x1D');
    });
  }

  it('takes Alt+029 that a person types on its own as nobody\'s shortcut, and never as Alt+2 (Shift start)', () => {
    const detector = createScanDetector();
    const tick = clock(1000);
    detector.feed(key('Alt', tick(3), { altKey: true, code: 'AltLeft' }));
    const decisions = [...'029'].map((digit) => detector.feed(key(digit, tick(3), { altKey: true, code: `Numpad${digit}` })));
    expect(decisions.every((decision) => decision.preventDefault)).toBe(true);
  });
});

describe('scans longer than the limit', () => {
  it('gives the whole over-long scan back as one, cut one past the limit so the check refuses it, with its true length', () => {
    const detector = createScanDetector();
    const tick = clock(1000);
    const length = MAX_RAW_SCAN_LENGTH + 500;
    const decisions: KeyDecision[] = [];
    for (let index = 0; index < length; index += 1) decisions.push(detector.feed(key(String.fromCharCode(65 + (index % 26)), tick(2))));
    const end = detector.feed(key('Enter', tick(2)));
    expect(end.scanLength).toBe(length);
    expect(end.scan?.length).toBe(MAX_RAW_SCAN_LENGTH + 1);
    expect(normalizeScan(end.scan ?? '')).toMatchObject({ ok: false, reason: 'too-long' });
    // No key of the tail started a scan of its own.
    expect(decisions.filter((decision) => decision.scan !== undefined)).toEqual([]);
  });
});

describe('what the screen shows while keys arrive', () => {
  it('reports the characters read so far from the second fast key, and nothing once the scan is complete', () => {
    const detector = createScanDetector();
    const tick = clock(1000);
    const reading = [...'ORD-7'].map((character) => detector.feed(key(character, tick(5))).reading);
    expect(reading).toEqual([0, 2, 3, 4, 5]);
    expect(detector.feed(key('Enter', tick(5))).reading).toBe(0);
  });

  it('says how many keys a person typed too slowly for a scan when they press Enter', () => {
    const decisions = type('ORD-1001', { gap: 150 });
    expect(decisions.at(-1)).toMatchObject({ typedTooSlowly: 8, preventDefault: false });
    expect(decisions.at(-1)?.scan).toBeUndefined();
  });

  it('says nothing for a short chord or a lone Enter', () => {
    expect(type('ab', { gap: 150 }).at(-1)?.typedTooSlowly).toBeUndefined();
  });
});

describe("a scanner's keys, read by position through the scanner's layout", () => {
  /** The keys a US scanner presses for `text` (from the US chart), as the browser reports them on a PC whose layout is `pc`. */
  const usScanner = (text: string, pc: Record<string, [string, string]>, options: { capsLock?: boolean; gap?: number } = {}) => {
    const usRows: Record<string, [string, boolean]> = {};
    for (const [code, [alone, shifted]] of Object.entries(usChart)) {
      usRows[alone] = [code, false];
      usRows[shifted] = [code, true];
    }
    const tick = clock(1000);
    return [...text].map((character) => {
      const [code, shift] = usRows[character] ?? [undefined, false];
      if (!code) throw new Error(`no US key for ${character}`);
      const [alone, shifted] = pc[code] ?? usChart[code]!;
      let typed = shift ? shifted : alone;
      if (options.capsLock && /^[a-z]$/i.test(typed)) typed = typed === typed.toUpperCase() ? typed.toLowerCase() : typed.toUpperCase();
      return key(typed, tick(options.gap ?? 5), { code, shiftKey: shift, capsLock: options.capsLock ?? false, altGraph: false });
    });
  };
  // The keys these tests use, from the layouts' charts: alone, with Shift.
  const usChart: Record<string, [string, string]> = {
    KeyN: ['n', 'N'], KeyW: ['w', 'W'], KeyD: ['d', 'D'], KeyT: ['t', 'T'], KeyQ: ['q', 'Q'], Minus: ['-', '_'], Quote: ["'", '"'],
    Digit0: ['0', ')'], Digit1: ['1', '!'], Digit2: ['2', '@'], Digit3: ['3', '#'], Digit4: ['4', '$'], Digit5: ['5', '%'], Digit6: ['6', '^'], Digit7: ['7', '&'], Digit8: ['8', '*'], Digit9: ['9', '('],
  };
  const germanPc: Record<string, [string, string]> = { Minus: ['ß', '?'], KeyY: ['z', 'Z'] };
  const frenchPc: Record<string, [string, string]> = {
    KeyQ: ['a', 'A'], KeyW: ['z', 'Z'], Minus: [')', '°'],
    Digit1: ['&', '1'], Digit2: ['é', '2'], Digit3: ['"', '3'], Digit4: ["'", '4'], Digit5: ['(', '5'], Digit6: ['-', '6'], Digit7: ['è', '7'], Digit8: ['_', '8'], Digit9: ['ç', '9'], Digit0: ['à', '0'],
  };
  const scan = (keys: KeyFacts[], options?: Parameters<typeof createScanDetector>[0]) => {
    const detector = createScanDetector(options);
    for (const facts of keys) detector.feed(facts);
    return detector.feed(key('Enter', (keys.at(-1)?.time ?? 0) + 5, { code: 'Enter', shiftKey: false }));
  };

  it('reads a US scanner on a German PC as the barcode says, not as the PC calls its keys', () => {
    expect(scan(usScanner('NW-104365-5', germanPc)).scan).toBe('NW-104365-5');
  });

  it('reads a US scanner on a French PC, its first key included (decided once the run is a scan)', () => {
    const decision = scan(usScanner('DT2179675396352', frenchPc));
    expect(decision.scan).toBe('DT2179675396352');
    // The keys come back as they were, for the scanner check.
    expect(decision.keys?.[2]).toEqual({ kind: 'key', key: 'é', code: 'Digit2', shift: false, altGraph: false, capsLock: false });
  });

  it('changes nothing with Caps Lock on', () => {
    expect(scan(usScanner('NW-104365-6', {}, { capsLock: true })).scan).toBe('NW-104365-6');
  });

  it('reads through the scanner layout chosen in Setup', () => {
    // A French-set scanner types "1" as Shift and the key the PC (French too) calls "&".
    const tick = clock(1000);
    const keys = [key('A', tick(5), { code: 'KeyQ', shiftKey: true }), key('1', tick(5), { code: 'Digit1', shiftKey: true }), key('-', tick(5), { code: 'Digit6', shiftKey: false }), key('2', tick(5), { code: 'Digit2', shiftKey: true })];
    expect(scan(keys, { maxGapMs: 50, minLength: 4, scannerLayout: 'fr' }).scan).toBe('A1-2');
    expect(scan(keys).scan).toBe('Q!6@');
  });

  it('takes a key the PC makes a dead key as part of the scan (a US scanner\'s "\'" on a Dutch PC)', () => {
    const tick = clock(1000);
    const keys = [key('N', tick(5), { code: 'KeyN', shiftKey: true }), key('Dead', tick(5), { code: 'Quote', shiftKey: false }), key('1', tick(5), { code: 'Digit1', shiftKey: false }), key('2', tick(5), { code: 'Digit2', shiftKey: false })];
    expect(scan(keys).scan).toBe("N'12");
  });

  it('still leaves a person typing slowly alone', () => {
    expect(scan(usScanner('NW-104383-4', germanPc, { gap: 150 })).scan).toBeUndefined();
  });
});

describe('a scanner in "Alt + keypad" mode', () => {
  /** Alt held while each character's code is typed on the numpad, Alt released; `numLock` off makes the browser name the keys Insert, End… */
  const altScan = (text: string, options: { leadingZero?: boolean; numLock?: boolean; suffix?: 'Enter' | 'alt-013' } = {}) => {
    const detector = createScanDetector();
    const tick = clock(1000);
    const offNames = ['Insert', 'End', 'ArrowDown', 'PageDown', 'ArrowLeft', 'Clear', 'ArrowRight', 'Home', 'ArrowUp', 'PageUp'];
    const typeCode = (digits: string) => {
      detector.feed(key('Alt', tick(3), { code: 'AltLeft', altKey: true }));
      for (const digit of digits) detector.feed(key(options.numLock === false ? offNames[Number(digit)]! : digit, tick(3), { code: `Numpad${digit}`, altKey: true }));
      return detector.feed(key('Alt', tick(3), { type: 'keyup', code: 'AltLeft', altKey: false }));
    };
    for (const character of text) {
      const code = String(character.charCodeAt(0));
      typeCode(options.leadingZero ? `0${code.padStart(3, '0')}` : code);
    }
    return options.suffix === 'alt-013' ? typeCode('013') : detector.feed(key('Enter', tick(3), { code: 'Enter' }));
  };

  it('reads each Alt code as one character, with or without the leading 0, Num Lock on or off', () => {
    expect(altScan('NW-104344-1').scan).toBe('NW-104344-1');
    expect(altScan('NW-104344-1', { leadingZero: true, numLock: false }).scan).toBe('NW-104344-1');
    expect(altScan('Aé-1', { leadingZero: true }).scan).toBe('Aé-1');
  });

  it('ends the scan on an Alt code of Enter', () => {
    expect(altScan('DT2179675396352', { suffix: 'alt-013' }).scan).toBe('DT2179675396352');
  });

  it('does not count the character twice where the system also sends it as a key of its own', () => {
    const detector = createScanDetector();
    const tick = clock(1000);
    for (const character of 'AB-1') {
      detector.feed(key('Alt', tick(3), { code: 'AltLeft', altKey: true }));
      for (const digit of String(character.charCodeAt(0))) detector.feed(key(digit, tick(3), { code: `Numpad${digit}`, altKey: true }));
      detector.feed(key(character, tick(3), { code: '' }));
    }
    expect(detector.feed(key('Enter', tick(3), { code: 'Enter' })).scan).toBe('AB-1');
  });
});
