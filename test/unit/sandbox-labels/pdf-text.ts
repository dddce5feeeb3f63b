import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** The text of each page of a PDF, as a reader's text selection would give it (pdf.js). */
export async function pdfPageTexts(pdf: Uint8Array): Promise<string[]> {
  const doc = await getDocument({
    data: new Uint8Array(pdf),
    standardFontDataUrl: join(pdfjsRoot, 'standard_fonts') + '/',
    isEvalSupported: false,
  }).promise;
  try {
    const texts: string[] = [];
    for (let number = 1; number <= doc.numPages; number += 1) {
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join('\n'));
    }
    return texts;
  } finally {
    await doc.destroy();
  }
}
