import { describe, expect, it } from 'vitest';
import { a6At203Dpi, rasterizePdf, rasterPageToZpl, type RasterPage } from '../../../src/main/printing/raster/pdf-raster';
import { mergePdfLabels, renderPdfLabel } from '../../../src/sandbox/labels/pdf';
import type { LabelDataInput } from '../../../src/sandbox/labels/label-data';
import { renderZplToPng } from '../../../src/sandbox/labels/render';
import { decodeBarcodesFromPng } from '../../support/barcode';

const order = (n: number): LabelDataInput => ({
  orderId: `ord_${n}`,
  orderRef: `REF-${n}`,
  barcode: `3SPSB00${n}4411`,
  deliveryName: 'Anna de Vries',
  deliveryAddress: 'Keizersgracht 12 A, 1015 CS Amsterdam',
  postalCode: '1015CS',
  city: 'Amsterdam',
  countryCode: 'NL',
  senderName: 'Packing Station Sandbox',
  bundle: { index: n, count: 3, bundleId: 'B-42' },
  createdAt: '2026-11-21T08:00:00.000Z',
});

async function pages(pdf: Uint8Array): Promise<RasterPage[]> {
  const all: RasterPage[] = [];
  for await (const page of rasterizePdf(pdf)) all.push(page);
  return all;
}

async function barcodesPrinted(zpl: string): Promise<string[]> {
  const png = await renderZplToPng(zpl, { widthMm: 105, heightMm: 148, dpmm: 8 });
  return (await decodeBarcodesFromPng(png)).map((code) => code.data);
}

describe('bundle PDF rasterised into ^GFA for a Zebra', () => {
  it('turns a landscape A6 label onto portrait stock, and the printed barcode still scans', async () => {
    const pdf = await renderPdfLabel(order(1), { orientation: 'landscape', printSize: 'A6' });
    const [page] = await pages(pdf);
    expect(page!.bitmap.widthDots).toBeLessThanOrEqual(a6At203Dpi.widthDots);
    expect(page!.bitmap.heightDots).toBeLessThanOrEqual(a6At203Dpi.lengthDots);
    // A 148 mm page turned to run along the 148 mm label length fills most of it.
    expect(page!.bitmap.heightDots).toBeGreaterThan(1100);
    for (const encoding of ['compressed', 'hex'] as const) {
      expect(await barcodesPrinted(rasterPageToZpl(page!, a6At203Dpi, encoding))).toContain('3SPSB0014411');
    }
  });

  it('prints every page of a merged bundle PDF, in order, each scannable', async () => {
    const merged = await mergePdfLabels(await Promise.all([1, 2, 3].map((n) => renderPdfLabel(order(n), { orientation: 'portrait' }))));
    const all = await pages(merged);
    expect(all.map((page) => page.pageNumber)).toEqual([1, 2, 3]);
    for (const [i, page] of all.entries()) {
      expect(await barcodesPrinted(rasterPageToZpl(page))).toContain(`3SPSB00${i + 1}4411`);
    }
  });

  it('refuses a document that is not a PDF', async () => {
    await expect(pages(new TextEncoder().encode('^XA^XZ'))).rejects.toThrow('not a PDF');
  });
});
