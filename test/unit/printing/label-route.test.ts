import { describe, expect, it } from 'vitest';
import { describeLabelRoute, labelRoute } from '../../../src/main/printing/label-route';
import { defaultPrinterOptions } from '../../../src/main/printing/printers';
import { rollFit } from '../../../src/shared/zebra/roll-and-head';

const printer = (dpi: number | null, printWidthDots: number | null, format: 'zpl' | 'pdf' = 'zpl') => ({
  name: 'Bench 3',
  format,
  options: { ...defaultPrinterOptions, dpi, printWidthDots },
});

describe('the label route follows what the printer is', () => {
  it('sends native ZPL to a 203 dpi printer with a 4-inch head, and to one that has not said', () => {
    expect(labelRoute(printer(203, 832)).kind).toBe('native-zpl');
    expect(labelRoute(printer(203, null)).kind).toBe('native-zpl');
    expect(labelRoute(printer(null, null)).kind).toBe('native-zpl');
  });

  it('rasterises at 300 and 600 dpi to A6 at that resolution, no wider than the head', () => {
    expect(labelRoute(printer(300, 1248))).toEqual({ kind: 'raster', geometry: { widthDots: 1240, lengthDots: 1748, dpi: 300 } });
    expect(labelRoute(printer(600, 2496))).toEqual({ kind: 'raster', geometry: { widthDots: 2480, lengthDots: 3496, dpi: 600 } });
    // 1232 dots at 300 dpi is 104.3 mm: wide enough, and the image is cut to the head.
    expect(labelRoute(printer(300, 1232))).toEqual({ kind: 'raster', geometry: { widthDots: 1232, lengthDots: 1748, dpi: 300 } });
  });

  it('refuses a head narrower than 104 mm at any resolution, saying how wide it is', () => {
    const narrow = labelRoute(printer(203, 812));
    expect(narrow.kind).toBe('refused');
    if (narrow.kind !== 'refused') return;
    expect(narrow.error.code).toBe('PRINTER_TOO_NARROW');
    expect(narrow.error.message).toContain('812 dots (102 mm)');
    expect(labelRoute(printer(300, 832)).kind).toBe('refused');
  });

  it('sends PDFs to a PDF printer, and says each route in a sentence', () => {
    expect(labelRoute(printer(null, null, 'pdf')).kind).toBe('pdf');
    expect(describeLabelRoute(printer(300, 1248)).message).toContain('image at 300 dpi (1240 × 1748 dots)');
  });
});

describe('the roll check and the label route agree on a head’s width', () => {
  it('calls a roll too narrow exactly where the route refuses the printer, at 203, 300 and 600 dpi', () => {
    for (const dpi of [203, 300, 600]) {
      for (let width = Math.floor((820 * dpi) / 203); width <= Math.ceil((840 * dpi) / 203); width += 1) {
        const refused = labelRoute(printer(dpi, width)).kind === 'refused';
        const narrow = rollFit(dpi, width, 4000).issues.some((issue) => issue.issue === 'too-narrow');
        expect(narrow, `${width} dots at ${dpi} dpi`).toBe(refused);
      }
    }
  });

  it('a 300 dpi head of 1229 dots prints A6 and its roll fits; at 1228 the roll check names the 1229 it needs', () => {
    expect(rollFit(300, 1229, 1748)).toMatchObject({ fits: true, issues: [] });
    expect(rollFit(300, 1228, 1748).issues).toEqual([{ issue: 'too-narrow', printerDots: 1228, labelDots: 1229, printerMm: 104, labelMm: 104.1 }]);
  });
});
