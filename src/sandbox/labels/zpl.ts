import type { Orientation } from '../../shared/api/schemas';
import { parseLabelData, type LabelData } from './label-data';
import { longestFitting, sanitizeLabelText } from './label-text';
import { a6Dots, layoutLabel, type LayoutElement, type TextElement } from './layout';

/**
 * Native ZPL II for a 203 dpi Zebra with A6 stock (105 mm across the head, 148 mm along the feed).
 *
 * Both orientations are printed on the same A6 roll, so both carry ^PW839 ^LL1184. Portrait reads
 * as it comes out of the printer (fields ^FWN). Landscape is the same stock read turned a quarter:
 * every field is rotated 90 degrees clockwise (^FWR), because a 148 mm wide format would need a
 * 6-inch head and a 4-inch Zebra (832 dots) would cut it off.
 *
 * Text is UTF-8 (^CI28) and every text field goes through ^FH so that ^, ~ and _ from user data
 * are written as hex escapes and can never start a command; control characters become spaces.
 */

/**
 * Advance widths of the Zebra scalable font 0 for ASCII 32..126, in hundredths of the character
 * width parameter, as measured from the renderer the tests use (a Zebra's font 0, CG Triumvirate
 * Bold Condensed, has similar proportions). Only used to place, shrink or cut text in its box.
 */
const font0Widths = [
  25, 33, 33, 50, 50, 83, 67, 25, 33, 33, 50, 50, 33, 50, 33, 28, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50,
  28, 28, 50, 50, 50, 50, 83, 56, 56, 56, 61, 50, 50, 61, 61, 28, 44, 56, 50, 78, 61, 61, 56, 61, 61, 56,
  50, 61, 56, 83, 56, 56, 50, 33, 50, 33, 50, 50, 33, 50, 50, 44, 50, 50, 28, 50, 50, 28, 28, 44, 28, 78,
  50, 50, 50, 50, 33, 44, 28, 50, 44, 67, 44, 44, 39, 27, 25, 27, 50,
];
/** Headroom for differences between the renderer's font and a printer's. */
const widthSafety = 1.06;
/** Text is condensed down to this share of its height before it is cut. */
const narrowestCharWidth = 0.7;
const ellipsis = '...';

function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 32;
  if (code >= 32 && code <= 126) return (font0Widths[code - 32] ?? 60) / 100;
  // Accented letters are as wide as their base letter; anything else gets a wide-letter guess.
  const base = char.normalize('NFD').codePointAt(0) ?? 0;
  if (base >= 32 && base <= 126) return (font0Widths[base - 32] ?? 60) / 100;
  return code >= 0x2e80 ? 1 : 0.65;
}

/** Estimated printed width of the text at character width 1 dot. */
function unitWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width * widthSafety;
}

/** Field data for ^FH: the format's command prefixes and the hex indicator itself become escapes. */
export function escapeZplFieldData(text: string): string {
  if (!/[\^~_]/.test(text)) return text;
  let out = '';
  for (const char of text) {
    if (char === '^') out += '_5E';
    else if (char === '~') out += '_7E';
    else if (char === '_') out += '_5F';
    else out += char;
  }
  return out;
}

/** Picks the ^A0 character width that fits the box, cutting the text when even condensed it does not. */
function fitText(element: TextElement): { text: string; charWidth: number } {
  const text = sanitizeLabelText(element.text);
  const natural = unitWidth(text) * element.size;
  if (natural <= element.width) return { text, charWidth: element.size };
  const condensed = Math.floor((element.size * element.width) / natural);
  const minimum = Math.ceil(element.size * narrowestCharWidth);
  if (condensed >= minimum) return { text, charWidth: condensed };
  const chars = Array.from(text);
  const fits = (kept: number) => unitWidth(chars.slice(0, kept).join('') + ellipsis) * minimum <= element.width;
  return { text: chars.slice(0, longestFitting(chars.length, fits)).join('').trimEnd() + ellipsis, charWidth: minimum };
}

/**
 * Maps a box given in the label's reading frame to the ^FO origin in printer dots. For landscape,
 * reading-frame "right" runs along the feed (printer +y) and "up" points to printer +x.
 */
function origin(orientation: Orientation, x: number, y: number, height: number): [number, number] {
  if (orientation === 'portrait') return [x, y];
  return [a6Dots.short - y - height, x];
}

function elementZpl(element: LayoutElement, orientation: Orientation): string {
  const rotation = orientation === 'portrait' ? 'N' : 'R';
  switch (element.kind) {
    case 'text': {
      // No ^FB: inside a field block a backslash starts an escape, so user text would need a
      // second escaping scheme. Alignment is placed from the width estimate instead.
      const fitted = fitText(element);
      const printed = (unitWidth(fitted.text) / widthSafety) * fitted.charWidth;
      const slack = Math.max(0, element.width - printed);
      const shift = element.align === 'left' ? 0 : Math.round(element.align === 'center' ? slack / 2 : slack);
      const [x, y] = origin(orientation, element.x + shift, element.y, element.size);
      return `^FO${x},${y}^A0${rotation},${element.size},${fitted.charWidth}^FH^FD${escapeZplFieldData(fitted.text)}^FS`;
    }
    case 'rule':
    case 'box': {
      const thickness = element.kind === 'rule' ? Math.min(element.width, element.height) : element.thickness;
      const [x, y] = origin(orientation, element.x, element.y, element.height);
      const [w, h] = orientation === 'portrait' ? [element.width, element.height] : [element.height, element.width];
      return `^FO${x},${y}^GB${w},${h},${thickness}^FS`;
    }
    case 'barcode': {
      const [x, y] = origin(orientation, element.x, element.y, element.height);
      // Automatic mode (last parameter A): the printer picks code sets B/C itself, as our encoder
      // does, and the barcode alphabet (see label-data) holds no character ZPL treats specially.
      return `^FO${x},${y}^BY${element.moduleWidth}^BC${rotation},${element.height},N,N,N,A^FD${element.symbol.text}^FS`;
    }
  }
}

/** One ZPL format (^XA...^XZ) for the order's label in the requested orientation. */
export function renderZplLabel(data: LabelData, orientation: Orientation): string {
  const parsed = parseLabelData(data);
  const layout = layoutLabel(parsed, orientation);
  const parts = [
    '^XA',
    `^FXDelivery label A6 203dpi ${orientation}^FS`,
    '^CI28',
    `^PW${a6Dots.short}`,
    `^LL${a6Dots.long}`,
    '^LH0,0',
    '^PON',
    `^FW${orientation === 'portrait' ? 'N' : 'R'}`,
    ...layout.elements.map((element) => elementZpl(element, orientation)),
    '^PQ1',
    '^XZ',
  ];
  return parts.join('\n');
}
