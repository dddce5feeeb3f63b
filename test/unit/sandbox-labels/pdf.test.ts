import { PDFDocument } from 'pdf-lib';
import { ZodError } from 'zod';
import { describe, expect, it } from 'vitest';
import { mergePdfLabels, renderPdfLabel, renderPdfLabels } from '../../../src/sandbox/labels/pdf';
import { pdfPrintSizes, type PdfPrintSize } from '../../../src/sandbox/labels/pdf-options';
import { bundleOf, labelFixture } from './label-fixture';
import { pdfPageTexts } from './pdf-text';

const mm = (points: number) => Math.round((points * 25.4) / 72);

async function pageSizesMm(pdf: Uint8Array): Promise<Array<[number, number]>> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => [mm(page.getWidth()), mm(page.getHeight())]);
}

describe('PDF label', () => {
  it('offers A6 and A4 print sizes', () => {
    expect(pdfPrintSizes).toEqual(['A6', 'A4']);
  });

  it('is an A6 landscape page by default', async () => {
    const pdf = await renderPdfLabel(labelFixture());
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(await pageSizesMm(pdf)).toEqual([[148, 105]]);
  });

  it.each([
    ['portrait', 'A6', [105, 148]],
    ['landscape', 'A6', [148, 105]],
    ['portrait', 'A4', [210, 297]],
    ['landscape', 'A4', [210, 297]],
  ] as const)('%s on %s paper is one page of %j mm', async (orientation, printSize, size) => {
    expect(await pageSizesMm(await renderPdfLabel(labelFixture(), { orientation, printSize }))).toEqual([size]);
  });

  it.each(['portrait', 'landscape'] as const)('shows recipient, address, references and "n of m" (%s)', async (orientation) => {
    const pdf = await renderPdfLabel(
      labelFixture({ bundle: bundleOf(2, 5), deliveryName: 'Łucja Dvořák', trackingUrl: 'https://track.example.com/t/1' }),
      { orientation },
    );
    const [text = ''] = await pdfPageTexts(pdf);
    for (const expected of [
      'Lucja Dvorák',
      'Keizersgracht 123 A, 1015 CJ Amsterdam',
      '1015 CJ Amsterdam',
      'NL',
      'SHOP-2024-000123',
      'ord_7f3a9c2e41',
      'Bakkerij De Gouden Korenaar B.V.',
      'JVGL0612345678',
      '2 of 5',
      'BNDL-20240611-0042',
      'https://track.example.com/t/1',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('shortens a name too long for its line, with an ellipsis', async () => {
    const name = 'Wilhelmina Catharina Maria van Oranje-Nassau tot Amsberg en Lippe-Biesterfeld';
    const [text = ''] = await pdfPageTexts(await renderPdfLabel(labelFixture({ deliveryName: name }), { orientation: 'portrait' }));
    expect(text).not.toContain(name);
    expect(text).toMatch(/Wilhelmina Catharina[^\n]*\.\.\./);
  });

  it('refuses a print size it does not offer and bad label data', async () => {
    await expect(renderPdfLabel(labelFixture(), { printSize: 'A5' as PdfPrintSize })).rejects.toThrow(ZodError);
    await expect(renderPdfLabel(labelFixture({ barcode: 'A B' }))).rejects.toThrow(ZodError);
  });

  it('gives the same bytes for the same order', async () => {
    const first = await renderPdfLabel(labelFixture());
    const second = await renderPdfLabel(labelFixture());
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
  });
});

describe('bundle PDF', () => {
  const parcels = [1, 2, 3].map((index) => labelFixture({ orderRef: `SHOP-${index}`, barcode: `JVGL06000${index}`, bundle: bundleOf(index, 3) }));

  it('merges label PDFs into one document, pages in input order', async () => {
    const singles = await Promise.all(parcels.map((parcel) => renderPdfLabel(parcel)));
    const merged = await mergePdfLabels([singles[2]!, singles[0]!, singles[1]!]);
    const texts = await pdfPageTexts(merged);
    expect(texts).toHaveLength(3);
    expect(texts.map((text) => text.match(/SHOP-\d/)?.[0])).toEqual(['SHOP-3', 'SHOP-1', 'SHOP-2']);
  });

  it('renders many labels straight into one document, a page each', async () => {
    const pdf = await renderPdfLabels(parcels, { orientation: 'portrait' });
    expect(await pageSizesMm(pdf)).toEqual([[105, 148], [105, 148], [105, 148]]);
    expect((await pdfPageTexts(pdf)).map((text) => text.match(/\d of 3/)?.[0])).toEqual(['1 of 3', '2 of 3', '3 of 3']);
  });

  it('says which input is not a PDF, and refuses an empty bundle', async () => {
    const good = await renderPdfLabel(parcels[0]!);
    await expect(mergePdfLabels([good, new TextEncoder().encode('not a pdf')])).rejects.toThrow('PDF 2 of 2 could not be read');
    await expect(mergePdfLabels([])).rejects.toThrow(RangeError);
    await expect(renderPdfLabels([])).rejects.toThrow(RangeError);
  });
});
