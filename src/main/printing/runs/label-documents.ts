/**
 * Where each label's bytes come from, by what its journal row says: the service's ZPL for the
 * order in the printer's pinned orientation; the order's PDF (a PDF printer, or rasterised for a
 * Zebra when the service has no ZPL for that carrier); a bundle's PDF document (a PDF printer); or
 * one page of a bundle's PDF rasterised into a ^GFA graphic at the printer's resolution.
 */
import { createHash } from 'node:crypto';
import { StationError, type ErrorCode } from '../../../shared/errors';
import { removalNote, requireZplForPrinter } from '../../../shared/zebra/zpl-prepare';
import type { ZplScanned } from '../../../shared/zebra/zpl-scanner';
import type { BundleLabel, DeliveryClient } from '../../api';
import { identifiersFromText } from '../journal/label-identity';
import type { Logger } from '../../logging/logger';
import { a6Geometry, labelRoute } from '../label-route';
import { pdfUnavailable, printedFrom, zplUnavailable } from '../printed-label';
import type { PrinterRecord, PrinterRegistry } from '../printers';
import { currentPrinter, type IdentityWatchDeps } from '../status/identity-watch';
import type { PrinterTransport } from '../transports/transport';
import { a6At203Dpi, rasterizePdf, rasterPageToZpl, type LabelGeometry } from '../raster/pdf-raster';
import { pdfPageTexts } from '../raster/pdf-text';
import type { DocumentSource, FetchFailureKind, LabelToFetch, PreparedDocument } from './print-run';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Every document on its way to a printer passes here. ZPL (the service's, the station's own test
 * label, rasterised pages) goes through prepareZplForPrinter: refused when it is not ZPL or would
 * change the printer, ^JUS cut out with a note for the journal, formats counted by the scanner.
 */
export function prepared(bytes: Uint8Array, formats: number, format: PreparedDocument['format'], subject?: string, scan?: ZplScanned): PreparedDocument {
  if (format === 'pdf') return { bytes, formats, format, sha256: sha256(bytes) };
  const zpl = requireZplForPrinter(bytes, subject, scan);
  const note = removalNote(zpl.removed);
  return { bytes: zpl.bytes, formats: zpl.formats, format, sha256: sha256(zpl.bytes), ...(note ? { note } : {}) };
}

/** pdf.js takes a plain Uint8Array, not a Node Buffer (which the API client's documents are). */
function plainBytes(bytes: Uint8Array): Uint8Array {
  return Buffer.isBuffer(bytes) ? Uint8Array.from(bytes) : bytes;
}

/** The A6 label a rasterised page is fitted to, at the printer's resolution and no wider than it prints. */
export function rasterGeometry(printer: Pick<PrinterRecord, 'options'>): LabelGeometry {
  const dpi = printer.options.dpi ?? a6At203Dpi.dpi;
  // At 203 dpi a page is fitted to the 832 dots every 4-inch Zebra prints.
  if (dpi === a6At203Dpi.dpi) return printer.options.printWidthDots === null ? a6At203Dpi : { ...a6At203Dpi, widthDots: Math.min(a6At203Dpi.widthDots, printer.options.printWidthDots) };
  return a6Geometry(dpi, printer.options.printWidthDots);
}

/** Failures that are about reaching the service, not about one label: the run waits and tries again. */
const serviceCodes = new Set<ErrorCode>(['NETWORK', 'TIMEOUT', 'SERVER_ERROR', 'RATE_LIMITED', 'KEY_MISSING', 'KEY_REJECTED', 'KEYCHAIN_UNAVAILABLE', 'NOT_CONFIGURED']);

export function classifyFetchFailure(error: unknown): FetchFailureKind {
  return error instanceof StationError && serviceCodes.has(error.code) ? 'service' : 'label';
}

/**
 * A printer of another resolution than 203 dpi prints an order's PDF label drawn at its own
 * resolution; when the service has the label only as 203 dpi ZPL, that is what the bench is told
 * (not that the service rejected a request).
 */
function needsPdf(printer: PrinterRecord, orderId: string, dpi: number, cause: StationError): StationError {
  return new StationError(
    'LABEL_NEEDS_PDF',
    `${printer.name} prints at ${dpi} dpi, so it needs the label of order ${orderId} as a PDF, drawn at its resolution; the service offers this order's label only as 203 dpi ZPL. Nothing was sent. Print it on a 203 dpi printer, or have the carrier or the service supply a PDF label for this order.`,
    cause.details,
    { cause, facts: { orderId, printerName: printer.name, dpi } },
  );
}

export interface BundlePage {
  /** Which of the bundle's PDFs (from 0) the page is in. */
  documentIndex: number;
  identifiers: string[];
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

