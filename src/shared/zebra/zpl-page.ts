/**
 * The page each printed label of a ZPL document comes out on, for a preview true to the label: its
 * size from the label's own ^PW/^LL (the bench's A6 when it names none), turned by ^POI, moved by
 * ^LT. ^LH is left to the renderer, which applies it as the printer does.
 */
import type { ZplFormatLayout } from './zpl-prepare';

export interface ZplPageSize {
  widthMm: number;
  heightMm: number;
  /** Dots per millimetre: 8 for 203 dpi. */
  dpmm: number;
}

export interface ZplPage extends ZplPageSize {
  /** Index of the format among all the document's formats. */
  format: number;
  /** ^LT: move the printed image down (positive) or up by this many dots. */
  topDots: number;
  /** ^POI: the printed image is turned by 180°. */
  inverted: boolean;
}

/** Bounds of a preview page, far beyond any shipping label (a ^LL typo must not ask for a 30 m canvas). */
export const maxPreviewWidthMm = 500;
export const maxPreviewHeightMm = 2000;

const fromDots = (dots: number | null, dpmm: number, fallbackMm: number, maxMm: number): number =>
  dots !== null && dots > 0 ? Math.min(maxMm, dots / dpmm) : fallbackMm;

/** Zebra names 203 dpi "200": dots per millimetre, rounded as the printer's own dpmm settings are. */
const dpmmOf = (dpi: number): number => Math.round(dpi / 25.4);

/**
 * One page per format that prints something, in the document's order. Dots are read at the
 * resolution the label says it is laid out for (^MU), else at the fallback's (203 dpi).
 */
export function zplPages(layouts: readonly ZplFormatLayout[], fallback: ZplPageSize): ZplPage[] {
  const pages: ZplPage[] = [];
  layouts.forEach((layout, format) => {
    if (!layout.draws) return;
    const dpmm = layout.formatDpi !== null ? dpmmOf(layout.formatDpi) : fallback.dpmm;
    pages.push({
      format,
      widthMm: fromDots(layout.printWidthDots, dpmm, fallback.widthMm, maxPreviewWidthMm),
      heightMm: fromDots(layout.labelLengthDots, dpmm, fallback.heightMm, maxPreviewHeightMm),
      dpmm,
      topDots: layout.topDots,
      inverted: layout.inverted,
    });
  });
  return pages;
}

/** Pages grouped by size, so each size is rendered once: the key is stable for equal sizes. */
export function pageSizeKey(page: ZplPageSize): string {
  return `${page.widthMm}x${page.heightMm}@${page.dpmm}`;
}
