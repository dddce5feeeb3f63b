import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { encodeGfa, type GfaEncoding } from './gfa';
import { thresholdRgba, type MonoBitmap } from './mono-bitmap';

/** The label a page must fit: A6 portrait at 203 dpi is 839 × 1184 dots; the printer may print narrower. */
export interface LabelGeometry {
  widthDots: number;
  lengthDots: number;
  dpi: number;
}

export const a6At203Dpi: LabelGeometry = { widthDots: 832, lengthDots: 1184, dpi: 203 };

export interface RasterPage {
  pageNumber: number;
  bitmap: MonoBitmap;
  /** Where the bitmap sits on the label, centred. */
  offsetX: number;
  offsetY: number;
}

// pdf.js's Node canvas factory (backed by @napi-rs/canvas); its typings say only `Object`.
interface NodeCanvasFactory {
  create(width: number, height: number): {
    canvas: unknown;
    context: { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
  };
}

const requireFromHere = createRequire(import.meta.url);

// pdf.js is large; load it the first time a PDF is rasterised, not at start-up.
export async function loadPdfJs() {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const root = dirname(requireFromHere.resolve('pdfjs-dist/package.json'));
  // In Node, pdf.js reads its standard fonts with fs: a folder path with a trailing separator.
  return { pdfjs, standardFontDataUrl: join(root, 'standard_fonts') + sep };
}

/**
 * Renders each page of a PDF straight at the printer's resolution, rotated to the label's
 * orientation (a landscape A6 page onto portrait A6 stock turns 90°) and scaled to fit, then
 * thresholded to one bit. Rendering at the final size (not scaling a bitmap afterwards) keeps
 * barcode modules whole.
 */
export async function* rasterizePdf(pdf: Uint8Array, label: LabelGeometry = a6At203Dpi): AsyncGenerator<RasterPage> {
  if (!(pdf.length > 4 && String.fromCharCode(...pdf.subarray(0, 5)) === '%PDF-')) throw new Error('This is not a PDF document.');
  const { pdfjs, standardFontDataUrl } = await loadPdfJs();
  const document = await pdfjs.getDocument({ data: pdf.slice(), standardFontDataUrl, isEvalSupported: false, useSystemFonts: false }).promise;
  try {
    for (let pageNumber = 1; pageNumber <= document.numPages; pageNumber++) {
      const page = await document.getPage(pageNumber);
      const natural = page.getViewport({ scale: 1 });
      const pageIsLandscape = natural.width > natural.height;
      const labelIsLandscape = label.widthDots > label.lengthDots;
      const rotation = (page.rotate + (pageIsLandscape !== labelIsLandscape ? 90 : 0)) % 360;
      const turned = page.getViewport({ scale: 1, rotation });
      const scale = Math.min(label.widthDots / turned.width, label.lengthDots / turned.height);
      const viewport = page.getViewport({ scale, rotation });
      const width = Math.min(label.widthDots, Math.floor(viewport.width));
      const height = Math.min(label.lengthDots, Math.floor(viewport.height));
      const { canvas, context } = (document.canvasFactory as NodeCanvasFactory).create(width, height);
      await page.render({ canvas, canvasContext: context, viewport, background: 'white' } as never).promise;
      const bitmap = thresholdRgba(context.getImageData(0, 0, width, height).data, width, height);
      page.cleanup();
      yield {
        pageNumber,
        bitmap,
        offsetX: Math.floor((label.widthDots - width) / 2),
        offsetY: Math.floor((label.lengthDots - height) / 2),
      };
    }
  } finally {
    await document.destroy();
  }
}

/** One ZPL format printing a rasterised page as a graphic field. */
export function rasterPageToZpl(page: RasterPage, label: LabelGeometry = a6At203Dpi, encoding: GfaEncoding = 'compressed'): string {
  return `^XA^PW${label.widthDots}^LL${label.lengthDots}^LH0,0^FO${page.offsetX},${page.offsetY}${encodeGfa(page.bitmap, encoding)}^FS^XZ\n`;
}
