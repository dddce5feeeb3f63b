/**
 * Which way labels go to a printer, from what the printer said it is. The service's ZPL is A6 at
 * 203 dpi only, so:
 *
 * | printer                                   | route                                              |
 * |-------------------------------------------|----------------------------------------------------|
 * | PDF queue                                 | the service's PDF                                  |
 * | 203 dpi, head ≥ 832 dots (104 mm)         | native ZPL, unchanged                              |
 * | 300, 600, … dpi, head ≥ 104 mm            | the order's PDF rasterised to ^GFA at its own dpi  |
 * | head narrower than 104 mm (any dpi)       | refused: PRINTER_TOO_NARROW with the width         |
 * | not known (an OS queue, not checked yet)  | native ZPL (a network or USB Zebra is asked when a connection opens) |
 */
import type { LabelRouteData, PrinterData } from '../../shared/contract/printers';
import { StationError } from '../../shared/errors';
import type { LabelGeometry } from './raster/pdf-raster';

/** Dots per inch of the service's ZPL labels. */
export const LABEL_DPI = 203;
export const A6_WIDTH_MM = 105;
const A6_LENGTH_MM = 148;
/** The narrowest print width, in dots at 203 dpi, that counts as fitting A6: a 4-inch printhead. */
export const MIN_PRINT_WIDTH_DOTS = 832;
const MM_PER_INCH = 25.4;

export type LabelRoute =
  | { kind: 'pdf' }
  | { kind: 'native-zpl' }
  | { kind: 'raster'; geometry: LabelGeometry }
  | { kind: 'refused'; error: StationError };

type PrinterFacts = Pick<PrinterData, 'name' | 'format' | 'options'>;

/** A head at least this wide, at any resolution, prints the whole A6 label (832 dots at 203 dpi). */
function fitsA6(widthDots: number, dpi: number): boolean {
  return Math.round((widthDots * LABEL_DPI) / dpi) >= MIN_PRINT_WIDTH_DOTS;
}

/** A6 at the printer's resolution, no wider than its head. */
export function a6Geometry(dpi: number, headDots: number | null): LabelGeometry {
  const a6Width = Math.round((A6_WIDTH_MM * dpi) / MM_PER_INCH);
  return { widthDots: Math.min(a6Width, headDots ?? a6Width), lengthDots: Math.round((A6_LENGTH_MM * dpi) / MM_PER_INCH), dpi };
}

export function tooNarrow(printer: Pick<PrinterData, 'name'>, widthDots: number, dpi: number): StationError {
  const widthMm = Math.round((widthDots / dpi) * MM_PER_INCH);
  return new StationError(
    'PRINTER_TOO_NARROW',
    `${printer.name} prints ${widthDots} dots (${widthMm} mm) wide at ${dpi} dpi, narrower than an A6 label (${A6_WIDTH_MM} mm): about ${Math.max(1, A6_WIDTH_MM - widthMm)} mm of every label would be cut off, so nothing is sent to it. Set its print width to the maximum and check it again, or use a 4-inch printer.`,
  );
}

export function labelRoute(printer: PrinterFacts): LabelRoute {
  if (printer.format === 'pdf') return { kind: 'pdf' };
  const { dpi, printWidthDots } = printer.options;
  if (dpi === null) return { kind: 'native-zpl' };
  if (printWidthDots !== null && !fitsA6(printWidthDots, dpi)) return { kind: 'refused', error: tooNarrow(printer, printWidthDots, dpi) };
  if (dpi === LABEL_DPI) return { kind: 'native-zpl' };
  return { kind: 'raster', geometry: a6Geometry(dpi, printWidthDots) };
}

/** The route as the contract shows it on the printer card. */
export function describeLabelRoute(printer: PrinterFacts): LabelRouteData {
  const route = labelRoute(printer);
  switch (route.kind) {
    case 'pdf':
      return { kind: 'pdf', dpi: null, message: 'PDF labels through the printer’s own driver.' };
    case 'native-zpl':
      return {
        kind: 'native-zpl',
        dpi: LABEL_DPI,
        message:
          printer.options.dpi === null
            ? 'The service’s ZPL as it is (the printer has not said its resolution; it is taken to be 203 dpi).'
            : 'The service’s ZPL as it is: a 203 dpi printer wide enough for A6.',
      };
    case 'raster':
      return {
        kind: 'raster',
        dpi: route.geometry.dpi,
        message: `The printer is ${route.geometry.dpi} dpi and the service’s ZPL is 203 dpi only, so each order’s PDF label is printed as an image at ${route.geometry.dpi} dpi (${route.geometry.widthDots} × ${route.geometry.lengthDots} dots).`,
      };
    case 'refused':
      return { kind: 'refused', dpi: printer.options.dpi, message: route.error.message };
  }
}
