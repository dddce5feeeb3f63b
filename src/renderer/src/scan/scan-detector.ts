/**
 * Tells a keyboard-wedge scanner from a person typing, from key timing alone.
 *
 * A scanner "types" its whole barcode within a few milliseconds per character and ends it with
 * Enter or Tab; a person needs 80 ms or more between keys. The detector keeps the current run of
 * fast keys; a suffix key ends the run, and the run is a scan when it is long enough and every gap
 * in it (including the one before the suffix) was short. It is pure: the caller feeds it key
 * facts and applies its decisions, so it is tested without a browser.
 */
import { MAX_RAW_SCAN_LENGTH } from '../../../shared/scan';

/** Where the key went, as far as scanning cares. */
export type KeyTarget =
  /** The dedicated manual-entry field: it takes its keys itself and submits on Enter. */
  | 'manual-entry'
  /** A settings or search field, a select: the person is editing it, so nothing there is a scan. */
  | 'text-field'
  /** Anything else (the page, a button, a checkbox): scans are caught here. */
  | 'other';

export interface KeyFacts {
  /** `KeyboardEvent.key`: the character as typed with the active layout, so "-", "/" and "." survive. */
  key: string;
  /** `KeyboardEvent.code`: the physical key (a numpad digit of an Alt code, the key GS is sent with). */
  code?: string;
  /** `KeyboardEvent.timeStamp`, ms. */
  time: number;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  /** A key held down (auto-repeat) is a person, never a scanner. */
  repeat: boolean;
  /** An input method composition is in progress. */
  isComposing: boolean;
  target: KeyTarget;
}

export interface KeyDecision {
  /** Stop the browser's own reaction (a Space or Enter on a focused button, a Tab moving focus). */
  preventDefault: boolean;
  /**
   * Set when this key completed a scan: the text the scanner typed, without its suffix. A scan
   * longer than the limit comes back whole in length but cut to one character over the limit, so
   * the scan check refuses it as too long (the tail is never looked up on its own).
   */
  scan?: string;
  /** How many characters the scan had (a refused over-long scan says how long it was). */
  scanLength?: number;
  /** Characters of a scan being read so far (0: none): the screen shows a "reading…" cue. */
  reading: number;
  /**
   * Enter after keys typed outside any field too slowly to be a scanner: how many there were, so
   * the screen can say to use the entry field instead of doing nothing.
   */
  typedTooSlowly?: number;
}

export interface ScanDetectorOptions {
  /** Longest gap between two keys of one scan, ms. */
  maxGapMs: number;
  /** Shortest scan, in characters: shorter fast runs are a person's key chord, not a barcode. */
  minLength: number;
}

export const defaultScanDetectorOptions: ScanDetectorOptions = { maxGapMs: 50, minLength: 4 };

/** Inclusive bounds the settings screen allows, so a typo can't switch scanning off. */
export const scanGapBounds = { min: 10, max: 200 } as const;

export interface ScanDetector {
  feed(facts: KeyFacts): KeyDecision;
  /** Forget the run in progress (the screen changed, the window lost focus). */
  reset(): void;
}

const suffixKeys = new Set(['Enter', 'Tab']);
// Keys a scanner sends around characters without meaning anything (Shift for capitals; Control
// and Alt before the GS it sends as Ctrl+] or Alt+029).
const neutralKeys = new Set(['Shift', 'CapsLock', 'NumLock', 'Unidentified', 'Dead', 'Process', 'Control', 'Alt', 'AltGraph']);

/** The GS1 group separator (FNC1), as the scan check expects it. */
const groupSeparator = '\x1D';

/** Ctrl+] is how a keyboard wedge types GS (ASCII 29 is Ctrl plus the key of "]"). */
const isControlGroupSeparator = (facts: KeyFacts): boolean =>
  facts.ctrlKey && !facts.altKey && !facts.metaKey && (facts.key === ']' || facts.code === 'BracketRight');

