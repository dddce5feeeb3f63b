/**
 * The keyboard layouts the station knows, as Windows defines them: for each physical key (its
 * `KeyboardEvent.code`, named after the key's place on a US keyboard) what it types alone, with
 * Shift, with AltGr and with Shift+AltGr.
 *
 * A keyboard-wedge scanner is set to one of these (US at the factory) and sends the keys that type
 * a barcode's characters on that layout; the PC reads them through its own layout. Knowing both,
 * the station reads a scanner's keys by position, whatever the PC's layout (docs/scanners.md).
 *
 * "Dutch" is Windows' own Dutch layout (KBDNE: "-" is the key right of ".", "/" the key right of
 * "0"), not "United States-International", which most Dutch PCs use and which places every
 * letter, digit and sign where US does. Polish is "Polish (Programmers)", the usual Polish
 * layout: US plus AltGr for the Polish letters.
 *
 * Only what a barcode or a person's typing can need is listed: AltGr symbols beyond ASCII and the
 * Polish letters are left out, as are the numpad's decimal key (a comma or a point, per PC).
 */
import { z } from 'zod';

export const keyboardLayoutIds = ['us', 'uk', 'de', 'fr', 'be', 'nl', 'pl'] as const;
export const KeyboardLayoutIdSchema = z.enum(keyboardLayoutIds);
export type KeyboardLayoutId = z.infer<typeof KeyboardLayoutIdSchema>;

/** A dead key: types nothing itself, and marks the next key (`^` then `e` is `ê`; then Space, `^`). */
export interface DeadKey {
  dead: string;
}

/** What one key types at one level: a character, a dead key, or nothing. */
export type KeyOutput = string | DeadKey | null;

/** The levels of one key: alone, Shift, AltGr, Shift+AltGr (missing levels type nothing). */
export type KeyLevels = readonly KeyOutput[];

export type LayoutTable = Readonly<Record<string, KeyLevels>>;

const dead = (mark: string): DeadKey => ({ dead: mark });

/** Letters type themselves, capitals with Shift; each layout overrides what it moves. */
const letterKeys = (): Record<string, KeyLevels> =>
  Object.fromEntries([...'abcdefghijklmnopqrstuvwxyz'].map((letter) => [`Key${letter.toUpperCase()}`, [letter, letter.toUpperCase()]]));

/** The numpad types the same on every layout (with Num Lock on). */
const numpadKeys: Record<string, KeyLevels> = {
  ...Object.fromEntries([...'0123456789'].map((digit) => [`Numpad${digit}`, [digit, digit]])),
  NumpadAdd: ['+', '+'],
  NumpadSubtract: ['-', '-'],
  NumpadMultiply: ['*', '*'],
  NumpadDivide: ['/', '/'],
};

const common = (): Record<string, KeyLevels> => ({ ...letterKeys(), ...numpadKeys, Space: [' ', ' '] });

const us: LayoutTable = {
  ...common(),
  Backquote: ['`', '~'],
  Digit1: ['1', '!'],
  Digit2: ['2', '@'],
  Digit3: ['3', '#'],
  Digit4: ['4', '$'],
  Digit5: ['5', '%'],
  Digit6: ['6', '^'],
  Digit7: ['7', '&'],
  Digit8: ['8', '*'],
  Digit9: ['9', '('],
  Digit0: ['0', ')'],
  Minus: ['-', '_'],
  Equal: ['=', '+'],
  BracketLeft: ['[', '{'],
  BracketRight: [']', '}'],
  Backslash: ['\\', '|'],
  Semicolon: [';', ':'],
  Quote: ["'", '"'],
  Comma: [',', '<'],
  Period: ['.', '>'],
  Slash: ['/', '?'],
  // The extra key of a 102-key keyboard, left of Z: on a US layout a second backslash.
  IntlBackslash: ['\\', '|'],
};

const uk: LayoutTable = {
  ...us,
  Backquote: ['`', '¬', '¦'],
  Digit2: ['2', '"'],
  Digit3: ['3', '£'],
  Digit4: ['4', '$', '€'],
  Quote: ["'", '@'],
  // The key left of Enter on a UK keyboard.
  Backslash: ['#', '~'],
  IntlBackslash: ['\\', '|'],
  KeyA: ['a', 'A', 'á', 'Á'],
  KeyE: ['e', 'E', 'é', 'É'],
  KeyI: ['i', 'I', 'í', 'Í'],
  KeyO: ['o', 'O', 'ó', 'Ó'],
  KeyU: ['u', 'U', 'ú', 'Ú'],
};

