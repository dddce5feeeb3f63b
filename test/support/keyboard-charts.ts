/**
 * The keyboard layouts the station knows, as their published charts show them (Microsoft's
 * keyboard layout charts for Windows: US, United Kingdom, German, French, Belgian (Period), Dutch,
 * Polish (Programmers)): each row of keys left to right, alone and with Shift. Written from the
 * charts, never from the station's own tables (src/shared/keyboard/layouts.ts), so the tests that
 * compare the two, and the devices the real-key tests press keys with, check those tables.
 */

/** The keys of a keyboard's four rows, left to right (US names, as `KeyboardEvent.code` has them). */
export const rowCodes = [
  ['Backquote', 'Digit1', 'Digit2', 'Digit3', 'Digit4', 'Digit5', 'Digit6', 'Digit7', 'Digit8', 'Digit9', 'Digit0', 'Minus', 'Equal'],
  ['KeyQ', 'KeyW', 'KeyE', 'KeyR', 'KeyT', 'KeyY', 'KeyU', 'KeyI', 'KeyO', 'KeyP', 'BracketLeft', 'BracketRight', 'Backslash'],
  ['KeyA', 'KeyS', 'KeyD', 'KeyF', 'KeyG', 'KeyH', 'KeyJ', 'KeyK', 'KeyL', 'Semicolon', 'Quote'],
  ['KeyZ', 'KeyX', 'KeyC', 'KeyV', 'KeyB', 'KeyN', 'KeyM', 'Comma', 'Period', 'Slash'],
] as const;

export interface KeyboardChart {
  /** Each row alone; a space is a key that types nothing at that level. */
  alone: readonly string[];
  shifted: readonly string[];
  /** Characters of the rows that are dead keys (they mark the next letter). */
  dead: { alone: string; shifted: string };
  /** The key left of Z on a 102-key keyboard: alone, with Shift. */
  intlBackslash: string;
  /** A few AltGr characters: key code → character. */
  altGr: Readonly<Record<string, string>>;
}

const us: KeyboardChart = {
  alone: ['`1234567890-=', 'qwertyuiop[]\\', "asdfghjkl;'", 'zxcvbnm,./'],
  shifted: ['~!@#$%^&*()_+', 'QWERTYUIOP{}|', 'ASDFGHJKL:"', 'ZXCVBNM<>?'],
  dead: { alone: '', shifted: '' },
  intlBackslash: '\\|',
  altGr: {},
};

export const keyboardCharts: Record<'us' | 'uk' | 'de' | 'fr' | 'be' | 'nl' | 'pl', KeyboardChart> = {
  us,
  uk: {
    alone: ['`1234567890-=', 'qwertyuiop[]#', "asdfghjkl;'", 'zxcvbnm,./'],
    shifted: ['¬!"£$%^&*()_+', 'QWERTYUIOP{}~', 'ASDFGHJKL:@', 'ZXCVBNM<>?'],
    dead: { alone: '', shifted: '' },
    intlBackslash: '\\|',
    altGr: { Digit4: '€', KeyE: 'é', KeyA: 'á' },
  },
  de: {
    alone: ['^1234567890ß´', 'qwertzuiopü+#', 'asdfghjklöä', 'yxcvbnm,.-'],
    shifted: ['°!"§$%&/()=?`', "QWERTZUIOPÜ*'", 'ASDFGHJKLÖÄ', 'YXCVBNM;:_'],
    dead: { alone: '^´', shifted: '`' },
    intlBackslash: '<>',
    altGr: { KeyQ: '@', KeyE: '€', Digit7: '{', Digit8: '[', Digit9: ']', Digit0: '}', Minus: '\\', BracketRight: '~', IntlBackslash: '|', KeyM: 'µ' },
  },
  fr: {
    alone: ['²&é"\'(-è_çà)=', 'azertyuiop^$*', 'qsdfghjklmù', 'wxcvbn,;:!'],
    shifted: [' 1234567890°+', 'AZERTYUIOP¨£µ', 'QSDFGHJKLM%', 'WXCVBN?./§'],
    dead: { alone: '^', shifted: '¨' },
    intlBackslash: '<>',
    altGr: { Digit3: '#', Digit4: '{', Digit5: '[', Digit6: '|', Digit8: '\\', Digit9: '^', Digit0: '@', Minus: ']', Equal: '}', KeyE: '€' },
  },
  be: {
    alone: ['²&é"\'(§è!çà)-', 'azertyuiop^$µ', 'qsdfghjklmù', 'wxcvbn,;:='],
    shifted: ['³1234567890°_', 'AZERTYUIOP¨*£', 'QSDFGHJKLM%', 'WXCVBN?./+'],
    dead: { alone: '^', shifted: '¨' },
    intlBackslash: '<>',
    altGr: { Digit1: '|', Digit2: '@', Digit3: '#', Digit6: '^', Digit9: '{', Digit0: '}', BracketLeft: '[', BracketRight: ']', IntlBackslash: '\\', KeyE: '€' },
  },
  nl: {
    alone: ['@1234567890/°', 'qwertyuiop¨*<', 'asdfghjkl+´', 'zxcvbnm,.-'],
    shifted: ['§!"#$%&_()\'?~', 'QWERTYUIOP^|>', 'ASDFGHJKL±`', 'ZXCVBNM;:='],
    dead: { alone: '¨´', shifted: '~^`' },
    intlBackslash: '][',
    altGr: { Minus: '\\', Digit8: '{', Digit9: '}', KeyE: '€', Backquote: '¬' },
  },
  pl: {
    ...us,
    altGr: { KeyA: 'ą', KeyC: 'ć', KeyE: 'ę', KeyL: 'ł', KeyN: 'ń', KeyO: 'ó', KeyS: 'ś', KeyX: 'ź', KeyZ: 'ż' },
  },
};

export interface ChartKey {
  code: string;
  shift: boolean;
  character: string;
  dead: boolean;
}

/** Every key of a chart at both levels (keys that type nothing left out). */
export function chartKeys(chart: KeyboardChart): ChartKey[] {
  const keys: ChartKey[] = [];
  for (const [level, rows] of [chart.alone, chart.shifted].entries()) {
    const dead = level === 0 ? chart.dead.alone : chart.dead.shifted;
    rows.forEach((row, rowIndex) => {
      const codes = rowCodes[rowIndex] ?? [];
      if ([...row].length !== codes.length) throw new Error(`row ${rowIndex} has ${[...row].length} keys, not ${codes.length}: ${row}`);
      [...row].forEach((character, index) => {
        if (character !== ' ') keys.push({ code: codes[index]!, shift: level === 1, character, dead: dead.includes(character) });
      });
    });
    const intl = [...chart.intlBackslash][level];
    if (intl) keys.push({ code: 'IntlBackslash', shift: level === 1, character: intl, dead: false });
  }
  return keys;
}

/** A device typing for a chart: the key (and Shift) each character is typed with, the plainest first. */
export function typingKeys(chart: KeyboardChart): Map<string, { code: string; shift: boolean }> {
  const strokes = new Map<string, { code: string; shift: boolean }>();
  for (const key of chartKeys(chart)) if (!key.dead && !strokes.has(key.character)) strokes.set(key.character, { code: key.code, shift: key.shift });
  strokes.set(' ', { code: 'Space', shift: false });
  return strokes;
}
