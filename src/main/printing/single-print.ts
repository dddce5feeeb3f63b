/**
 * Scan → order → label → printer, the packer's hot path. Kept lean: the order index is one query
 * to the store engine (the bench's SQLite file, or the warehouse's shared store), the label is one GET (or none, when the scan was resolved by fetching it), the
 * printer's connection stays open between scans, and the journal writes are small synchronous
 * statements. The call resolves once the printer confirms it has read the whole label ("printed";
 * the proof that it came out follows as an event), or at once with "waiting" when a printer fault
 * holds the label.
 */
import type { Environment } from '../../shared/contract/app';
import type { PrintOutcomeData } from '../../shared/contract/printing';
import { StationError } from '../../shared/errors';
import { faultSentence } from '../../shared/zebra/faults';
import type { LabelRequest, OrderLabel } from '../api';
import type { OrderIndex } from '../orders/order-index';
import type { OrderLookup } from '../orders/order-lookup';
import { assertPrintable } from '../orders/printability';
import type { StationSettings } from '../settings/station-settings';
import { emptyRunOptions, FirstPrintTaken } from './journal/print-journal';
import type { JournalRow, NewLabel } from './journal/journal-types';
import type { PrinterRegistry } from './printers';
import { prepared } from './runs/label-documents';
import type { DocumentSource, PreparedDocument } from './runs/print-run';
import type { PrintService } from './runs/print-service';

export interface SinglePrintDeps {
  service: PrintService;
  printers: PrinterRegistry;
  lookup: OrderLookup;
  orders: OrderIndex;
  settings: StationSettings;
  /** Monotonic milliseconds, for the time the print took. */
  now?: () => number;
  /** NOT_CONFIGURED when the environment lacks its address or key; null when it is set up. */
  readiness?: (environment: Environment) => Promise<StationError | null>;
}

export interface SinglePrintInput {
  scan: string;
  printerId?: string;
  /** Print an order printed before: who and why go into the journal. */
  reprint?: { reason: string; operator?: string };
  /** A lead's override of the refusal for a delivered, returned, lost or cancelled order. */
  override?: { reason: string; operator?: string };
  /** The environment the call already read (its session's); read from the settings when absent. */
  environment?: Environment;
}

/**
 * Whether a scan at the bench is something other than a label to print (the slip of an order to
 * ship): its answer when it is, null when the scan prints. Asked once per scan, while the label's
 * request is out for a scan the order index knows (never in series before it), and before the
 * Delivery API is asked about a scan it does not know.
 */
export type SlipCheck<T> = () => Promise<T | null>;