  /**
   * Pages across the bundle's PDFs (one label each), in order, with the PDF each is in and the
   * identifiers its text shows (parcel barcode, order ref, order id): what ties a page to its order.
   */
  async pages(bundleId: string): Promise<BundlePage[]> {
    const pages: BundlePage[] = [];
    for (const [documentIndex, document] of (await this.pdfs(bundleId)).entries()) {
      for (const text of await pdfPageTexts(plainBytes(document.bytes))) pages.push({ documentIndex, identifiers: identifiersFromText(text) });
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
  /** Documents the caller already has (the label a scan's lookup fetched, a test label); used when they suit the printer's route. */
  given?: DocumentSource;
  /** With both, the printer is identified again on each new connection and the route follows what it is now. */
  printers?: PrinterRegistry;
  transport?: PrinterTransport;
  logger?: Logger;
  /** `printer` was read from the registry for this very call (a scan's first label): the first look at the printer does not read it again. */
  printerJustRead?: boolean;
  /** Each look at the printer for a label (status/identity-watch.ts). */
  looked?: IdentityWatchDeps['looked'];
}

/**
 * Each label's bytes by the printer's route (label-route.ts): a 203 dpi printer gets the service's
 * ZPL; a printer of another resolution gets the order's PDF rasterised at its resolution; a head
 * too narrow is refused; a PDF printer gets PDFs. Bundle pages of unknown orders are rasterised
 * at the printer's resolution either way.
 */
export function createLabelDocuments(deps: LabelDocumentsDeps): DocumentSource {
  const { bundles } = deps;
  const encoder = new TextEncoder();

  // Labels are prepared several at a time; one look at the printer serves all of them.
  let looking: Promise<PrinterRecord> | null = null;
  let justRead = deps.printerJustRead === true;
  /** The printer as last seen: the route a label's request is started on while the printer is looked at. */
  let lastSeen = deps.printer;
  const printerNow = (): Promise<PrinterRecord> => {
    const { printers, transport } = deps;
    if (!printers || !transport) return Promise.resolve(deps.printer);
    looking ??= currentPrinter({ printers, transport, ...(deps.logger ? { logger: deps.logger } : {}), ...(deps.looked ? { looked: deps.looked } : {}) }, deps.printer, { justRead })
      .then((printer) => (lastSeen = printer))
      .finally(() => {
        looking = null;
      });
    justRead = false;
    return looking;
  };

  const orderZpl = async (printer: PrinterRecord, orderId: string): Promise<PreparedDocument> => {
    const client = await deps.client();
    const label = await client.getLabel(orderId, { format: 'zpl', orientation: printer.orientation });
    if (label.format !== 'zpl') throw new StationError('MALFORMED_RESPONSE', `The label of order ${orderId} came back as ${label.format}, not ZPL.`);
    return prepared(label.bytes, label.formatCount, 'zpl', `The label of order ${orderId}`, label.scan);
  };

  /**
   * An order's ZPL asked for on the route the printer was last seen on, before the look at the
   * printer ends: on a new connection that look reads the printer's identity (a connect and two
   * questions), which then costs nothing while the service answers. The label is used only once
   * the look says the printer takes it the same way; otherwise it is dropped and fetched for the
   * printer that answers now. Nothing of it reaches a printer before then.
   */
  const zplAhead = (entry: LabelToFetch): { printer: PrinterRecord; document: Promise<PreparedDocument> } | null => {
    if (deps.given || entry.orderId === null || entry.format !== 'zpl' || labelRoute(lastSeen).kind !== 'native-zpl') return null;
    const document = orderZpl(lastSeen, entry.orderId);
    // Its failure is read below, or not at all when the printer turned out to need another document.
    document.catch(() => undefined);
    return { printer: lastSeen, document };
  };

  const orderPdfAsGfa = async (printer: PrinterRecord, orderId: string): Promise<PreparedDocument> => {
    const geometry = rasterGeometry(printer);
    const client = await deps.client();
    const label = await client.getLabel(orderId, { format: 'pdf', orientation: printer.orientation }).catch((error: unknown) => {
      throw error instanceof StationError && pdfUnavailable(error) ? needsPdf(printer, orderId, geometry.dpi, error) : error;
    });
    const formats: string[] = [];
    for await (const raster of rasterizePdf(plainBytes(label.bytes), geometry)) formats.push(rasterPageToZpl(raster, geometry, printer.options.gfaEncoding));
    return prepared(encoder.encode(formats.join('')), formats.length, 'gfa');
  };

  return async (entry: LabelToFetch): Promise<PreparedDocument> => {
    const ahead = zplAhead(entry);
    const printer = await printerNow();
    const route = labelRoute(printer);
    const from = printedFrom(entry);
    if (route.kind === 'refused' && from.kind !== 'none') throw route.error;
    // A document the caller fetched is the order's native ZPL or its PDF: right unless the printer needs an image.
    if (deps.given && !(route.kind === 'raster' && (from.kind === 'order-zpl' || from.kind === 'order-pdf'))) return deps.given(entry);
    switch (from.kind) {
      case 'order-pdf': {
        if (from.asImage) return orderPdfAsGfa(printer, from.orderId);
        const label = await (await deps.client()).getLabel(from.orderId, { format: 'pdf', orientation: printer.orientation });
        return prepared(label.bytes, 1, 'pdf');
      }
      case 'order-zpl': {
        if (route.kind === 'raster') return orderPdfAsGfa(printer, from.orderId);
        const asked = ahead && route.kind === 'native-zpl' && ahead.printer.orientation === printer.orientation ? ahead.document : orderZpl(printer, from.orderId);
        try {
          return await asked;
        } catch (error) {
          // Labels some carriers supply exist as PDF only: print those as images.
          if (zplUnavailable(error)) return orderPdfAsGfa(printer, from.orderId);
          throw error;
        }
      }
      case 'bundle-document': {
        const documents = await bundles.pdfs(from.bundleId);
        const document = documents[from.position - 1];
        if (!document) throw new StationError('MALFORMED_RESPONSE', `Bundle ${from.bundleId} has ${documents.length} label documents now, not ${from.position}.`);
        return prepared(document.bytes, 1, 'pdf');
      }
      case 'bundle-page': {
        const zpl = await bundles.rasterPage(from.bundleId, from.page, rasterGeometry(printer), printer.options.gfaEncoding);
        return prepared(encoder.encode(zpl), 1, 'gfa');
      }
      case 'none':
        throw new StationError('INTERNAL', `Journal entry ${entry.id ?? '(new)'} names neither an order nor a bundle page, so there is nothing to fetch.`);
    }
  };
}