const de: LayoutTable = {
  ...common(),
  Backquote: [dead('^'), '°'],
  Digit1: ['1', '!'],
  Digit2: ['2', '"', '²'],
  Digit3: ['3', '§', '³'],
  Digit4: ['4', '$'],
  Digit5: ['5', '%'],
  Digit6: ['6', '&'],
  Digit7: ['7', '/', '{'],
  Digit8: ['8', '(', '['],
  Digit9: ['9', ')', ']'],
  Digit0: ['0', '=', '}'],
  Minus: ['ß', '?', '\\'],
  Equal: [dead('´'), dead('`')],
  KeyQ: ['q', 'Q', '@'],
  KeyE: ['e', 'E', '€'],
  KeyY: ['z', 'Z'],
  KeyZ: ['y', 'Y'],
  KeyM: ['m', 'M', 'µ'],
  BracketLeft: ['ü', 'Ü'],
  BracketRight: ['+', '*', '~'],
  Backslash: ['#', "'"],
  Semicolon: ['ö', 'Ö'],
  Quote: ['ä', 'Ä'],
  Comma: [',', ';'],
  Period: ['.', ':'],
  Slash: ['-', '_'],
  IntlBackslash: ['<', '>', '|'],
};

const fr: LayoutTable = {
  ...common(),
  Backquote: ['²', null],
  Digit1: ['&', '1'],
  Digit2: ['é', '2', dead('~')],
  Digit3: ['"', '3', '#'],
  Digit4: ["'", '4', '{'],
  Digit5: ['(', '5', '['],
  Digit6: ['-', '6', '|'],
  Digit7: ['è', '7', dead('`')],
  Digit8: ['_', '8', '\\'],
  Digit9: ['ç', '9', '^'],
  Digit0: ['à', '0', '@'],
  Minus: [')', '°', ']'],
  Equal: ['=', '+', '}'],
  KeyQ: ['a', 'A'],
  KeyW: ['z', 'Z'],
  KeyE: ['e', 'E', '€'],
  BracketLeft: [dead('^'), dead('¨')],
  BracketRight: ['$', '£', '¤'],
  Backslash: ['*', 'µ'],
  KeyA: ['q', 'Q'],
  Semicolon: ['m', 'M'],
  Quote: ['ù', '%'],
  KeyZ: ['w', 'W'],
  KeyM: [',', '?'],
  Comma: [';', '.'],
  Period: [':', '/'],
  Slash: ['!', '§'],
  IntlBackslash: ['<', '>'],
};

const be: LayoutTable = {
  ...common(),
  Backquote: ['²', '³'],
  Digit1: ['&', '1', '|'],
  Digit2: ['é', '2', '@'],
  Digit3: ['"', '3', '#'],
  Digit4: ["'", '4'],
  Digit5: ['(', '5'],
  Digit6: ['§', '6', '^'],
  Digit7: ['è', '7'],
  Digit8: ['!', '8'],
  Digit9: ['ç', '9', '{'],
  Digit0: ['à', '0', '}'],
  Minus: [')', '°'],
  Equal: ['-', '_'],
  KeyQ: ['a', 'A'],
  KeyW: ['z', 'Z'],
  KeyE: ['e', 'E', '€'],
  BracketLeft: [dead('^'), dead('¨'), '['],
  BracketRight: ['$', '*', ']'],
  Backslash: ['µ', '£', dead('`')],
  KeyA: ['q', 'Q'],
  Semicolon: ['m', 'M'],
  Quote: ['ù', '%', dead('´')],
  KeyZ: ['w', 'W'],
  KeyM: [',', '?'],
  Comma: [';', '.'],
  Period: [':', '/'],
  Slash: ['=', '+', dead('~')],
  IntlBackslash: ['<', '>', '\\'],
};