export async function printScan<T = never>(deps: SinglePrintDeps, input: SinglePrintInput, slip?: SlipCheck<T>): Promise<PrintOutcomeData | T> {
  const now = deps.now ?? (() => performance.now());
  const startedAt = now();
  const environment = input.environment ?? deps.settings.environment();
  const printer = await choosePrinter(deps, environment, input.printerId);
  const labelRequest: LabelRequest = printer.format === 'pdf' ? { format: 'pdf', orientation: printer.orientation } : { format: 'zpl', orientation: printer.orientation };
  let found = slip ? await findLocally(deps, environment, input.scan) : null;
  if (slip && !found) {
    const answer = await slip();
    if (answer) return answer;
    slip = undefined;
  }
  found ??= await deps.lookup.lookup(environment, input.scan, { labelRequest });
  const order = found.order;
  const settingsOperator = deps.settings.operator();

  const override = input.override ? { operator: input.override.operator ?? settingsOperator, reason: input.override.reason } : undefined;
  if (override && override.operator.trim() === '') throw nameNeeded('override');
  try {
    assertPrintable(order, override);
  } catch (error) {
    // A slip to ship is answered as one whatever an order of the same name has become.
    const answer = slip ? await slip() : null;
    if (answer) return answer;
    throw error;
  }

  const orderData = { orderId: order.orderId, orderRef: order.orderRef, barcode: order.barcode, recipient: order.recipient, bundleId: order.bundleId };
  // A scan the index knows: its label is asked for first, and what the scan is for (a slip to
  // ship, a label printed before) is settled while the service answers; a label not needed after
  // all is left unused. (A scan that needed the Delivery API was asked about first, above.)
  let firstDocument: Promise<PreparedDocument> | undefined;
  if (slip) {
    firstDocument = deps.service.fetchFirstLabel(environment, printer, scanLabel(order, printer));
    await requestOnTheWire();
    const answer = await slip();
    if (answer) return answer;
  }
  const previous = await deps.service.journal.previousPrint(environment, order.orderId);
  let reprint: { operator: string; reason: string } | null = null;
  if (previous && !input.reprint) {
    return { outcome: 'duplicate', scan: input.scan, order: orderData, previous: await previousPrint(deps, previous) };
  }
  if (!previous && order.status === 'expected' && !input.reprint && (await deps.service.journal.journal(environment, { orderId: order.orderId, limit: 1 })).length === 0) {
    // The service says the label was printed, yet this station never handled it: another station
    // (or the web portal) has it. A second label would put two parcels with one barcode on the
    // road, so ask first. A label this station fetched and never sent (a print cut short by a
    // restart) also reads "expected" at the service: that one is ours, and prints.
    return { outcome: 'elsewhere', scan: input.scan, order: orderData, status: 'expected' };
  }
  if (input.reprint) {
    reprint = { operator: input.reprint.operator ?? settingsOperator, reason: input.reprint.reason };
    if (reprint.operator.trim() === '') throw nameNeeded('reprint');
  }
  const operator = reprint?.operator ?? override?.operator ?? settingsOperator;
  const why = [
    reprint ? `Reprint by ${reprint.operator}: ${reprint.reason}` : null,
    override ? `Printed for a ${order.status ?? ''} order on the word of ${override.operator}: ${override.reason}` : null,
  ].filter((part): part is string => part !== null);

  const label: NewLabel = { ...scanLabel(order, printer), reprintOf: reprint ? (previous?.id ?? null) : null, reason: why.length > 0 ? why.join(' ') : null };
  // The label's GET goes out first and the run is written while the service answers.
  await deps.service.claimPrinter(printer);
  if (!found.label && !firstDocument) {
    firstDocument = deps.service.fetchFirstLabel(environment, printer, label);
    await requestOnTheWire();
  }
  const launch = (labels: NewLabel[]) =>
    deps.service.launch({
      environment,
      kind: 'single',
      printer,
      operator,
      options: { ...emptyRunOptions(), scan: input.scan, reprint: reprint ?? override ?? null },
      labels,
      ...(found.label ? { documents: reuse(found.label) } : {}),
      ...(firstDocument ? { firstDocument } : {}),
    });
  let run: Awaited<ReturnType<typeof launch>>;
  try {
    run = await launch([label]);
  } catch (error) {
    // Another bench's first print of this order got there first (the database's unique index
    // decides, not timing): the same question as a print found before, naming that bench.
    if (!(error instanceof FirstPrintTaken)) throw error;
    if (!reprint) return { outcome: 'duplicate', scan: input.scan, order: orderData, previous: await previousPrint(deps, error.holder) };
    // A reprint asked for before that print was visible here: it is a reprint of that one.
    run = await launch([{ ...label, reprintOf: error.holder.id }]);
  }
  const outcome = await run.whenFirstLabelSettles();
  if (outcome.kind === 'error') throw unknownToService(outcome.error, order);
  const common = {
    scan: input.scan,
    order: orderData,
    // The order as the lookup read it: a second read of the index would wait, after the printer's
    // answer, behind whatever else the answer woke (0.15 ms measured in bench/print-latency.ts).
    entry: deps.service.entryDataOf(outcome.entry, order),
    printer: { id: printer.id, name: printer.name },
    reprint: reprint !== null,
    elapsedMs: Math.round((now() - startedAt) * 10) / 10,
  };
  if (outcome.kind === 'waiting') {
    return {
      outcome: 'waiting',
      ...common,
      runId: run.runId,
      fault: outcome.fault,
      sentence: faultSentence(outcome.fault),
      inPrinter: outcome.entry.state === 'sent',
    };
  }
  // The printer has the whole label; the proof that it printed follows as a printing.label event.
  return { outcome: 'printed', ...common, proofFollows: deps.service.queueFor(printer).tracksPrinting };
}

/**
 * A scan is coming (printing.prepare, sent at a scanner's first keys): the printer for single scans
 * is claimed and looked at now, as the scan would (status/identity-watch.ts), so the scan finds its
 * connection open and its printer identified. False when there is no printer for single scans
 * this bench may drive now.
 */