/** A digit typed on the numpad with Alt held: part of a Windows Alt code (Alt+029 is GS). */
const altCodeDigit = (facts: KeyFacts): string | null =>
  facts.altKey && !facts.ctrlKey && !facts.metaKey && facts.code?.startsWith('Numpad') === true && /^[0-9]$/.test(facts.code.slice(6)) ? facts.code.slice(6) : null;

/** AltGr arrives as Ctrl+Alt on Windows; with a printable key it is a character, not a shortcut. */
const isCharacter = (facts: KeyFacts): boolean => {
  if ([...facts.key].length !== 1) return false;
  if (facts.metaKey) return false;
  if (facts.ctrlKey !== facts.altKey) return false;
  return true;
};

export function createScanDetector(options: ScanDetectorOptions = defaultScanDetectorOptions): ScanDetector {
  let run = '';
  let runLength = 0;
  let lastTime = Number.NEGATIVE_INFINITY;
  let altCode = '';
  // Characters typed outside any field since the last suffix, at any speed: a person's typing.
  let typedSinceSuffix = 0;

  const reset = () => {
    run = '';
    runLength = 0;
    lastTime = Number.NEGATIVE_INFINITY;
    altCode = '';
  };
  const reading = () => (runLength >= 2 ? runLength : 0);
  const decide = (preventDefault: boolean): KeyDecision => ({ preventDefault, reading: reading() });

  /** Adds one character to the run; past the limit only its length grows. */
  const append = (character: string, time: number, startsRun: boolean) => {
    if (startsRun) {
      run = '';
      runLength = 0;
    }
    if (runLength <= MAX_RAW_SCAN_LENGTH) run += character;
    runLength += 1;
    lastTime = time;
  };

  const feed = (facts: KeyFacts): KeyDecision => {
    if (facts.target !== 'other' || facts.isComposing) {
      reset();
      typedSinceSuffix = 0;
      return decide(false);
    }
    const gap = facts.time - lastTime;
    const continuesRun = runLength > 0 && gap >= 0 && gap <= options.maxGapMs;

    const digit = altCodeDigit(facts);
    if (digit !== null) {
      // Alt+0+2+9 on the numpad: collected until a key that is not part of it.
      if (!continuesRun && altCode === '') {
        run = '';
        runLength = 0;
      }
      altCode += digit;
      lastTime = facts.time;
      return decide(true);
    }
    if (altCode !== '') {
      const code = altCode;
      altCode = '';
      if (/^0*29$/.test(code)) {
        append(groupSeparator, lastTime, runLength === 0);
        // The character the Alt code made may also arrive as a key of its own: it is the same GS.
        if (facts.key === groupSeparator) return decide(true);
      }
    }
    if (neutralKeys.has(facts.key)) return decide(runLength > 0);

    if (suffixKeys.has(facts.key) && !facts.ctrlKey && !facts.altKey && !facts.metaKey) {
      const text = run;
      const length = runLength;
      const complete = continuesRun && length >= options.minLength;
      const typed = typedSinceSuffix;
      reset();
      typedSinceSuffix = 0;
      if (complete) return { preventDefault: true, scan: text, scanLength: length, reading: 0 };
      return typed >= options.minLength && facts.key === 'Enter' ? { preventDefault: false, reading: 0, typedTooSlowly: typed } : decide(false);
    }

    if (isControlGroupSeparator(facts) && !facts.repeat) {
      append(groupSeparator, facts.time, !continuesRun);
      // Ctrl+] means nothing else on this screen; a run it starts is a scanner's.
      return decide(true);
    }

    if (facts.repeat || !isCharacter(facts)) {
      reset();
      typedSinceSuffix = 0;
      return decide(false);
    }

    typedSinceSuffix += 1;
    if (continuesRun) {
      append(facts.key, facts.time, false);
      // Mid-scan keys must not act on whatever has focus (a Space would press a button).
      return decide(true);
    }
    // The first key of a run may be a person's: leave its default alone.
    append(facts.key, facts.time, true);
    return decide(false);
  };

  return { feed, reset };
}
