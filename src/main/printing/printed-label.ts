/**
 * How a label is printed, read from what its journal row says: which of the service's documents
 * its bytes are made from. The print run fetches that document to send it (runs/label-documents.ts)
 * and the screen's preview fetches the same one to show it (label-preview.ts), so a label is shown
 * as it was printed.
 */
import { StationError } from '../../shared/errors';
import type { JournalRow } from './journal/journal-types';

export type PrintedFrom =
  /** The order's ZPL from the service, in the printer's orientation (or its PDF as an image where the carrier has no ZPL). */
  | { kind: 'order-zpl'; orderId: string }
  /** The order's PDF: sent as it is to a PDF printer, or as an image of it (`asImage`) to a Zebra. */
  | { kind: 'order-pdf'; orderId: string; asImage: boolean }
  /** One of the bundle's PDF documents (from 1), sent as it is to a PDF printer. */
  | { kind: 'bundle-document'; bundleId: string; position: number }
  /** One page (from 1) across the bundle's PDF documents, as an image: a label of an order the station does not know. */
  | { kind: 'bundle-page'; bundleId: string; page: number }
  /** Neither an order nor a bundle page: the station's own test label, not kept. */
  | { kind: 'none' };

export function printedFrom(entry: Pick<JournalRow, 'orderId' | 'bundleId' | 'bundlePosition' | 'format'>): PrintedFrom {
  if (entry.orderId !== null) {
    return entry.format === 'zpl' ? { kind: 'order-zpl', orderId: entry.orderId } : { kind: 'order-pdf', orderId: entry.orderId, asImage: entry.format === 'gfa' };
  }
  if (entry.bundleId !== null && entry.bundlePosition !== null) {
    return entry.format === 'pdf' ? { kind: 'bundle-document', bundleId: entry.bundleId, position: entry.bundlePosition } : { kind: 'bundle-page', bundleId: entry.bundleId, page: entry.bundlePosition };
  }
  return { kind: 'none' };
}

/** The service has no ZPL for this order (its carrier supplies PDF labels only): it prints as an image of its PDF. */
export function zplUnavailable(error: unknown): boolean {
  if (!(error instanceof StationError) || error.code !== 'VALIDATION') return false;
  const text = [error.message, ...(error.details ?? [])].join(' ');
  return /\bzpl\b/i.test(text) && /pdf/i.test(text);
}

/** The service refused the order's PDF label (it has the label only as ZPL). */
export function pdfUnavailable(error: unknown): boolean {
  return error instanceof StationError && error.code === 'VALIDATION' && /\bpdf\b/i.test([error.message, ...(error.details ?? [])].join(' '));
}
