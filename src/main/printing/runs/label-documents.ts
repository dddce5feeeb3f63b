/**
 * Where each label's bytes come from, by what its journal row says: the service's ZPL for the
 * order in the printer's pinned orientation; the order's PDF (a PDF printer, or rasterised for a
 * Zebra when the service has no ZPL for that carrier); a bundle's PDF document (a PDF printer); or
 * one page of a bundle's PDF rasterised into a ^GFA graphic at the printer's resolution.
 */
import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { StationError, type ErrorCode } from '../../../shared/errors';
import { removalNote, requireZplForPrinter } from '../../../shared/zebra/zpl-prepare';
import type { BundleLabel, DeliveryClient } from '../../api';
import type { JournalRow } from '../journal/journal-types';
import type { PrinterRecord } from '../printers';
import { a6At203Dpi, rasterizePdf, rasterPageToZpl, type LabelGeometry } from '../raster/pdf-raster';
import type { DocumentSource, FetchFailureKind, PreparedDocument } from './print-run';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Every document on its way to a printer passes here. ZPL (the service's, the station's own test
 * label, rasterised pages) goes through prepareZplForPrinter: refused when it is not ZPL or would
 * change the printer, ^JUS cut out with a note for the journal, formats counted by the scanner.
 */
export function prepared(bytes: Uint8Array, formats: number, format: PreparedDocument['format'], subject?: string): PreparedDocument {
  if (format === 'pdf') return { bytes, formats, format, sha256: sha256(bytes) };
  const zpl = requireZplForPrinter(bytes, subject);
  const note = removalNote(zpl.removed);
  return { bytes: zpl.bytes, formats: zpl.formats, format, sha256: sha256(zpl.bytes), ...(note ? { note } : {}) };
}

/** pdf.js takes a plain Uint8Array, not a Node Buffer (which the API client's documents are). */
function plainBytes(bytes: Uint8Array): Uint8Array {
  return Buffer.isBuffer(bytes) ? Uint8Array.from(bytes) : bytes;
}

const A6_WIDTH_MM = 105;
const A6_LENGTH_MM = 148;

/** The A6 label a rasterised page is fitted to, at the printer's resolution and no wider than it prints. */
export function rasterGeometry(printer: Pick<PrinterRecord, 'options'>): LabelGeometry {
  const dpi = printer.options.dpi ?? a6At203Dpi.dpi;
  if (dpi === a6At203Dpi.dpi && printer.options.printWidthDots === null) return a6At203Dpi;
  const a6Width = Math.round((A6_WIDTH_MM * dpi) / 25.4);
  const width = Math.min(a6Width, printer.options.printWidthDots ?? Math.round((a6At203Dpi.widthDots * dpi) / a6At203Dpi.dpi));
  return { widthDots: width, lengthDots: Math.round((A6_LENGTH_MM * dpi) / 25.4), dpi };
}

/** Failures that are about reaching the service, not about one label: the run waits and tries again. */
const serviceCodes = new Set<ErrorCode>(['NETWORK', 'TIMEOUT', 'SERVER_ERROR', 'RATE_LIMITED', 'KEY_MISSING', 'KEY_REJECTED', 'KEYCHAIN_UNAVAILABLE', 'NOT_CONFIGURED']);

export function classifyFetchFailure(error: unknown): FetchFailureKind {
  return error instanceof StationError && serviceCodes.has(error.code) ? 'service' : 'label';
}

/** The service has no ZPL for this order (its carrier supplies PDF labels only). */
function zplUnavailable(error: unknown): boolean {
  if (!(error instanceof StationError) || error.code !== 'VALIDATION') return false;
  const text = [error.message, ...(error.details ?? [])].join(' ');
  return /\bzpl\b/i.test(text) && /pdf/i.test(text);
}

/**
 * A bundle's PDF documents, fetched once per run and shared by its labels; rasterised pages are
 * kept until the run lets go of the bundle.
 */
export class BundleDocuments {
  private readonly documents = new Map<string, Promise<BundleLabel[]>>();
  private readonly rasters = new Map<string, Promise<string[]>>();

  constructor(private readonly client: () => Promise<DeliveryClient>) {}

  /** The bundle's PDFs as the service returns them (bundles larger than its chunk come in several). */
  pdfs(bundleId: string): Promise<BundleLabel[]> {
    let pending = this.documents.get(bundleId);
    if (!pending) {
      pending = this.client().then((client) => client.getBundleLabels(bundleId));
      // A failure is not kept: the next label of the bundle asks again.
      pending.catch(() => this.documents.delete(bundleId));
      this.documents.set(bundleId, pending);
    }
    return pending;
  }

