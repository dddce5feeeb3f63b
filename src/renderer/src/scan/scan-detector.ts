/**
 * Tells a keyboard-wedge scanner from a person typing, from key timing alone.
 *
 * A scanner "types" its whole barcode within a few milliseconds per character and ends it with
 * Enter or Tab; a person needs 80 ms or more between keys. The detector keeps the current run of
 * fast keys; a suffix key ends the run, and the run is a scan when it is long enough and every gap
 * in it (including the one before the suffix) was short. It is pure: the caller feeds it key
 * facts and applies its decisions, so it is tested without a browser.
 *
 * A scan's text is read from its keys by position (`code` with Shift and AltGr) through the
 * scanner's own layout, never through the PC's: a US scanner on a German PC sends the key that
 * types "-" on a US keyboard, which the PC calls "ß". Whether a run is a scanner's is known only
 * at its end, so each key keeps both readings until then (docs/scanners.md).
 */
import { altCodeCharacter } from '../../../shared/keyboard/alt-codes';
import { isWritingKey, type KeyboardLayoutId } from '../../../shared/keyboard/layouts';
import { readKeys, type RecordedKey } from '../../../shared/keyboard/recorded-keys';
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
  /** A key pressed (the default) or released: only Alt's release matters, as the end of an Alt code. */
  type?: 'keydown' | 'keyup';
  /** `KeyboardEvent.key`: the character as the PC's layout types it (what a person's typing is read as). */
  key: string;
  /** `KeyboardEvent.code`: the physical key (a scanner's keys are read by it, an Alt code's numpad digits, the key GS is sent with). */
  code?: string;
  /** `KeyboardEvent.shiftKey`; without it a scan's keys are read as the PC's layout typed them. */
  shiftKey?: boolean;
  /** `getModifierState('AltGraph')`. */
  altGraph?: boolean;
  /** `getModifierState('CapsLock')`: tells a real key from one made by software that sets no modifiers. */
  capsLock?: boolean;
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
  /** The scan's keys as they came (with a scan only): the scanner check reads them through every layout. */
  keys?: readonly RecordedKey[];
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
  /** The layout the scanner types for (Setup › Scanner); US, a scanner's factory setting, when absent. */
  scannerLayout?: KeyboardLayoutId;
}

export const defaultScanDetectorOptions: ScanDetectorOptions = { maxGapMs: 50, minLength: 4 };

/**
 * How much longer than the scan gap one late key of a scanner's run may come, as a multiple of
 * the gap. The keys' times are the system's: a busy PC (or a USB hub, a remote session) sometimes
 * hands one key over late. A run whose keys came at a scanner's pace (see `scannerPaced`) is not
 * split there, nor lost when its Enter is late: a person rarely keeps up such a pace.
 */
const lateKeyFactor = 4;

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

/** Ctrl+] is how a keyboard wedge types GS (ASCII 29 is Ctrl plus the key of "]"), whatever the PC's layout calls that key. */
const isControlGroupSeparator = (facts: KeyFacts): boolean =>
  facts.ctrlKey && !facts.altKey && !facts.metaKey && (facts.key === ']' || facts.code === 'BracketRight');

/**
 * A digit typed on the numpad with Alt held: part of an Alt code. Read by its key (`Numpad0`…),
 * since with Num Lock off the browser calls it Insert, End, ArrowDown and so on.
 */
const altCodeDigit = (facts: KeyFacts): string | null =>
  facts.altKey && !facts.ctrlKey && !facts.metaKey && facts.code?.startsWith('Numpad') === true && /^[0-9]$/.test(facts.code.slice(6)) ? facts.code.slice(6) : null;

/**
 * A key whose position types a character on a scanner's layout while the PC's layout makes it a
 * dead key (a US scanner's "'" on a Dutch PC), or nothing it can name.
 */
const isPositionalCharacter = (facts: KeyFacts): boolean =>
  (facts.key === 'Dead' || facts.key === 'Unidentified') && facts.shiftKey !== undefined && facts.code !== undefined && isWritingKey(facts.code);

/** AltGr arrives as Ctrl+Alt on Windows; with a printable key it is a character, not a shortcut. */
const isCharacter = (facts: KeyFacts): boolean => {
  if ([...facts.key].length !== 1 && !isPositionalCharacter(facts)) return false;
  if (facts.metaKey) return false;
  if (facts.ctrlKey !== facts.altKey) return false;
  return true;
};

const recorded = (facts: KeyFacts): RecordedKey => ({
  kind: 'key',
  key: facts.key,
  code: facts.code,
  shift: facts.shiftKey,
  altGraph: facts.altGraph,
  capsLock: facts.capsLock,
});

