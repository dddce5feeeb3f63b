/**
 * A scan read through the wrong keyboard layout, read back. A scanner set to one layout (US at
 * the factory) whose keys reach the station through another (a French PC, or a scanner layout
 * chosen wrongly in Setup) gives text such as `DTé&èç-è("ç-"(é` for `DT2179675396352`. Each
 * character is turned back into the key that typed it on the layout it was read with, and that
 * key into what it types on the scanner's layout.
 *
 * The station never prints on such a reading: it only says which mix-up the scan looks like when
 * a reading is the name of one known order (src/main/orders/order-lookup.ts).
 */
import { GROUP_SEPARATOR } from '../scan';
import { keyboardLayoutIds, keyOutput, strokesFor, type KeyboardLayoutId } from './layouts';

export interface LayoutMixup {
  /**
   * The layouts the station may have read the keys with (the PC's, or the scanner layout set in
   * Setup): every layout that makes this reading out of the scan, the likeliest first.
   */
  readAs: KeyboardLayoutId[];
  /** The layout the scanner typed for. */
  typedAs: KeyboardLayoutId;
  /** The scan read back through that pair. */
  text: string;
}

/** Scanners come set to US: a mix-up with a US scanner is the likeliest, so it is named first. */
const typedOrder: readonly KeyboardLayoutId[] = ['us', ...keyboardLayoutIds.filter((id) => id !== 'us')];

/** The scan as keys typed for `typedAs` and read as `readAs` would have meant; null when no such keys could make it. */
export function readBack(scan: string, readAs: KeyboardLayoutId, typedAs: KeyboardLayoutId): string | null {
  let text = '';
  for (const character of scan) {
    if (character === GROUP_SEPARATOR) {
      text += character;
      continue;
    }
    const [stroke] = strokesFor(readAs, character);
    if (!stroke) return null;
    const meant = keyOutput(typedAs, stroke);
    if (typeof meant !== 'string') return null;
    text += meant;
  }
  return text;
}

/**
 * Every different reading of a scan through a pair of known layouts, the likeliest scanner layout
 * first; one entry per text, naming each layout it may have been read with (an order ref without
 * a 6 or an 8 reads alike through French and Belgian).
 */
export function layoutMixups(scan: string): LayoutMixup[] {
  const byText = new Map<string, LayoutMixup>();
  for (const typedAs of typedOrder) {
    for (const readAs of keyboardLayoutIds) {
      if (readAs === typedAs) continue;
      const text = readBack(scan, readAs, typedAs);
      if (text === null || text.trim() === '' || text === scan) continue;
      const known = byText.get(text);
      if (!known) byText.set(text, { readAs: [readAs], typedAs, text });
      else if (known.typedAs === typedAs) known.readAs.push(readAs);
    }
  }
  return [...byText.values()];
}