  /** Pages across the bundle's PDFs: one label each. */
  async pageCount(bundleId: string): Promise<number> {
    let pages = 0;
    for (const document of await this.pdfs(bundleId)) {
      const pdf = await PDFDocument.load(document.bytes, { updateMetadata: false });
      pages += pdf.getPageCount();
    }
    return pages;
  }

  /** Page `page` (from 1) of the bundle as one ^GFA format. */
  async rasterPage(bundleId: string, page: number, geometry: LabelGeometry, encoding: 'compressed' | 'hex'): Promise<string> {
    const key = `${bundleId}\u0000${geometry.widthDots}x${geometry.lengthDots}@${geometry.dpi}\u0000${encoding}`;
    let pending = this.rasters.get(key);
    if (!pending) {
      pending = this.pdfs(bundleId).then(async (documents) => {
        const formats: string[] = [];
        for (const document of documents) {
          for await (const raster of rasterizePdf(plainBytes(document.bytes), geometry)) formats.push(rasterPageToZpl(raster, geometry, encoding));
        }
        return formats;
      });
      pending.catch(() => this.rasters.delete(key));
      this.rasters.set(key, pending);
    }
    const formats = await pending;
    const format = formats[page - 1];
    if (format === undefined) {
      throw new StationError('MALFORMED_RESPONSE', `Bundle ${bundleId} has ${formats.length} label pages now, not ${page}; plan the run again.`);
    }
    return format;
  }

  /** Lets go of everything kept for a bundle. */
  release(bundleId: string): void {
    this.documents.delete(bundleId);
    for (const key of [...this.rasters.keys()]) if (key.startsWith(`${bundleId}\u0000`)) this.rasters.delete(key);
  }

  clear(): void {
    this.documents.clear();
    this.rasters.clear();
  }
}

export interface LabelDocumentsDeps {
  client: () => Promise<DeliveryClient>;
  printer: PrinterRecord;
  bundles: BundleDocuments;
}

export function createLabelDocuments(deps: LabelDocumentsDeps): DocumentSource {
  const { printer, bundles } = deps;
  const geometry = rasterGeometry(printer);
  const encoding = printer.options.gfaEncoding;
  const encoder = new TextEncoder();

  const orderPdfAsGfa = async (orderId: string): Promise<PreparedDocument> => {
    const label = await (await deps.client()).getLabel(orderId, { format: 'pdf', orientation: printer.orientation });
    const formats: string[] = [];
    for await (const raster of rasterizePdf(plainBytes(label.bytes), geometry)) formats.push(rasterPageToZpl(raster, geometry, encoding));
    return prepared(encoder.encode(formats.join('')), formats.length, 'gfa');
  };

  return async (entry: JournalRow): Promise<PreparedDocument> => {
    if (entry.orderId !== null) {
      const orderId = entry.orderId;
      if (entry.format === 'pdf') {
        const label = await (await deps.client()).getLabel(orderId, { format: 'pdf', orientation: printer.orientation });
        return prepared(label.bytes, 1, 'pdf');
      }
      if (entry.format === 'gfa') return orderPdfAsGfa(orderId);
      try {
        const label = await (await deps.client()).getLabel(orderId, { format: 'zpl', orientation: printer.orientation });
        if (label.format !== 'zpl') throw new StationError('MALFORMED_RESPONSE', `The label of order ${orderId} came back as ${label.format}, not ZPL.`);
        return prepared(label.bytes, label.formatCount, 'zpl', `The label of order ${orderId}`);
      } catch (error) {
        // Labels some carriers supply exist as PDF only: print those as images.
        if (zplUnavailable(error)) return orderPdfAsGfa(orderId);
        throw error;
      }
    }
    if (entry.bundleId !== null && entry.bundlePosition !== null) {
      if (entry.format === 'pdf') {
        const documents = await bundles.pdfs(entry.bundleId);
        const document = documents[entry.bundlePosition - 1];
        if (!document) {
          throw new StationError('MALFORMED_RESPONSE', `Bundle ${entry.bundleId} has ${documents.length} label documents now, not ${entry.bundlePosition}.`);
        }
        return prepared(document.bytes, 1, 'pdf');
      }
      const zpl = await bundles.rasterPage(entry.bundleId, entry.bundlePosition, geometry, encoding);
      return prepared(encoder.encode(zpl), 1, 'gfa');
    }
    throw new StationError('INTERNAL', `Journal entry ${entry.id} names neither an order nor a bundle page, so there is nothing to fetch.`);
  };
}
