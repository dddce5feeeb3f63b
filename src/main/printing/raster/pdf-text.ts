/**
 * The text of each page of a PDF, read with pdf.js without rendering it (a few milliseconds a
 * page): what a bundle page says about the order it is the label of.
 */
import { loadPdfJs } from './pdf-raster';

/** Pages, in order, each as its text items; a page whose text cannot be read is an empty list. */
export async function pdfPageTexts(pdf: Uint8Array): Promise<string[][]> {
  const { pdfjs, standardFontDataUrl } = await loadPdfJs();
  const document = await pdfjs.getDocument({ data: pdf.slice(), standardFontDataUrl, isEvalSupported: false, useSystemFonts: false }).promise;
  try {
    const pages: string[][] = [];
    for (let pageNumber = 1; pageNumber <= document.numPages; pageNumber++) {
      const page = await document.getPage(pageNumber);
      try {
        const content = await page.getTextContent();
        pages.push(content.items.flatMap((item) => ('str' in item && item.str.trim() !== '' ? [item.str] : [])));
      } catch {
        // An image-only or damaged page says nothing; it is guarded by bundle + page.
        pages.push([]);
      } finally {
        page.cleanup();
      }
    }
    return pages;
  } finally {
    await document.destroy();
  }
}
