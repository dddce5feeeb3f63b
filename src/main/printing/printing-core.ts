/**
 * The printing of one journal place (the shared store, or the bench's own file while local-only
 * printing lasts: store/store-place.ts), each part on that place's engine: the journal, the
 * printer registry, the order index a scan resolves against, the print service with its single
 * prints and bundle runs, and the label preview. The printers' queues are the station's, shared by
 * the places (print-queues.ts).
 */
import type { Environment } from '../../shared/contract/app';
import type { PrintOutcomeData, RunSummaryData } from '../../shared/contract/printing';
import type { DeliveryClient } from '../api';
import type { EventBus } from '../contract/event-bus';
import type { Logger } from '../logging/logger';
import type { OrderIndex } from '../orders/order-index';
import type { OrderLookup } from '../orders/order-lookup';
import type { StationSettings } from '../settings/station-settings';
import type { FlushToDisk, StoreEngine } from '../store';
import type { StationError } from '../../shared/errors';
import { planAndStartBundleRun, type BundlePrintInput } from './bundle-print';
import { PrintJournal } from './journal/print-journal';
import type { JournalBench } from './journal/run-records';
import { PrinterRegistry } from './printers';
import type { PrinterLeases } from './printer-leases';
import { StoreLabelMarks } from './queue/label-marks';
import { createLabelPreview, type LabelPreview } from './label-preview';
import { prepareForScan, printScan, type SinglePrintInput, type SlipCheck } from './single-print';
import type { PrinterTransports } from './transports/printer-transports';
import type { PrintQueues } from './runs/print-queues';
import { PrintService, type PrintingOptions } from './runs/print-service';

export interface PrintingCoreDeps {
  /** The journal, its label marks and the printers: this place's engine. */
  store: StoreEngine;
  /** The station's queues, one per printer, shared by the places. */
  queues: PrintQueues;
  /** The bench whose labels and runs these are (its id and name go on every row; its own default printers and leases). */
  bench: JournalBench;
  /** On a shared store: printers are leased, one bench driving each at a time (printer-leases.ts). */
  leases?: PrinterLeases;
  /** Takes commits that did not wait for the disk there in the background (store/wal-flush.ts). */
  flushToDisk?: FlushToDisk;
  orders: OrderIndex;
  lookup: OrderLookup;
  settings: StationSettings;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  transports: PrinterTransports;
  events: EventBus;
  logger: Logger;
  options?: PrintingOptions;
  /** NOT_CONFIGURED when an environment lacks its address or key (see environment-readiness.ts). */
  readiness?: (environment: Environment) => Promise<StationError | null>;
}

export interface PrintingCore {
  readonly journal: PrintJournal;
  readonly printers: PrinterRegistry;
  /** The orders a scan resolves against here (on the bench's own file, its copy of the warehouse's). */
  readonly orders: OrderIndex;
  readonly service: PrintService;
  /** The label document of an entry of this journal, as it was printed (label-preview.ts). */
  readonly preview: LabelPreview;
  readonly transports: PrinterTransports;
  print(input: SinglePrintInput): Promise<PrintOutcomeData>;
  /** A scan at the bench, which may be the slip of an order to ship (see SlipCheck): that answer, or the print's. */
  printScanned<T>(input: SinglePrintInput, slip: SlipCheck<T>): Promise<PrintOutcomeData | T>;
  printBundles(input: BundlePrintInput): Promise<RunSummaryData>;
  /** A scan is coming: the printer for single scans is made ready for it (single-print.ts). */
  prepareForScan(): Promise<boolean>;
  /** Stops the queues after the label each is sending (every place's runs first); the caller closes the transports. */
  close(): Promise<void>;
}

/** The printing core; the caller runs `service.recover()` once the store answers (a shared store may be offline at start). */
export function createPrintingCore(deps: PrintingCoreDeps): PrintingCore {
  const journal = new PrintJournal(deps.store, undefined, deps.flushToDisk, deps.bench);
  const printers = new PrinterRegistry(deps.store, { bench: deps.bench.id });
  const service = new PrintService({
    journal,
    printers,
    queues: deps.queues,
    transports: deps.transports,
    orders: deps.orders,
    settings: deps.settings,
    clientFor: deps.clientFor,
    events: deps.events,
    logger: deps.logger,
    marks: new StoreLabelMarks(deps.store),
    ...(deps.leases ? { leases: deps.leases } : {}),
    ...(deps.options ? { options: deps.options } : {}),
  });
  const singlePrint = { service, printers, lookup: deps.lookup, orders: deps.orders, settings: deps.settings, ...(deps.readiness ? { readiness: deps.readiness } : {}) };
  return {
    journal,
    printers,
    orders: deps.orders,
    service,
    preview: createLabelPreview({ journal, printers, clientFor: deps.clientFor }),
    transports: deps.transports,
    print: (input) => printScan(singlePrint, input),
    printScanned: (input, slip) => printScan(singlePrint, input, slip),
    prepareForScan: () => prepareForScan(singlePrint),
    printBundles: (input) => planAndStartBundleRun({ service, history: journal.history, printers, orders: deps.orders, settings: deps.settings, clientFor: deps.clientFor }, input),
    close: () => service.close(),
  };
}
