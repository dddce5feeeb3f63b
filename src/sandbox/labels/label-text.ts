/** Text clean-up shared by the ZPL and PDF labels. */

/** Control characters would end or corrupt a ZPL field and draw as boxes in a PDF. */
const isControl = (code: number): boolean => code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;

/** One line of printable text: control characters and runs of white space become one space. */
export function sanitizeLabelText(text: string): string {
  let clean = true;
  for (let i = 0; i < text.length && clean; i += 1) clean = !isControl(text.charCodeAt(i));
  let out = text;
  if (!clean) {
    out = '';
    for (const char of text) out += isControl(char.codePointAt(0) ?? 0) ? ' ' : char;
  }
  return /\s\s|^\s|\s$|[^\S ]/.test(out) ? out.replace(/\s+/g, ' ').trim() : out;
}

/** Characters of Windows-1252 outside Latin-1 that the PDF standard fonts can show. */
const winAnsiExtras = new Set(Array.from('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'));

/** Letters without a Unicode decomposition, spelled as the nearest Latin letters. */
const foldedLetters: Readonly<Record<string, string>> = {
  'ł': 'l', 'Ł': 'L', 'đ': 'd', 'Đ': 'D', 'ı': 'i', 'ħ': 'h', 'Ħ': 'H', 'ŧ': 't', 'Ŧ': 'T',
  'ĸ': 'k', 'ŀ': 'l', 'Ŀ': 'L', 'ŉ': "'n", 'ſ': 's', 'ǆ': 'dz', 'Ǆ': 'DZ', 'ĳ': 'ij', 'Ĳ': 'IJ',
  'ə': 'e', 'Ə': 'E', 'ŋ': 'n', 'Ŋ': 'N',
};

const isWinAnsi = (char: string): boolean => {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || winAnsiExtras.has(char);
};

/**
 * Spells text with the WinAnsi characters that Helvetica, a PDF standard font, can show without
 * embedding a font file: accents outside Latin-1 drop to their base letter (ő → o, č → c), a few
 * letters have a fixed spelling (ł → l), anything else becomes "?".
 */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text) {
    if (isWinAnsi(char)) {
      out += char;
      continue;
    }
    const folded = foldedLetters[char];
    if (folded !== undefined) {
      out += folded;
      continue;
    }
    const base = Array.from(char.normalize('NFD').replace(/\p{M}/gu, ''));
    out += base.length > 0 && base.every(isWinAnsi) ? base.join('') : '?';
  }
  return out;
}

/**
 * The largest count in 0..max for which `fits(count)` holds, for a test that holds up to some
 * count and fails beyond it (a text prefix plus an ellipsis growing wider). Binary search, so
 * cutting a long text costs a few width measurements, not one per character.
 */
export function longestFitting(max: number, fits: (count: number) => boolean): number {
  let low = 0;
  let high = max;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}
