/**
 * What one scan of the scanner check barcode (Setup › Scanner) says about a bench: which layout
 * the scanner types for, which layout the PC uses, and whether the station reads its scans right
 * with the scanner layout chosen in Setup. The scan's keys are read through every layout the
 * station knows; those that give the check's text are the scanner's.
 */
import { keyboardLayoutIds, keyOutput, type KeyboardLayoutId } from '../../../shared/keyboard/layouts';
import { keysAsTyped, readKeys, type RecordedKey } from '../../../shared/keyboard/recorded-keys';
import { SCANNER_CHECK_TEXT } from '../../../shared/keyboard/scanner-check';

/** The layouts that read these keys as the check barcode's text (none: it is not the check barcode, or an unknown layout typed it). */
export function layoutsReadingCheck(keys: readonly RecordedKey[]): KeyboardLayoutId[] {
  return keyboardLayoutIds.filter((layout) => readKeys(keys, layout) === SCANNER_CHECK_TEXT);
}

const onlyAltCodes = (keys: readonly RecordedKey[]) => keys.length > 0 && keys.every((key) => key.kind === 'text');

/** Whether a scan is the check barcode, in whatever way the scanner typed it. */
export function isScannerCheck(keys: readonly RecordedKey[]): boolean {
  return keysAsTyped(keys) === SCANNER_CHECK_TEXT || layoutsReadingCheck(keys).length > 0;
}

export type ScannerVerdict = {
  /** Caps Lock was on while the scanner typed (it changes nothing for scans). */
  capsLock: boolean;
  /** The layouts the PC's keys fit (more than one where they type these keys alike; none: a layout the station does not know). */
  pc: KeyboardLayoutId[];
} & (
  | {
      /** Each character came as an Alt code: it reads the same on every layout. */
      scanner: 'alt-codes';
    }
  | {
      /** The keys came without their positions (a remote session): read as the PC typed them, which was right. */
      scanner: 'as-typed';
    }
  | {
      scanner: 'layout';
      /** The layouts the scanner's keys fit, the one chosen in Setup first when it is one of them. */
      layouts: KeyboardLayoutId[];
      /** The layout chosen in Setup reads the scanner right. */
      readsCorrectly: boolean;
    }
  | {
      /** The scan was the check's length but no layout the station knows reads it. */
      scanner: 'unknown';
    }
);

type PositionalKey = Extract<RecordedKey, { kind: 'key' }> & { code: string; shift: boolean };
const positional = (keys: readonly RecordedKey[]): PositionalKey[] =>
  keys.filter((key): key is PositionalKey => key.kind === 'key' && key.code !== undefined && key.code !== '' && key.shift !== undefined);

/** Whether the PC's layout `layout` makes `key` of that stroke; Caps Lock may have changed a letter's case (and on some layouts a digit key's level). */
function pcTyped(layout: KeyboardLayoutId, key: PositionalKey): boolean {
  const stroke = { code: key.code, shift: key.shift, altGraph: key.altGraph === true };
  const candidates = [keyOutput(layout, stroke), ...(key.capsLock ? [keyOutput(layout, { ...stroke, shift: !stroke.shift })] : [])];
  return candidates.some((output) => {
    if (output === undefined || output === null) return false;
    if (typeof output !== 'string') return key.key === 'Dead';
    return key.capsLock ? output.toLowerCase() === key.key.toLowerCase() : output === key.key;
  });
}

/** The layouts whose keys the PC's readings of the scan fit. */
export function pcLayoutsFromKeys(keys: readonly RecordedKey[]): KeyboardLayoutId[] {
  const seen = positional(keys).filter((key) => key.key !== 'Unidentified');
  if (seen.length === 0) return [];
  return keyboardLayoutIds.filter((layout) => seen.every((key) => pcTyped(layout, key)));
}

/**
 * The layouts whose unshifted keys are what the browser's keyboard map says (a map of `code` to
 * the character it types alone, `navigator.keyboard.getLayoutMap()`); dead keys are left out, as
 * browsers name them differently.
 */
export function pcLayoutsFromMap(map: ReadonlyMap<string, string>): KeyboardLayoutId[] {
  const compared = ['KeyQ', 'KeyW', 'KeyY', 'KeyZ', 'KeyA', 'KeyM', 'Digit1', 'Digit2', 'Digit7', 'Minus', 'Equal', 'BracketRight', 'Semicolon', 'Comma', 'Period', 'Slash', 'Backslash'];
  const present = compared.filter((code) => map.has(code));
  if (present.length === 0) return [];
  return keyboardLayoutIds.filter((layout) =>
    present.every((code) => {
      const output = keyOutput(layout, { code, shift: false, altGraph: false });
      return typeof output !== 'string' || output === map.get(code);
    }),
  );
}

/** What a scan of the check barcode says, given the scanner layout chosen in Setup and the PC's layout as the browser knows it. */
export function scannerVerdict(keys: readonly RecordedKey[], chosen: KeyboardLayoutId, pcFromMap: KeyboardLayoutId[] | null): ScannerVerdict {
  const capsLock = keys.some((key) => key.kind === 'key' && key.capsLock === true);
  const fromKeys = pcLayoutsFromKeys(keys);
  const pc = pcFromMap && pcFromMap.length > 0 ? pcFromMap : fromKeys;
  if (onlyAltCodes(keys)) return { scanner: 'alt-codes', capsLock, pc };
  const layouts = layoutsReadingCheck(keys);
  if (layouts.length > 0) {
    const readsCorrectly = layouts.includes(chosen);
    return { scanner: 'layout', capsLock, pc, layouts: readsCorrectly ? [chosen, ...layouts.filter((layout) => layout !== chosen)] : layouts, readsCorrectly };
  }
  if (keysAsTyped(keys) === SCANNER_CHECK_TEXT) return { scanner: 'as-typed', capsLock, pc };
  return { scanner: 'unknown', capsLock, pc };
}
