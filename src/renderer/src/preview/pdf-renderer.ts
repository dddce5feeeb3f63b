/**
 * PDF labels through pdf.js, its parser in its own worker. Loaded only when a PDF is first shown
 * (pdf.js is about 400 KB, its worker 1.2 MB).
 */
import { getDocument, PDFWorker } from 'pdfjs-dist';
import pdfWorkerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type { PreviewPage } from './preview-page';

export interface PdfRenderer {
  render(bytes: Uint8Array, options: { maxPages: number; dpi: number }): Promise<{ pages: PreviewPage[]; pageCount: number }>;
  dispose(): void;
}

export function createPdfRenderer(): PdfRenderer {
  let worker: PDFWorker | null = null;

  const render: PdfRenderer['render'] = async (bytes, { maxPages, dpi }) => {
    worker ??= PDFWorker.create({ port: new Worker(pdfWorkerUrl, { type: 'module', name: 'pdf-preview' }) });
    // pdf.js takes ownership of the buffer it is given: pass a copy.
    const document = await getDocument({ data: bytes.slice(), worker, isEvalSupported: false, useSystemFonts: true }).promise;
    try {
      const pages: PreviewPage[] = [];
      const count = Math.min(document.numPages, maxPages);
      for (let number = 1; number <= count; number += 1) {
        const page = await document.getPage(number);
        // PDF units are points (1/72 inch).
        const viewport = page.getViewport({ scale: dpi / 72 });
        const canvas = window.document.createElement('canvas');
        canvas.width = Math.ceil(viewport.width);
        canvas.height = Math.ceil(viewport.height);
        await page.render({ canvas, viewport, background: '#ffffff' }).promise;
        pages.push({ src: canvas.toDataURL('image/png'), width: canvas.width, height: canvas.height });
        page.cleanup();
      }
      return { pages, pageCount: document.numPages };
    } finally {
      await document.destroy();
    }
  };

  return {
    render,
    dispose() {
      worker?.destroy();
      worker = null;
    },
  };
}
