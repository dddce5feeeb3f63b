/**
 * The shift-start run over selected bundles. Each bundle is planned one of three ways and the
 * run says which: to a PDF printer, the bundle's PDFs from the service; to a Zebra, native ZPL
 * per order when the order index knows the bundle's orders, otherwise the bundle's PDF
 * rasterised page by page into ^GFA graphics. Labels keep a stable order within their bundle
 * ("2 of 5"); `reverse` turns the whole run around so the printed stack reads in order.
 */
import type { Environment } from '../../shared/contract/app';
import type { RunSummaryData } from '../../shared/contract/printing';
import { StationError } from '../../shared/errors';
import { normalizeIdentifier } from '../../shared/scan';
import type { DeliveryClient } from '../api';
import type { IndexedOrder, OrderIndex } from '../orders/order-index';
import { checkPrintable, terminalFacts } from '../orders/printability';
import type { StationSettings } from '../settings/station-settings';
import type { BundlePlanRecord, JournalRow, NewLabel, SkippedRecord } from './journal/journal-types';
import { pageNamesOrder } from './journal/label-identity';
import { emptyRunOptions } from './journal/journal-rows';
import { labelRoute } from './label-route';
import type { PrinterRecord, PrinterRegistry } from './printers';
import { BundleDocuments, classifyFetchFailure, type BundlePage } from './runs/label-documents';
import type { PrintHistory } from './journal/print-history';
import type { PrintService } from './runs/print-service';
import { errorText } from '../../shared/error-text';

export interface BundlePrintDeps {
  service: PrintService;
  /** What was printed: the duplicate guard of each order, page and PDF planned. */
  history: PrintHistory;
  printers: PrinterRegistry;
  orders: OrderIndex;
  settings: StationSettings;
  clientFor(environment: Environment): Promise<DeliveryClient>;
}

export interface BundlePrintInput {
  bundleIds: string[];
  printerId?: string;
  reverse?: boolean;
  reprint?: { reason: string; operator?: string };
  /** Who starts the run; the operator signed in at the bench by default (a lead's run sent from the floor names the lead). */
  operator?: string;
}

interface PlannedBundle {
  plan: BundlePlanRecord | null;
  labels: NewLabel[];
  skipped: SkippedRecord[];
}

const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

/** Orders of a bundle in a stable order: by order ref as people number parcels ("-1", "-2", … "-10"), then by id. */
export function bundleOrder(orders: readonly IndexedOrder[]): IndexedOrder[] {
  return [...orders].sort((a, b) => {
    if (a.orderRef !== null && b.orderRef !== null) {
      const byRef = naturalOrder.compare(a.orderRef, b.orderRef);
      if (byRef !== 0) return byRef;
    } else if (a.orderRef !== b.orderRef) {
      return a.orderRef === null ? 1 : -1;
    }
    return naturalOrder.compare(a.orderId, b.orderId);
  });
}

export async function planAndStartBundleRun(deps: BundlePrintDeps, input: BundlePrintInput): Promise<RunSummaryData> {
  const environment = deps.settings.environment();
  const printer = await deps.printers.choose(environment, 'bundles', input.printerId);
  const reprint = input.reprint ? { operator: input.reprint.operator ?? deps.settings.operator(), reason: input.reprint.reason } : null;
  if (reprint && reprint.operator.trim() === '') {
    throw new StationError('OPERATOR_REQUIRED', 'Say who you are before you reprint labels: enter your name as the operator in Setup.', undefined, {
      facts: { subject: 'reprint' },
    });
  }
  const bundleIds: string[] = [];
  for (const raw of input.bundleIds) {
    const id = normalizeIdentifier(raw);
    if (id === null) throw new StationError('INVALID_INPUT', `"${raw}" is not a bundle id.`);
    if (!bundleIds.includes(id)) bundleIds.push(id);
  }
  // Getting the client first also readies the environment (the embedded sandbox indexes its day of orders).
  await deps.clientFor(environment);
  const documents = new BundleDocuments(() => deps.clientFor(environment));

  const planned = await Promise.all(
    bundleIds.map((bundleId) => planBundle({ deps, environment, printer, bundleId, documents, reprint })),
  );
  let labels = planned.flatMap((bundle) => bundle.labels);
  const skipped = planned.flatMap((bundle) => bundle.skipped);
  const plans = planned.flatMap((bundle) => (bundle.plan ? [bundle.plan] : []));
  if (labels.length === 0) throw nothingToPrint(skipped);
  if (input.reverse) labels = labels.reverse();
  await deps.service.claimPrinter(printer);
  const run = await deps.service.launch({
    environment,
    kind: 'bundles',
    printer,
    operator: reprint?.operator ?? input.operator ?? deps.settings.operator(),
    options: { ...emptyRunOptions(), reverse: input.reverse === true, bundles: plans, skipped, reprint },
    labels,
    bundles: documents,
  });
  return deps.service.summary(run.runId);
}

