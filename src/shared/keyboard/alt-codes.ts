/**
 * "Alt + keypad" characters: a scanner in this mode types each character as Alt held down while
 * its decimal code is typed on the numpad, the way Windows lets anyone type any character on any
 * layout. The code page follows Windows' own rule:
 *
 * - with a leading 0 (Alt+0233): Windows-1252, the code page of Western Windows;
 * - without (Alt+130): the OEM code page, CP437 (what Windows uses for the US and most of Europe).
 *
 * Printable ASCII (32–126) is the same in both, so a scanner's barcode data reads the same either
 * way. Codes 1–31 are the ASCII control characters in both (GS, 29, is the GS1 separator; 13, 10
 * and 9 are the Enter and Tab that end a scan); 0 types nothing. A code above 255 counts modulo
 * 256, as Windows counts it.
 */

/** CP437's characters 128–255. */
const cp437High =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/** Windows-1252's characters 128–159 (the five it leaves unassigned are the C1 controls of the same number); 160–255 are Latin-1's. */
const windows1252C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

/** The character an Alt code types (its digits as typed), or null when it types nothing. */
export function altCodeCharacter(digits: string): string | null {
  if (!/^[0-9]{1,6}$/.test(digits)) return null;
  const value = Number(digits) % 256;
  if (value === 0) return null;
  if (value < 128) return String.fromCharCode(value);
  if (digits.startsWith('0')) return value < 160 ? (windows1252C1[value - 128] ?? null) : String.fromCharCode(value);
  return cp437High[value - 128] ?? null;
}
