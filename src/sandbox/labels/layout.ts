import type { Orientation } from '../../shared/api/schemas';
import { code128QuietZoneModules, encodeCode128, type Code128Symbol } from './code128';
import type { LabelData } from './label-data';

/**
 * One A6 label design, laid out in printer dots (203 dpi), shared by the ZPL and PDF renderers so
 * both documents of an order show the same things in the same places. Coordinates are in the
 * reading frame of the label: x to the right, y downwards, as the label is read.
 */

/** A6 at 203 dpi: 105 mm = 839 dots, 148 mm = 1184 dots (the spec's ^PW839 / ^LL1184). */
export const a6Dots = { short: 839, long: 1184 } as const;
export const dotsPerInch = 203;

export interface TextElement {
  kind: 'text';
  x: number;
  y: number;
  /** The box the text must fit in; renderers shrink, then cut, text that is wider. */
  width: number;
  /** Character cell height in dots (ZPL ^A0 height). */
  size: number;
  text: string;
  align: 'left' | 'center' | 'right';
  weight: 'regular' | 'bold';
}

/** A filled rectangle: rules between blocks. */
export interface RuleElement {
  kind: 'rule';
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface BoxElement {
  kind: 'box';
  x: number;
  y: number;
  width: number;
  height: number;
  thickness: number;
}

export interface BarcodeElement {
  kind: 'barcode';
  /** Left edge of the first bar; the quiet zones lie outside x .. x + modules * moduleWidth. */
  x: number;
  y: number;
  moduleWidth: number;
  height: number;
  symbol: Code128Symbol;
}

export type LayoutElement = TextElement | RuleElement | BoxElement | BarcodeElement;

export interface LabelLayout {
  orientation: Orientation;
  /** Reading-frame size in dots: 839 x 1184 for portrait, 1184 x 839 for landscape. */
  width: number;
  height: number;
  elements: LayoutElement[];
}

const margin = 32;
/** Wider modules scan more reliably; 2 dots (0.25 mm) is the narrowest a courier's scanner reads well. */
const moduleWidths = [4, 3, 2] as const;
const narrowestModule = 2;

/** Largest Code 128 symbol (in modules, quiet zones included) that fits the narrower portrait layout. */
export const maxBarcodeModules = Math.floor((a6Dots.short - 2 * margin) / narrowestModule);

function barcodeElement(barcode: string, left: number, width: number, y: number, height: number): BarcodeElement {
  const symbol = encodeCode128(barcode);
  const total = symbol.modules + 2 * code128QuietZoneModules;
  const moduleWidth = moduleWidths.find((candidate) => total * candidate <= width);
  if (moduleWidth === undefined) {
    throw new RangeError(`barcode ${JSON.stringify(barcode)} is too long to print on an A6 label`);
  }
  const x = left + Math.floor((width - symbol.modules * moduleWidth) / 2);
  return { kind: 'barcode', x, y, moduleWidth, height, symbol };
}

const text = (
  x: number,
  y: number,
  width: number,
  size: number,
  value: string,
  options: Partial<Pick<TextElement, 'align' | 'weight'>> = {},
): TextElement => ({ kind: 'text', x, y, width, size, text: value, align: options.align ?? 'left', weight: options.weight ?? 'regular' });

const caption = (x: number, y: number, width: number, value: string, align: TextElement['align'] = 'left'): TextElement =>
  text(x, y, width, 22, value, { align });

const rule = (y: number, width: number): RuleElement => ({ kind: 'rule', x: margin, y, width, height: 4 });

/** The texts both layouts print, derived once so the two orientations cannot drift apart. */
function labelTexts(data: LabelData) {
  return {
    date: data.createdAt.slice(0, 10),
    postalLine: `${data.postalCode} ${data.city}`.trim(),
    bundleOf: data.bundle ? `${data.bundle.index} of ${data.bundle.count}` : undefined,
  };
}

function portraitLayout(data: LabelData): LabelLayout {
  const width = a6Dots.short;
  const inner = width - 2 * margin;
  const right = width - margin;
  const { date, postalLine, bundleOf } = labelTexts(data);
  const elements: LayoutElement[] = [
    caption(margin, 28, 540, 'FROM'),
    text(margin, 54, 540, 34, data.senderName),
    caption(right - 200, 28, 200, 'DATE', 'right'),
    text(right - 200, 54, 200, 32, date, { align: 'right' }),
    rule(100, inner),
    caption(margin, 116, inner, 'TO'),
    text(margin, 144, inner, 58, data.deliveryName, { weight: 'bold' }),
    text(margin, 212, inner, 42, data.deliveryAddress),
    text(margin, 266, inner, 58, postalLine, { weight: 'bold' }),
    text(margin, 342, 300, 110, data.countryCode, { weight: 'bold' }),
  ];
  if (bundleOf) {
    const boxX = right - 368;
    elements.push(
      { kind: 'box', x: boxX, y: 338, width: 368, height: 118, thickness: 4 },
      caption(boxX, 348, 368, 'PARCEL', 'center'),
      text(boxX + 8, 378, 352, 70, bundleOf, { align: 'center', weight: 'bold' }),
    );
  }
  elements.push(
    rule(476, inner),
    barcodeElement(data.barcode, margin, inner, 500, 290),
    text(margin, 806, inner, 36, data.barcode, { align: 'center' }),
    rule(860, inner),
    caption(margin, 876, inner, 'ORDER REF'),
    text(margin, 902, inner, 52, data.orderRef, { weight: 'bold' }),
    caption(margin, 966, inner, 'ORDER ID'),
    text(margin, 992, inner, 38, data.orderId),
  );
  if (data.bundle) {
    elements.push(caption(margin, 1044, inner, 'BUNDLE'), text(margin, 1070, inner, 32, data.bundle.bundleId));
  }
  if (data.trackingUrl) elements.push(text(margin, 1122, inner, 24, data.trackingUrl));
  return { orientation: 'portrait', width, height: a6Dots.long, elements };
}

function landscapeLayout(data: LabelData): LabelLayout {
  const width = a6Dots.long;
  const inner = width - 2 * margin;
  const right = width - margin;
  const columnX = right - 280;
  const leftWidth = columnX - margin - 24;
  const halfX = 600;
  const { date, postalLine, bundleOf } = labelTexts(data);
  const elements: LayoutElement[] = [
    caption(margin, 28, leftWidth, 'FROM'),
    text(margin, 54, leftWidth, 34, data.senderName),
    caption(columnX, 28, 280, 'DATE', 'right'),
    text(columnX, 54, 280, 32, date, { align: 'right' }),
    rule(100, inner),
    caption(margin, 116, leftWidth, 'TO'),
    text(margin, 144, leftWidth, 58, data.deliveryName, { weight: 'bold' }),
    text(margin, 212, leftWidth, 42, data.deliveryAddress),
    text(margin, 266, leftWidth, 58, postalLine, { weight: 'bold' }),
    text(columnX, 118, 280, 110, data.countryCode, { align: 'center', weight: 'bold' }),
  ];
  if (bundleOf) {
    elements.push(
      { kind: 'box', x: columnX, y: 232, width: 280, height: 108, thickness: 4 },
      caption(columnX, 240, 280, 'PARCEL', 'center'),
      text(columnX + 8, 268, 264, 64, bundleOf, { align: 'center', weight: 'bold' }),
    );
  }
  elements.push(
    rule(352, inner),
    barcodeElement(data.barcode, margin, inner, 372, 250),
    text(margin, 636, inner, 34, data.barcode, { align: 'center' }),
    rule(684, inner),
    caption(margin, 698, halfX - margin - 24, 'ORDER REF'),
    text(margin, 722, halfX - margin - 24, 48, data.orderRef, { weight: 'bold' }),
    caption(halfX, 698, right - halfX, 'ORDER ID'),
    text(halfX, 726, right - halfX, 38, data.orderId),
  );
  if (data.bundle) {
    elements.push(text(margin, 780, halfX - margin - 24, 28, `BUNDLE ${data.bundle.bundleId}`));
  }
  if (data.trackingUrl) elements.push(text(halfX, 782, right - halfX, 24, data.trackingUrl));
  return { orientation: 'landscape', width, height: a6Dots.short, elements };
}

/** Lays out already-parsed label data; throws a RangeError when the barcode cannot fit. */
export function layoutLabel(data: LabelData, orientation: Orientation): LabelLayout {
  return orientation === 'portrait' ? portraitLayout(data) : landscapeLayout(data);
}