interface PlanContext {
  deps: BundlePrintDeps;
  environment: Environment;
  printer: PrinterRecord;
  bundleId: string;
  documents: BundleDocuments;
  reprint: { operator: string; reason: string } | null;
}

async function planBundle(context: PlanContext): Promise<PlannedBundle> {
  const { deps, environment, printer, bundleId } = context;
  const known = printer.format === 'zpl' ? bundleOrder(await deps.orders.ordersInBundle(environment, bundleId)) : [];
  if (known.length > 0) return planPerOrder(context, known);
  try {
    const pages = await context.documents.pages(bundleId);
    return printer.format === 'pdf' ? planPdfDocuments(context, pages) : planRasterPages(context, pages);
  } catch (error) {
    // Not reaching the service stops the whole plan; a bundle the service refuses is left out and said so.
    if (classifyFetchFailure(error) === 'service') throw error;
    const code = error instanceof StationError ? error.code : 'INTERNAL';
    const message = errorText(error);
    if (code === 'ORDER_NOT_FOUND') {
      // The 404 was for the bundle's labels: the service knows no bundle by this id.
      const skipped = { orderId: null, bundleId, code: 'BUNDLE_NOT_FOUND', message: `The Delivery API knows no bundle ${bundleId}.`, facts: { bundleId } } as const;
      return { plan: null, labels: [], skipped: [skipped] };
    }
    return { plan: null, labels: [], skipped: [{ orderId: null, bundleId, code, message: `Bundle ${bundleId}: ${message}`, facts: { bundleId } }] };
  }
}

function reprintReason(context: PlanContext): string | null {
  return context.reprint ? `Reprint by ${context.reprint.operator}: ${context.reprint.reason}` : null;
}

function printedBefore(orderId: string | null, bundleId: string, what: string, previous: JournalRow, orderRef: string | null): SkippedRecord {
  return {
    orderId,
    bundleId,
    code: 'ALREADY_PRINTED',
    message: `${capital(what)} was printed before (journal entry ${previous.id}); print the run with a reprint reason to print it again.`,
    facts: { orderRef: orderRef ?? orderId, bundleId, printedAt: previous.printedAt ?? previous.sentAt ?? previous.updatedAt, entryId: previous.id },
  };
}

/**
 * Nothing left to print. One bundle (or several left out for one reason) says that reason with
 * its facts, so the screen can say "Bundle X is not known to the service"; a mix says how many.
 */
function nothingToPrint(skipped: readonly SkippedRecord[]): StationError {
  const details = skipped.slice(0, 20).map((item) => item.message);
  const [first] = skipped;
  const message = 'Nothing to print: every label of these bundles was left out.';
  if (first && skipped.every((item) => item.code === first.code)) {
    return new StationError(first.code, `${message} ${first.message}`, details, { facts: { ...first.facts, count: skipped.length } });
  }
  // A mix that includes bundles the service does not know names them: the lead must fix that slip,
  // while the rest may only need printing again with a reason.
  const unknown = [...new Set(skipped.filter((item) => item.code === 'BUNDLE_NOT_FOUND').map((item) => item.bundleId))];
  const unknownFacts: Record<string, string | number> = unknown.length > 0 ? { subject: 'unknown-bundles', bundles: unknown.slice(0, 10).join(', '), unknownCount: unknown.length } : {};
  return new StationError('NOTHING_TO_PRINT', message, details, { facts: { count: skipped.length, ...unknownFacts } });
}

/** The station knows the bundle's orders: native ZPL per order, each guarded by its order whatever route printed it. */
async function planPerOrder(context: PlanContext, known: IndexedOrder[]): Promise<PlannedBundle> {
  const { deps, environment, bundleId, reprint } = context;
  const { history } = deps;
  const reason = reprintReason(context);
  const route = labelRoute(context.printer);
  // Pages of this bundle printed as images whose text named none of its orders: any of them may be
  // any order's label, so the orders not yet accounted for are left out rather than printed twice.
  const untied = (await history.printedPagesOf(environment, bundleId)).filter((page) => !known.some((order) => pageNamesOrder(page.identifiers, order)));
  const labels: NewLabel[] = [];
  const skipped: SkippedRecord[] = [];
  for (const [index, order] of known.entries()) {
    const name = order.orderRef ? `${order.orderRef} (order ${order.orderId})` : `order ${order.orderId}`;
    const printable = checkPrintable(order);
    if (!printable.allowed) {
      skipped.push({ orderId: order.orderId, bundleId, code: 'ORDER_TERMINAL', message: printable.message, facts: { ...terminalFacts(order, printable.status), bundleId } });
      continue;
    }
    const previous = (await history.previousPrint(environment, order.orderId)) ?? untied[0]?.entry ?? null;
    if (previous && !reprint) {
      skipped.push(printedBefore(order.orderId, bundleId, previous.orderId === null ? `${name}, in bundle ${bundleId} printed as page images,` : name, previous, order.orderRef));
      continue;
    }
    labels.push({
      orderId: order.orderId,
      bundleId,
      bundlePosition: index + 1,
      bundleCount: known.length,
      format: route.kind === 'raster' ? 'gfa' : 'zpl',
      reprintOf: previous ? previous.id : null,
      reason: previous ? reason : null,
    });
  }
  const orders = `${known.length} order${known.length === 1 ? '' : 's'}`;
  return {
    plan:
      route.kind === 'raster'
        ? {
            bundleId,
            route: 'raster-per-order',
            labels: labels.length,
            note: `The station knows this bundle's ${orders}; the printer is ${route.geometry.dpi} dpi, so each order's PDF label is printed as an image at its resolution.`,
          }
        : { bundleId, route: 'zpl-per-order', labels: labels.length, note: `The station knows this bundle's ${orders}: native ZPL per order.` },
    labels,
    skipped,
  };
}

