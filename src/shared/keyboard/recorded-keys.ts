/**
 * The keys of one scan as the screen recorded them, and the text they make through a scanner's
 * layout. Each key keeps both what the PC's layout made of it (`key`) and which key it was
 * (`code`, Shift, AltGr), because whether a run of keys is a scanner's is known only at its end:
 * the text is read once the run is known to be a scan, never key by key.
 */
import { composeDeadKey, keyOutput, type DeadKey, type KeyboardLayoutId } from './layouts';

export type RecordedKey =
  | {
      kind: 'key';
      /** `KeyboardEvent.key`: what the PC's layout made of it ("Dead" for a dead key). */
      key: string;
      /** `KeyboardEvent.code`; empty or absent when the key came from no keyboard (a remote or synthetic key). */
      code?: string | undefined;
      /** Shift held; absent when not known (then only `key` can be read). */
      shift?: boolean | undefined;
      altGraph?: boolean | undefined;
      capsLock?: boolean | undefined;
    }
  /** A character that came whole: an Alt code, Ctrl+] (GS), a key event carrying the character itself. */
  | { kind: 'text'; text: string };

/**
 * Whether a key's event can be read by position. A real key's `key` agrees with its Shift and
 * Caps Lock: a letter a–z is a capital exactly when one of them is on, on every layout. A key that
 * breaks that rule was made by software (a test driver, a remote session) that sets `key` and
 * `code` but not the modifiers: its `key` is all there is to read.
 */
function readableByPosition(key: Extract<RecordedKey, { kind: 'key' }>): key is Extract<RecordedKey, { kind: 'key' }> & { code: string; shift: boolean } {
  if (key.code === undefined || key.code === '' || key.shift === undefined) return false;
  if (/^[A-Za-z]$/.test(key.key) && key.capsLock !== undefined) {
    const capital = key.key === key.key.toUpperCase();
    if (capital !== (key.shift !== key.capsLock)) return false;
  }
  return true;
}

/** What one recorded key types through the scanner's layout: its character, a dead key, or nothing. */
function keyText(key: RecordedKey, layout: KeyboardLayoutId): string | DeadKey {
  if (key.kind === 'text') return key.text;
  if (readableByPosition(key)) {
    const output = keyOutput(layout, { code: key.code, shift: key.shift, altGraph: key.altGraph === true });
    if (output !== undefined) return output;
  }
  // A key the scanner's layout does not place (or one without its position): the PC's reading.
  return [...key.key].length === 1 ? key.key : '';
}

/** The text a scanner typed with these keys, read through its layout (dead keys composed as Windows does). */
export function readKeys(keys: readonly RecordedKey[], layout: KeyboardLayoutId): string {
  let text = '';
  let mark: string | null = null;
  for (const key of keys) {
    const output = keyText(key, layout);
    if (typeof output !== 'string') {
      if (mark !== null) text += mark;
      mark = output.dead;
      continue;
    }
    if (output === '') continue;
    if (mark !== null) {
      text += composeDeadKey(mark, output);
      mark = null;
    } else {
      text += output;
    }
  }
  return mark === null ? text : text + mark;
}

/** What the PC's layout made of the keys: the text as the browser saw it, without the scanner's layout. */
export function keysAsTyped(keys: readonly RecordedKey[]): string {
  return keys.map((key) => (key.kind === 'text' ? key.text : [...key.key].length === 1 ? key.key : '')).join('');
}
