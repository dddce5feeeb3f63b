/**
 * The label document of a journal entry, for the screen's preview: fetched again from the Delivery
 * API the way the label was printed (the order's ZPL in the printer's pinned orientation, its PDF
 * when it went out as a PDF or as an image, or the bundle's PDF page), and kept in a small cache of
 * recent previews so flipping between labels does not fetch them again.
 */
import type { Orientation } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import type { LabelDocumentData } from '../../shared/contract/printing';
import { StationError } from '../../shared/errors';
import type { DeliveryClient } from '../api';
import type { PrintJournal } from './journal/print-journal';
import type { JournalRow } from './journal/journal-types';
import type { PrinterRegistry } from './printers';
import { printedFrom, zplUnavailable } from './printed-label';

/** The A6 label every route prints on; the service's ZPL is laid out at 8 dots per mm (203 dpi). */
const a6 = { widthMm: 105, heightMm: 148, dpmm: 8 } as const;
const pointsPerMm = 72 / 25.4;

export interface LabelPreviewDeps {
  journal: Pick<PrintJournal, 'labels'>;
  printers: PrinterRegistry;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  /** Previews kept (default 32). */
  cacheSize?: number;
}

export interface LabelPreview {
  document(environment: Environment, entryId: number): Promise<LabelDocumentData>;
}

export function createLabelPreview(deps: LabelPreviewDeps): LabelPreview {
  const cacheSize = deps.cacheSize ?? 32;
  const recent = new Map<string, LabelDocumentData>();

  const remember = (key: string, document: LabelDocumentData): LabelDocumentData => {
    recent.delete(key);
    recent.set(key, document);
    while (recent.size > cacheSize) {
      const oldest = recent.keys().next();
      if (oldest.done) break;
      recent.delete(oldest.value);
    }
    return document;
  };

  const fetchDocument = async (entry: JournalRow): Promise<LabelDocumentData> => {
    const client = await deps.clientFor(entry.environment);
    const orientation: Orientation = (await deps.printers.get(entry.environment, entry.printerId))?.orientation ?? 'landscape';
    const from = printedFrom(entry);
    switch (from.kind) {
      case 'order-zpl':
      case 'order-pdf': {
        if (from.kind === 'order-zpl') {
          try {
            const label = await client.getLabel(from.orderId, { format: 'zpl', orientation });
            if (label.format === 'zpl') return { format: 'zpl', base64: label.base64, ...a6 };
          } catch (error) {
            // Carriers without ZPL: the label printed as an image of its PDF, so the PDF shows it.
            if (!zplUnavailable(error)) throw error;
          }
        }
        const label = await client.getLabel(from.orderId, { format: 'pdf', orientation });
        return pdfDocument(label.bytes);
      }
      case 'bundle-document': {
        const documents = await client.getBundleLabels(from.bundleId);
        const document = documents[from.position - 1];
        if (!document) throw bundleChanged(entry, `${documents.length} label documents`);
        return pdfDocument(document.bytes);
      }
      case 'bundle-page': {
        // One label per page across the bundle's PDFs.
        const documents = await client.getBundleLabels(from.bundleId);
        let position = from.page;
        const { PDFDocument } = await import('pdf-lib');
        for (const document of documents) {
          const pdf = await PDFDocument.load(document.bytes, { updateMetadata: false });
          if (position <= pdf.getPageCount()) {
            const single = await PDFDocument.create();
            const [page] = await single.copyPages(pdf, [position - 1]);
            if (page) single.addPage(page);
            return pdfDocument(await single.save());
          }
          position -= pdf.getPageCount();
        }
        throw bundleChanged(entry, 'fewer label pages');
      }
      case 'none':
        throw new StationError('INVALID_INPUT', `Journal entry ${entry.id} is a test print; its label is not kept. Print a new test label to see one.`);
    }
  };

  return {
    async document(environment, entryId) {
      const key = `${environment}:${entryId}`;
      const cached = recent.get(key);
      if (cached) return remember(key, cached);
      const entry = await deps.journal.labels.entry(entryId);
      if (!entry || entry.environment !== environment) {
        throw new StationError('NOT_FOUND', `There is no label ${entryId} in the ${environment} environment's print history.`, undefined, { facts: { subject: 'label', id: entryId } });
      }
      return remember(key, await fetchDocument(entry));
    },
  };
}

async function pdfDocument(bytes: Uint8Array): Promise<LabelDocumentData> {
  const base64 = Buffer.from(bytes).toString('base64');
  try {
    const { PDFDocument } = await import('pdf-lib');
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    const first = pdf.getPage(0);
    const { width, height } = first.getSize();
    return { format: 'pdf', base64, widthMm: round(width / pointsPerMm), heightMm: round(height / pointsPerMm), dpmm: a6.dpmm };
  } catch {
    // The API client checked the document is a PDF; a page size pdf-lib cannot read falls back to A6.
    return { format: 'pdf', base64, ...a6 };
  }
}

function round(mm: number): number {
  return Math.round(mm * 10) / 10;
}

function bundleChanged(entry: JournalRow, now: string): StationError {
  return new StationError('MALFORMED_RESPONSE', `Bundle ${entry.bundleId ?? ''} has ${now} now, not ${entry.bundlePosition ?? 0}; its label cannot be shown.`);
}
