import { describe, expect, it } from 'vitest';
import { mergePdfLabels, renderPdfLabel, renderPdfLabels } from '../../../src/sandbox/labels/pdf';
import { pdfPrintSizes } from '../../../src/sandbox/labels/pdf-options';
import { decodeBarcodesFromPdf } from '../../support/barcode';
import { bundleOf, labelFixture } from '../../unit/sandbox-labels/label-fixture';

const cases = (['landscape', 'portrait'] as const).flatMap((orientation) => pdfPrintSizes.map((printSize) => [orientation, printSize] as const));

describe('PDF label rasterised and scanned', () => {
  it.each(cases)('%s on %s: the scanner reads the parcel barcode as Code 128', async (orientation, printSize) => {
    const barcode = 'JVGL0612345678';
    const pdf = await renderPdfLabel(labelFixture({ barcode, bundle: bundleOf(2, 3) }), { orientation, printSize });
    expect(await decodeBarcodesFromPdf(pdf)).toEqual([[{ symbology: 'CODE-128', data: barcode }]]);
  });

  it('reads long numeric and punctuated barcodes from a 150 dpi rasterisation', async () => {
    for (const barcode of ['00340434161094042557', 'NL-2024/7.5+A1234567']) {
      const pdf = await renderPdfLabel(labelFixture({ barcode }), { orientation: 'portrait' });
      expect(await decodeBarcodesFromPdf(pdf, { dpi: 150 })).toEqual([[{ symbology: 'CODE-128', data: barcode }]]);
    }
  });

  it('bundle PDF: one page per parcel, in order, each with its own barcode', async () => {
    const barcodes = ['JVGL0600000001', 'JVGL0600000002', 'JVGL0600000003'];
    const singles = await Promise.all(
      barcodes.map((barcode, index) => renderPdfLabel(labelFixture({ barcode, bundle: bundleOf(index + 1, 3) }))),
    );
    const merged = await mergePdfLabels(singles);
    const pages = await decodeBarcodesFromPdf(merged);
    expect(pages).toEqual(barcodes.map((data) => [{ symbology: 'CODE-128', data }]));

    const direct = await renderPdfLabels(barcodes.map((barcode) => labelFixture({ barcode })), { orientation: 'portrait', printSize: 'A4' });
    expect(await decodeBarcodesFromPdf(direct, { dpi: 150 })).toEqual(barcodes.map((data) => [{ symbology: 'CODE-128', data }]));
  });
});
