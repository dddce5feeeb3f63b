import { describe, expect, it } from 'vitest';
import { pdfScannerCheckPage } from '../../../src/main/printing/runs/test-print';
import { buildScannerCheckLabel } from '../../../src/main/printing/scanner-check-label';
import { renderZplToPng } from '../../../src/sandbox/labels/render';
import { SCANNER_CHECK_TEXT } from '../../../src/shared/keyboard/scanner-check';
import { decodeBarcodesFromPdf, decodeBarcodesFromPng } from '../../support/barcode';

// The scanner check barcode of Setup › Scanner, printed: read back from the label's pixels as a
// scanner would, on a Zebra (its ZPL rendered at 203 and 300 dpi) and on a PDF printer's page.
describe('the scanner check label', () => {
  it.each([203, 300])('scans as the check text on a %i dpi Zebra', async (dpi) => {
    const label = buildScannerCheckLabel({ stationName: 'Bench 3 ^XA', dpi });
    expect(label.barcode).toBe(SCANNER_CHECK_TEXT);
    // The station's name cannot end the format early.
    expect(label.zpl.match(/\^XA/g)).toHaveLength(1);
    const png = await renderZplToPng(label.zpl, { dpmm: dpi === 300 ? 12 : 8 });
    expect(await decodeBarcodesFromPng(png)).toContainEqual({ symbology: 'CODE-128', data: SCANNER_CHECK_TEXT });
  });

  it('scans as the check text on a PDF printer\'s page', async () => {
    const pages = await decodeBarcodesFromPdf(await pdfScannerCheckPage('Bench 3'), { dpi: 203 });
    expect(pages).toEqual([[{ symbology: 'CODE-128', data: SCANNER_CHECK_TEXT }]]);
  });
});