export function createScanDetector(options: ScanDetectorOptions = defaultScanDetectorOptions): ScanDetector {
  const scannerLayout = options.scannerLayout ?? 'us';
  let run: RecordedKey[] = [];
  let runLength = 0;
  let lastTime = Number.NEGATIVE_INFINITY;
  // When the run's first key came, and how many timed keys (characters, Alt-code digits) it has.
  let runStartTime = Number.NEGATIVE_INFINITY;
  let runEvents = 0;
  let altCode = '';
  // Characters typed outside any field since the last suffix, at any speed: a person's typing.
  let typedSinceSuffix = 0;

  const reset = () => {
    run = [];
    runLength = 0;
    lastTime = Number.NEGATIVE_INFINITY;
    runStartTime = Number.NEGATIVE_INFINITY;
    runEvents = 0;
    altCode = '';
  };

  /** At least two keys, on average no more than half the scan gap apart: a scanner's pace. */
  const scannerPaced = () => runEvents >= 2 && (lastTime - runStartTime) / (runEvents - 1) <= options.maxGapMs / 2;

  /** Whether a key (or the suffix) after this gap belongs to the run in progress. */
  const follows = (gap: number) => gap >= 0 && (gap <= options.maxGapMs || (gap <= options.maxGapMs * lateKeyFactor && scannerPaced()));

  /** Counts a timed key of the run: its first starts the run's clock. */
  const timed = (time: number, startsRun: boolean) => {
    if (startsRun) {
      runStartTime = time;
      runEvents = 0;
    }
    runEvents += 1;
    lastTime = time;
  };
  const reading = () => (runLength >= 2 ? runLength : 0);
  const decide = (preventDefault: boolean): KeyDecision => ({ preventDefault, reading: reading() });

  /** Adds one key to the run; past the limit only its length grows. */
  const append = (key: RecordedKey, time: number, startsRun: boolean) => {
    if (startsRun) {
      run = [];
      runLength = 0;
    }
    if (runLength <= MAX_RAW_SCAN_LENGTH) run.push(key);
    runLength += 1;
    lastTime = time;
  };

  /** A suffix (Enter, Tab, or their Alt codes) ends the run: a scan when it was fast and long enough. */
  const end = (time: number, suffix: string): KeyDecision => {
    const complete = runLength > 0 && follows(time - lastTime) && runLength >= options.minLength;
    const keys = run;
    const length = runLength;
    const typed = typedSinceSuffix;
    reset();
    typedSinceSuffix = 0;
    if (complete) return { preventDefault: true, scan: readKeys(keys, scannerLayout), scanLength: length, keys, reading: 0 };
    return typed >= options.minLength && suffix === 'Enter' ? { preventDefault: false, reading: 0, typedTooSlowly: typed } : decide(false);
  };

  /**
   * The Alt code typed so far is complete (Alt was released, or another key came): its character
   * joins the run. An Alt code of Enter or Tab ends the scan, as those keys do.
   */
  const finishAltCode = (time: number): { character: string | null; ended?: KeyDecision } => {
    const character = altCodeCharacter(altCode);
    altCode = '';
    if (character === null) return { character };
    if (character === '\r' || character === '\n' || character === '\t') return { character, ended: end(time, character === '\t' ? 'Tab' : 'Enter') };
    append({ kind: 'text', text: character }, lastTime, runLength === 0);
    return { character };
  };

  const feed = (facts: KeyFacts): KeyDecision => {
    if (facts.type === 'keyup') {
      if (facts.key !== 'Alt' || altCode === '') return decide(false);
      return finishAltCode(facts.time).ended ?? decide(true);
    }
    if (facts.target !== 'other' || facts.isComposing) {
      reset();
      typedSinceSuffix = 0;
      return decide(false);
    }
    const continuesRun = (runLength > 0 || altCode !== '') && follows(facts.time - lastTime);

    const digit = altCodeDigit(facts);
    if (digit !== null) {
      // Alt+0+2+9 on the numpad: collected until Alt is released or another key comes.
      const startsRun = !continuesRun && altCode === '';
      if (startsRun) {
        run = [];
        runLength = 0;
      }
      altCode += digit;
      timed(facts.time, startsRun);
      return decide(true);
    }
    if (altCode !== '') {
      const finished = finishAltCode(facts.time);
      if (finished.ended) return finished.ended;
      // The character the Alt code made may also arrive as a key of its own, from no key: the same character.
      if (finished.character !== null && facts.key === finished.character && (finished.character === groupSeparator || !facts.code)) return decide(true);
    }
    if (neutralKeys.has(facts.key) && !isPositionalCharacter(facts)) return decide(runLength > 0);

    if (suffixKeys.has(facts.key) && !facts.ctrlKey && !facts.altKey && !facts.metaKey) return end(facts.time, facts.key);

    if (isControlGroupSeparator(facts) && !facts.repeat) {
      timed(facts.time, !continuesRun);
      append({ kind: 'text', text: groupSeparator }, facts.time, !continuesRun);
      // Ctrl+] means nothing else on this screen; a run it starts is a scanner's.
      return decide(true);
    }

    if (facts.repeat || !isCharacter(facts)) {
      reset();
      typedSinceSuffix = 0;
      return decide(false);
    }

    typedSinceSuffix += 1;
    // A key event that carries GS itself (some wedges, remote sessions) is GS whatever key it names.
    const key: RecordedKey = facts.key === groupSeparator ? { kind: 'text', text: groupSeparator } : recorded(facts);
    timed(facts.time, !continuesRun);
    if (continuesRun) {
      append(key, facts.time, false);
      // Mid-scan keys must not act on whatever has focus (a Space would press a button).
      return decide(true);
    }
    // The first key of a run may be a person's: leave its default alone.
    append(key, facts.time, true);
    return decide(false);
  };

  return { feed, reset };
}
