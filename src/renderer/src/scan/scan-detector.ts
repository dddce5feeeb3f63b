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
  /** Set when this key completed a scan: the text the scanner typed, without its suffix. */
  scan?: string;
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
// Keys a scanner sends around characters without meaning anything (Shift for capitals).
const neutralKeys = new Set(['Shift', 'CapsLock', 'NumLock', 'Unidentified', 'Dead', 'Process']);

const pass: KeyDecision = { preventDefault: false };

/** AltGr arrives as Ctrl+Alt on Windows; with a printable key it is a character, not a shortcut. */
const isCharacter = (facts: KeyFacts): boolean => {
  if ([...facts.key].length !== 1) return false;
  if (facts.metaKey) return false;
  if (facts.ctrlKey !== facts.altKey) return false;
  return true;
};

export function createScanDetector(options: ScanDetectorOptions = defaultScanDetectorOptions): ScanDetector {
  let run = '';
  let lastTime = Number.NEGATIVE_INFINITY;

  const reset = () => {
    run = '';
    lastTime = Number.NEGATIVE_INFINITY;
  };

  const feed = (facts: KeyFacts): KeyDecision => {
    if (facts.target !== 'other' || facts.isComposing) {
      reset();
      return pass;
    }
    if (neutralKeys.has(facts.key)) return pass;

    const gap = facts.time - lastTime;
    const continuesRun = run.length > 0 && gap >= 0 && gap <= options.maxGapMs;

    if (suffixKeys.has(facts.key) && !facts.ctrlKey && !facts.altKey && !facts.metaKey) {
      const text = run;
      const complete = continuesRun && [...text].length >= options.minLength;
      reset();
      return complete ? { preventDefault: true, scan: text } : pass;
    }

    if (facts.repeat || !isCharacter(facts)) {
      reset();
      return pass;
    }

    if (continuesRun) {
      if (run.length >= MAX_RAW_SCAN_LENGTH) {
        reset();
        return pass;
      }
      run += facts.key;
      lastTime = facts.time;
      // Mid-scan keys must not act on whatever has focus (a Space would press a button).
      return { preventDefault: true };
    }
    // The first key of a run may be a person's: leave its default alone.
    run = facts.key;
    lastTime = facts.time;
    return pass;
  };

  return { feed, reset };
}
