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
import { checkPrintable } from '../orders/printability';
import type { StationSettings } from '../settings/station-settings';
import type { BundlePlanRecord, NewLabel, SkippedRecord } from './journal/journal-types';
import { emptyRunOptions } from './journal/print-journal';
import type { PrinterRecord, PrinterRegistry } from './printers';
import { BundleDocuments, classifyFetchFailure } from './runs/label-documents';
import type { PrintService } from './runs/print-service';

export interface BundlePrintDeps {
  service: PrintService;
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
  const printer = deps.printers.choose(environment, 'bundles', input.printerId);
  const reprint = input.reprint ? { operator: input.reprint.operator ?? deps.settings.operator(), reason: input.reprint.reason } : null;
  if (reprint && reprint.operator.trim() === '') {
    throw new StationError('INVALID_INPUT', 'Say who you are before you reprint labels: enter your name as the operator in Setup.');
  }
  const bundleIds: string[] = [];
  for (const raw of input.bundleIds) {
    const id = normalizeIdentifier(raw);
    if (id === null) throw new StationError('INVALID_INPUT', `"${raw}" is not a bundle id.`);
    if (!bundleIds.includes(id)) bundleIds.push(id);
  }
  // Getting the client first also readies the environment (the embedded sandbox indexes its day of orders).
  await deps.clientFor(environment);
  const printedBefore = deps.service.journal.bundlesPrinted(environment, bundleIds);
  const documents = new BundleDocuments(() => deps.clientFor(environment));

  const planned = await Promise.all(
    bundleIds.map((bundleId) => planBundle({ deps, environment, printer, bundleId, documents, reprint, printedBefore: printedBefore.has(bundleId) })),
  );
  let labels = planned.flatMap((bundle) => bundle.labels);
  const skipped = planned.flatMap((bundle) => bundle.skipped);
  const plans = planned.flatMap((bundle) => (bundle.plan ? [bundle.plan] : []));
  if (labels.length === 0) {
    throw new StationError(
      skipped.every((item) => item.code === 'ALREADY_PRINTED') && skipped.length > 0 ? 'ALREADY_PRINTED' : 'INVALID_INPUT',
      'Nothing to print: every label of these bundles was left out.',
      skipped.slice(0, 20).map((item) => item.message),
    );
  }
  if (input.reverse) labels = labels.reverse();
  const run = deps.service.launch({
    environment,
    kind: 'bundles',
    printer,
    operator: reprint?.operator ?? deps.settings.operator(),
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
  printedBefore: boolean;
}

async function planBundle(context: PlanContext): Promise<PlannedBundle> {
  const { deps, environment, printer, bundleId, reprint } = context;
  const reason = reprint ? `Reprint by ${reprint.operator}: ${reprint.reason}` : null;
  const known = printer.format === 'zpl' ? bundleOrder(deps.orders.ordersInBundle(environment, bundleId)) : [];

  if (known.length > 0) {
    const labels: NewLabel[] = [];
    const skipped: SkippedRecord[] = [];
    known.forEach((order, index) => {
      const name = order.orderRef ? `${order.orderRef} (order ${order.orderId})` : `order ${order.orderId}`;
      const printable = checkPrintable(order);
      if (!printable.allowed) {
        skipped.push({ orderId: order.orderId, bundleId, code: 'ORDER_TERMINAL', message: printable.message });
        return;
      }
      const previous = deps.service.journal.previousPrint(environment, order.orderId);
      if (previous && !reprint) {
        skipped.push({
          orderId: order.orderId,
          bundleId,
          code: 'ALREADY_PRINTED',
          message: `${capital(name)} was printed before (journal entry ${previous.id}); print the run with a reprint reason to print it again.`,
        });
        return;
      }
      labels.push({
        orderId: order.orderId,
        bundleId,
        bundlePosition: index + 1,
        bundleCount: known.length,
        format: 'zpl',
        reprintOf: previous ? previous.id : null,
        reason: previous ? reason : null,
      });
    });
    return {
      plan: {
        bundleId,
        route: 'zpl-per-order',
        labels: labels.length,
        note: `The station knows this bundle's ${known.length} order${known.length === 1 ? '' : 's'}: native ZPL per order.`,
      },
      labels,
      skipped,
    };
  }

  if (context.printedBefore && !reprint) {
    return {
      plan: null,
      labels: [],
      skipped: [
        {
          orderId: null,
          bundleId,
          code: 'ALREADY_PRINTED',
          message: `Bundle ${bundleId} was printed before; print the run with a reprint reason to print it again.`,
        },
      ],
    };
  }

  try {
    if (printer.format === 'pdf') {
      const pdfs = await context.documents.pdfs(bundleId);
      return {
        plan: { bundleId, route: 'pdf', labels: pdfs.length, note: `The bundle's PDF${pdfs.length === 1 ? '' : 's'} from the service, as the service merged them.` },
        labels: pdfs.map((_, index) => ({ orderId: null, bundleId, bundlePosition: index + 1, bundleCount: pdfs.length, format: 'pdf', reason: context.printedBefore ? reason : null })),
        skipped: [],
      };
    }
    const pages = await context.documents.pageCount(bundleId);
    return {
      plan: {
        bundleId,
        route: 'pdf-raster',
        labels: pages,
        note: `The station does not know this bundle's orders, so its PDF is printed as ${pages} image label${pages === 1 ? '' : 's'} (^GFA). Import the day's manifest to print native ZPL instead.`,
      },
      labels: Array.from({ length: pages }, (_, index) => ({
        orderId: null,
        bundleId,
        bundlePosition: index + 1,
        bundleCount: pages,
        format: 'gfa' as const,
        reason: context.printedBefore ? reason : null,
      })),
      skipped: [],
    };
  } catch (error) {
    // Not reaching the service stops the whole plan; a bundle the service refuses is left out and said so.
    if (classifyFetchFailure(error) === 'service') throw error;
    const code = error instanceof StationError ? error.code : 'INTERNAL';
    const message = error instanceof Error ? error.message : String(error);
    return { plan: null, labels: [], skipped: [{ orderId: null, bundleId, code, message: `Bundle ${bundleId}: ${message}` }] };
  }
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
