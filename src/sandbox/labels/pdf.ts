import {
  PDFDocument,
  StandardFonts,
  concatTransformationMatrix,
  fill,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setDashPattern,
  setFillingGrayscaleColor,
  setLineWidth,
  setStrokingGrayscaleColor,
  stroke,
  type PDFFont,
  type PDFOperator,
  type PDFPage,
} from 'pdf-lib';
import type { Orientation } from '../../shared/api/schemas';
import { parseLabelData, type LabelData } from './label-data';
import { longestFitting, sanitizeLabelText, toWinAnsi } from './label-text';
import { pdfLabelOptionsSchema, type PdfLabelOptions, type PdfPrintSize } from './pdf-options';
import { layoutLabel, type LabelLayout, type LayoutElement, type TextElement } from './layout';

/**
 * PDF labels drawn with pdf-lib from the same layout as the ZPL label: vector text in Helvetica
 * (a PDF standard font, so no font file is embedded) and the Code 128 symbol as filled rectangles.
 */

const pointsPerMm = 72 / 25.4;
const a6 = { short: 105 * pointsPerMm, long: 148 * pointsPerMm };
const a4 = { short: 210 * pointsPerMm, long: 297 * pointsPerMm };

/** Helvetica cap height is 0.718 em; this puts caps where font 0 puts them in the ZPL cell. */
const baselineShare = 0.76;
const smallestShare = 0.7;
const ellipsis = '...';

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Where the label sits on the page, in points, and the scale from layout dots to points. */
interface Placement {
  pageWidth: number;
  pageHeight: number;
  left: number;
  bottom: number;
  width: number;
  height: number;
}

function placement(layout: LabelLayout, printSize: PdfPrintSize): Placement {
  const [width, height] = layout.orientation === 'portrait' ? [a6.short, a6.long] : [a6.long, a6.short];
  if (printSize === 'A6') return { pageWidth: width, pageHeight: height, left: 0, bottom: 0, width, height };
  return { pageWidth: a4.short, pageHeight: a4.long, left: 0, bottom: a4.long - height, width, height };
}

/** Shrinks the font (to 70 %) and then cuts the text until it fits its box. */
function fitText(element: TextElement, font: PDFFont): { text: string; size: number } {
  const text = toWinAnsi(sanitizeLabelText(element.text));
  const size = element.size;
  const natural = font.widthOfTextAtSize(text, size);
  if (natural <= element.width) return { text, size };
  const smallest = size * smallestShare;
  const shrunk = (size * element.width) / natural;
  if (shrunk >= smallest) return { text, size: shrunk };
  const chars = Array.from(text);
  const fits = (kept: number) => font.widthOfTextAtSize(chars.slice(0, kept).join('') + ellipsis, smallest) <= element.width;
  return { text: chars.slice(0, longestFitting(chars.length, fits)).join('').trimEnd() + ellipsis, size: smallest };
}

/** Draws one element in layout units: x to the right, y up from the label's bottom edge. */
function drawElement(page: PDFPage, element: LayoutElement, layoutHeight: number, fonts: Fonts): void {
  const flip = (top: number, height: number) => layoutHeight - top - height;
  switch (element.kind) {
    case 'text': {
      const font = element.weight === 'bold' ? fonts.bold : fonts.regular;
      const fitted = fitText(element, font);
      if (fitted.text === '') return;
      const width = font.widthOfTextAtSize(fitted.text, fitted.size);
      const slack = Math.max(0, element.width - width);
      const shift = element.align === 'left' ? 0 : element.align === 'center' ? slack / 2 : slack;
      const baseline = layoutHeight - element.y - element.size * baselineShare;
      page.drawText(fitted.text, { x: element.x + shift, y: baseline, size: fitted.size, font });
      return;
    }
    case 'rule':
      page.pushOperators(rectangle(element.x, flip(element.y, element.height), element.width, element.height), fill());
      return;
    case 'box': {
      const t = element.thickness;
      const y = flip(element.y, element.height);
      page.pushOperators(
        pushGraphicsState(),
        setLineWidth(t),
        rectangle(element.x + t / 2, y + t / 2, element.width - t, element.height - t),
        stroke(),
        popGraphicsState(),
      );
      return;
    }
    case 'barcode': {
      // One path of rectangles and a single fill: compact, and crisp at any rasterising resolution.
      const y = flip(element.y, element.height);
      const m = element.moduleWidth;
      const ops: PDFOperator[] = element.symbol.bars.map(([offset, width]) =>
        rectangle(element.x + offset * m, y, width * m, element.height),
      );
      page.pushOperators(...ops, fill());
      return;
    }
  }
}

