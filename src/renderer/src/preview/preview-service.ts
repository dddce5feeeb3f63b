import { looksLikePdf, maxLabelBytes, type LabelFormat } from './label-format';
import type { LabelSize, PreviewPage } from './preview-page';
import type { PdfRenderer } from './pdf-renderer';
import type { ZplRenderer } from './zpl-renderer-client';
import { errorText } from '../../../shared/error-text';

/** A page; ZPL pages carry the label size they were drawn at (taken from the label itself). */
export type PreviewResultPage = PreviewPage & { widthMm?: number; heightMm?: number };

export type PreviewResult =
  | { ok: true; format: LabelFormat; pages: PreviewResultPage[]; pageCount: number }
  | { ok: false; problem: 'unknown-format' | 'too-big' | 'failed' | 'refused' | 'damaged'; message?: string; details?: string[] };

export interface PreviewService {
  preview(bytes: Uint8Array, size: LabelSize): Promise<PreviewResult>;
  dispose(): void;
}

/** Pages shown at most: a preview is for checking a label, not reading a bundle of 300. */
export const maxPreviewPages = 12;

/**
 * Label previews for the whole screen. The renderers (a WASM ZPL engine, pdf.js) and their
 * workers are imported on the first preview of their kind and then kept for the next ones.
 */
export function createPreviewService(): PreviewService {
  let zpl: Promise<ZplRenderer> | null = null;
  let pdf: Promise<PdfRenderer> | null = null;

  // A failed import (a chunk that didn't load) is forgotten, so the next preview tries again.
  const zplRenderer = () =>
    (zpl ??= import('./zpl-renderer-client')
      .then(({ createZplRenderer }) =>
        createZplRenderer(() => new Worker(new URL('./zpl.worker.ts', import.meta.url), { type: 'module', name: 'zpl-preview' })),
      )
      .catch((error: unknown) => {
        zpl = null;
        throw error;
      }));
  const pdfRenderer = () =>
    (pdf ??= import('./pdf-renderer')
      .then(({ createPdfRenderer }) => createPdfRenderer())
      .catch((error: unknown) => {
        pdf = null;
        throw error;
      }));

  return {
    async preview(bytes, size) {
      if (bytes.length > maxLabelBytes) return { ok: false, problem: 'too-big' };
      try {
        if (looksLikePdf(bytes)) {
          const { pages, pageCount } = await (await pdfRenderer()).render(bytes, { maxPages: maxPreviewPages, dpi: size.dpmm * 25.4 });
          return { ok: true, format: 'pdf', pages, pageCount };
        }
        const { holdsZplFormat, previewZpl } = await import('./zpl-pages');
        if (!holdsZplFormat(bytes)) return { ok: false, problem: 'unknown-format' };
        const preview = await previewZpl(await zplRenderer(), bytes, size, maxPreviewPages);
        if (!preview.ok) return { ok: false, problem: preview.problem, message: preview.message, details: preview.details };
        return { ok: true, format: 'zpl', pages: preview.pages, pageCount: preview.pageCount };
      } catch (error) {
        return { ok: false, problem: 'failed', message: errorText(error) };
      }
    },
    dispose() {
      void zpl?.then((renderer) => renderer.dispose());
      void pdf?.then((renderer) => renderer.dispose());
      zpl = null;
      pdf = null;
    },
  };
}