export async function prepareForScan(deps: Pick<SinglePrintDeps, 'printers' | 'settings' | 'service'>): Promise<boolean> {
  try {
    const printer = await deps.printers.choose(deps.settings.environment(), 'single', undefined);
    await deps.service.claimPrinter(printer);
    await deps.service.lookAtPrinter(printer);
    return true;
  } catch (error) {
    // No printer, another bench's, or one this station refuses: the scan itself says so.
    if (error instanceof StationError) return false;
    throw error;
  }
}

/** A scan's one label: the order's own, not part of a run of its bundle. */
function scanLabel(order: { orderId: string; bundleId: string | null }, printer: { format: NewLabel['format'] }): NewLabel {
  return { orderId: order.orderId, bundleId: order.bundleId, bundlePosition: null, bundleCount: null, format: printer.format, reprintOf: null, reason: null };
}

/**
 * Two turns of the event loop let a request just issued reach the wire before the store work that
 * follows: the client's steps to it are promise callbacks, and the HTTP pool writes a request on an
 * idle keep-alive connection only in the check phase after it was issued (it first reads whatever
 * the server sent on it meanwhile), after an immediate registered here now. bench/print-latency.ts
 * shows the difference.
 */
function requestOnTheWire(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** The one order a scan names in the station's own index; null when there is none or more than one (the Delivery API is not asked). */
async function findLocally(deps: SinglePrintDeps, environment: Environment, scan: string) {
  try {
    return await deps.lookup.lookup(environment, scan, { remote: false });
  } catch (error) {
    // Unknown here, or more than one order by that name: whether it is a slip to ship comes first.
    if (error instanceof StationError && (error.code === 'ORDER_NOT_FOUND' || error.code === 'SCAN_AMBIGUOUS')) return null;
    throw error;
  }
}

/** The label the lookup already fetched (it is how the scan was recognised as an order id). */
function reuse(label: OrderLabel): DocumentSource {
  return async () =>
    label.format === 'zpl'
      ? prepared(label.bytes, label.formatCount, 'zpl', `The label of order ${label.orderId}`, label.scan)
      : prepared(label.bytes, 1, label.format, `The label of order ${label.orderId}`);
}

async function previousPrint(deps: SinglePrintDeps, entry: JournalRow) {
  return {
    entryId: entry.id,
    state: entry.state,
    printedAt: entry.printedAt ?? entry.sentAt ?? entry.uncertainAt ?? entry.updatedAt,
    operator: entry.operator,
    // The bench that printed it (rows older than the bench column are this bench's own).
    stationName: entry.benchName ?? deps.settings.stationName(),
    printerName: (await deps.printers.get(entry.environment, entry.printerId))?.name ?? entry.printerId,
  };
}

/**
 * The order was found in the station's index (today's manifest, an earlier lookup), so a 404 for
 * its label means the service does not know it: importing the manifest again would not help.
 */
function unknownToService(error: StationError, order: { orderId: string; orderRef: string | null }): StationError {
  if (error.code !== 'ORDER_NOT_FOUND') return error;
  const name = order.orderRef ?? order.orderId;
  return new StationError(
    'ORDER_UNKNOWN_TO_SERVICE',
    `${name} is in the station's order list (order id ${order.orderId}), but the Delivery API does not know that order. Put the parcel aside and ask a supervisor to check the order at the service.`,
    undefined,
    { cause: error, facts: { orderRef: name, orderId: order.orderId } },
  );
}

function nameNeeded(what: 'reprint' | 'override'): StationError {
  const words = what === 'reprint' ? 'reprint a label' : 'override the refusal';
  return new StationError('OPERATOR_REQUIRED', `Say who you are before you ${words}: enter your name as the operator in Setup.`, undefined, {
    facts: { subject: what },
  });
}

/**
 * The printer for single scans. When there is none, an environment that is not set up yet (no
 * address or no key) is the real cause, and what the packer is told; asked only then, so a scan
 * never waits on the keychain.
 */
async function choosePrinter(deps: SinglePrintDeps, environment: Environment, printerId: string | undefined) {
  try {
    return await deps.printers.choose(environment, 'single', printerId);
  } catch (error) {
    if (error instanceof StationError && error.code === 'PRINTER_NOT_FOUND' && deps.readiness) {
      const missing = await deps.readiness(environment);
      if (missing) throw missing;
    }
    throw error;
  }
}