/** Dashed line along the label's inner edges on a larger sheet, to cut it out by. */
function cutLine(place: Placement): PDFOperator[] {
  const right = place.left + place.width;
  const bottom = place.bottom;
  return [
    pushGraphicsState(),
    setStrokingGrayscaleColor(0.55),
    setLineWidth(0.5),
    setDashPattern([4, 3], 0),
    moveTo(right, place.pageHeight),
    lineTo(right, bottom),
    lineTo(place.left, bottom),
    stroke(),
    popGraphicsState(),
  ];
}

function drawLabelPage(doc: PDFDocument, fonts: Fonts, data: LabelData, orientation: Orientation, printSize: PdfPrintSize): void {
  const layout = layoutLabel(data, orientation);
  const place = placement(layout, printSize);
  const page = doc.addPage([place.pageWidth, place.pageHeight]);
  const scale = Math.min(place.width / layout.width, place.height / layout.height);
  const left = place.left + (place.width - layout.width * scale) / 2;
  const bottom = place.bottom + (place.height - layout.height * scale) / 2;
  if (printSize !== 'A6') page.pushOperators(...cutLine(place));
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(scale, 0, 0, scale, left, bottom), setFillingGrayscaleColor(0));
  for (const element of layout.elements) drawElement(page, element, layout.height, fonts);
  page.pushOperators(popGraphicsState());
}

async function newDocument(title: string, createdAt: string): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  // Dates from the order, not the clock: the same order gives the same bytes every time.
  const date = new Date(createdAt);
  doc.setTitle(title);
  doc.setCreator('Delivery Service sandbox');
  doc.setProducer('pdf-lib');
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  // Embedded once per document and shared by all its pages.
  const [regular, bold] = await Promise.all([doc.embedFont(StandardFonts.Helvetica), doc.embedFont(StandardFonts.HelveticaBold)]);
  return { doc, fonts: { regular, bold } };
}

/** One label as a one-page PDF. Default: A6 landscape. */
export async function renderPdfLabel(data: LabelData, options: PdfLabelOptions = {}): Promise<Uint8Array> {
  return renderPdfLabels([data], options);
}

/**
 * Several labels as one PDF, a page per label in the given order, fonts embedded once: cheaper
 * than rendering each and merging when the bundle's label data is at hand.
 */
export async function renderPdfLabels(labels: LabelData[], options: PdfLabelOptions = {}): Promise<Uint8Array> {
  const { orientation, printSize } = pdfLabelOptionsSchema.parse(options);
  const parsed = labels.map((label) => parseLabelData(label));
  const first = parsed[0];
  if (!first) throw new RangeError('renderPdfLabels needs at least one label');
  const title = parsed.length === 1 ? `Label ${first.orderRef}` : `Labels ${first.bundle?.bundleId ?? first.orderRef}`;
  const { doc, fonts } = await newDocument(title, first.createdAt);
  for (const label of parsed) drawLabelPage(doc, fonts, label, orientation, printSize);
  return doc.save({ useObjectStreams: false });
}

/** One PDF holding every page of the given PDFs, in input order (the bundle label). */
export async function mergePdfLabels(pdfs: Uint8Array[]): Promise<Uint8Array> {
  if (pdfs.length === 0) throw new RangeError('mergePdfLabels needs at least one PDF');
  const merged = await PDFDocument.create({ updateMetadata: false });
  merged.setCreator('Delivery Service sandbox');
  merged.setProducer('pdf-lib');
  for (const [index, bytes] of pdfs.entries()) {
    let source: PDFDocument;
    try {
      source = await PDFDocument.load(bytes, { updateMetadata: false });
    } catch (cause) {
      throw new Error(`PDF ${index + 1} of ${pdfs.length} could not be read`, { cause });
    }
    const pages = await merged.copyPages(source, source.getPageIndices());
    for (const page of pages) merged.addPage(page);
  }
  return merged.save({ useObjectStreams: false });
}