const nl: LayoutTable = {
  ...common(),
  Backquote: ['@', '§', '¬'],
  Digit1: ['1', '!', '¹'],
  Digit2: ['2', '"', '²'],
  Digit3: ['3', '#', '³'],
  Digit4: ['4', '$', '¼'],
  Digit5: ['5', '%', '½'],
  Digit6: ['6', '&', '¾'],
  Digit7: ['7', '_', '£'],
  Digit8: ['8', '(', '{'],
  Digit9: ['9', ')', '}'],
  Digit0: ['0', "'"],
  Minus: ['/', '?', '\\'],
  Equal: ['°', dead('~'), dead('¸')],
  KeyE: ['e', 'E', '€'],
  BracketLeft: [dead('¨'), dead('^')],
  BracketRight: ['*', '|'],
  // The key left of Enter on a Dutch keyboard.
  Backslash: ['<', '>'],
  Semicolon: ['+', '±'],
  Quote: [dead('´'), dead('`')],
  Comma: [',', ';'],
  Period: ['.', ':'],
  Slash: ['-', '='],
  IntlBackslash: [']', '[', '¦'],
};

const pl: LayoutTable = {
  ...us,
  KeyA: ['a', 'A', 'ą', 'Ą'],
  KeyC: ['c', 'C', 'ć', 'Ć'],
  KeyE: ['e', 'E', 'ę', 'Ę'],
  KeyL: ['l', 'L', 'ł', 'Ł'],
  KeyN: ['n', 'N', 'ń', 'Ń'],
  KeyO: ['o', 'O', 'ó', 'Ó'],
  KeyS: ['s', 'S', 'ś', 'Ś'],
  KeyU: ['u', 'U', '€'],
  KeyX: ['x', 'X', 'ź', 'Ź'],
  KeyZ: ['z', 'Z', 'ż', 'Ż'],
};

export const keyboardLayouts: Readonly<Record<KeyboardLayoutId, LayoutTable>> = { us, uk, de, fr, be, nl, pl };

/** One press of a key, as the station records it: which key, and which of Shift and AltGr were held. */
export interface KeyStroke {
  code: string;
  shift: boolean;
  altGraph: boolean;
}

/** The level a stroke types at: 0 alone, 1 Shift, 2 AltGr, 3 Shift+AltGr. */
export const levelOf = (stroke: Pick<KeyStroke, 'shift' | 'altGraph'>): number => (stroke.altGraph ? 2 : 0) + (stroke.shift ? 1 : 0);

/** What a key types on a layout, or undefined when the layout has no such key (or nothing at that level). */
export function keyOutput(layout: KeyboardLayoutId, stroke: KeyStroke): string | DeadKey | undefined {
  const levels = keyboardLayouts[layout][stroke.code];
  return levels?.[levelOf(stroke)] ?? undefined;
}

/** Whether a key is one that types on some layout the station knows (a letter, digit or sign key). */
export function isWritingKey(code: string): boolean {
  return keyboardLayouts.us[code] !== undefined;
}

/** The marks dead keys put on the next letter, as combining characters. */
const combiningMarks: Readonly<Record<string, string>> = {
  '^': '\u0302',
  '`': '\u0300',
  '´': '\u0301',
  '¨': '\u0308',
  '~': '\u0303',
  '¸': '\u0327',
};

/**
 * The text a dead key and the character after it make, as Windows composes them: Space gives the
 * mark itself, a letter that takes the mark gives the marked letter, anything else gives both.
 */
export function composeDeadKey(mark: string, next: string): string {
  if (next === ' ') return mark;
  const combining = combiningMarks[mark];
  if (combining !== undefined && /^\p{L}$/u.test(next)) {
    const composed = `${next}${combining}`.normalize('NFC');
    if ([...composed].length === 1) return composed;
  }
  return `${mark}${next}`;
}

/**
 * Every way to type a character with the main keys of a layout (the numpad types alike on every
 * layout, so it tells nothing), without a dead key, first the one with the fewest modifiers.
 */
export function strokesFor(layout: KeyboardLayoutId, character: string): KeyStroke[] {
  const strokes: KeyStroke[] = [];
  for (const [code, levels] of Object.entries(keyboardLayouts[layout])) {
    if (code.startsWith('Numpad')) continue;
    levels.forEach((output, level) => {
      if (output === character) strokes.push({ code, shift: level % 2 === 1, altGraph: level >= 2 });
    });
  }
  return strokes.sort((a, b) => levelOf(a) - levelOf(b));
}