/**
 * The bundle's PDF page by page as ^GFA images. Each page keeps the identifiers its text shows;
 * a page is left out when the order it names was printed by any route, or when this very page
 * (bundle + page) was printed before.
 */
async function planRasterPages(context: PlanContext, pages: BundlePage[]): Promise<PlannedBundle> {
  const { deps, environment, bundleId, reprint } = context;
  const { history } = deps;
  const reason = reprintReason(context);
  const samePage = new Map<number, JournalRow>();
  for (const { entry } of await history.printedPagesOf(environment, bundleId)) {
    if (entry.format === 'gfa' && entry.bundlePosition !== null) samePage.set(entry.bundlePosition, entry);
  }
  const labels: NewLabel[] = [];
  const skipped: SkippedRecord[] = [];
  for (const [index, page] of pages.entries()) {
    const position = index + 1;
    const previous = (await history.previousPrintOfPage(environment, page.identifiers)) ?? samePage.get(position) ?? null;
    if (previous && !reprint) {
      const order = previous.orderId ? ` (order ${previous.orderId})` : '';
      skipped.push(printedBefore(previous.orderId, bundleId, `page ${position} of bundle ${bundleId}${order}`, previous, null));
      continue;
    }
    labels.push({
      orderId: null,
      bundleId,
      bundlePosition: position,
      bundleCount: pages.length,
      format: 'gfa',
      identifiers: page.identifiers,
      reprintOf: previous ? previous.id : null,
      reason: previous ? reason : null,
    });
  }
  return {
    plan: {
      bundleId,
      route: 'pdf-raster',
      labels: labels.length,
      note: `The station does not know this bundle's orders, so its PDF is printed as ${pages.length} image label${pages.length === 1 ? '' : 's'} (^GFA). Import the day's manifest to print native ZPL instead.`,
    },
    labels,
    skipped,
  };
}

/** The bundle's PDFs as the service merged them, to a PDF printer; a PDF is left out when an order it holds was printed before. */
async function planPdfDocuments(context: PlanContext, pages: BundlePage[]): Promise<PlannedBundle> {
  const { deps, environment, bundleId, reprint } = context;
  const { history } = deps;
  const reason = reprintReason(context);
  const documents: string[][] = [];
  for (const page of pages) documents[page.documentIndex] = [...(documents[page.documentIndex] ?? []), ...page.identifiers];
  const sameDocument = new Map<number, JournalRow>();
  for (const { entry } of await history.printedPagesOf(environment, bundleId)) {
    if (entry.format === 'pdf' && entry.bundlePosition !== null) sameDocument.set(entry.bundlePosition, entry);
  }
  const labels: NewLabel[] = [];
  const skipped: SkippedRecord[] = [];
  const count = documents.length;
  for (let index = 0; index < count; index++) {
    const identifiers = [...new Set(documents[index] ?? [])];
    const previous = (await history.previousPrintOfPage(environment, identifiers)) ?? sameDocument.get(index + 1) ?? null;
    if (previous && !reprint) {
      skipped.push(printedBefore(previous.orderId, bundleId, `PDF ${index + 1} of bundle ${bundleId}`, previous, null));
      continue;
    }
    labels.push({
      orderId: null,
      bundleId,
      bundlePosition: index + 1,
      bundleCount: count,
      format: 'pdf',
      identifiers,
      reprintOf: previous ? previous.id : null,
      reason: previous ? reason : null,
    });
  }
  return {
    plan: { bundleId, route: 'pdf', labels: labels.length, note: `The bundle's PDF${count === 1 ? '' : 's'} from the service, as the service merged them.` },
    labels,
    skipped,
  };
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
