/**
 * The shipping feature, built in two steps. Its records (the creation ledger, the orders to ship,
 * the personal data retention) come before printing and the webhook intake, which read and settle
 * them; its services (shipping an order, uploading a spreadsheet) come after printing, which they
 * print through.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Environment } from '../../shared/contract/app';
import type { DeliveryClient } from '../api';
import type { EventBus } from '../contract/event-bus';
import { shippingHandlers } from '../handlers/shipping';
import { uploadHandlers } from '../handlers/upload';
import type { Logger } from '../logging/logger';
import type { OrderIndex } from '../orders/order-index';
import type { PickedFiles } from '../orders/picked-files';
import type { PrintingCore } from '../printing/printing-core';
import type { StationSettings } from '../settings/station-settings';
import { AddressLookups } from '../shipping/address-lookups';
import { CreationLedger } from '../shipping/creation-ledger';
import { createCreatedWeights, type CreatedWeights } from '../shipping/created-weights';
import { createPersonalDataRetention, type RetentionSweep } from '../shipping/personal-data-retention';
import { scanToShip, type ScanToShip } from '../shipping/scan-to-ship';
import { ShipService } from '../shipping/ship-service';
import { ToShipOrders } from '../shipping/to-ship-orders';
import { UploadService } from '../shipping/upload-service';
import { UploadStore } from '../shipping/upload-store';
import type { StoreEngine } from '../store';

export interface ShippingRecordsDeps {
  engine: StoreEngine;
  benchId: string;
  logger: Logger;
  onceReachable(work: () => Promise<void>): Promise<void>;
  /** The clock personal data's age is measured by; the system clock by default. */
  retentionClock?: () => Date;
}

export interface ShippingRecords {
  readonly ledger: CreationLedger;
  /** The weight each order was created with: written by shipping and uploads, read by the handover list. */
  readonly weights: CreatedWeights;
  readonly toShip: ToShipOrders;
  readonly retention: RetentionSweep;
  /** What a scan at the printing screen ships, when it names an order to ship. */
  readonly scanToShip: ScanToShip;
}

/**
 * The creation and upload ledgers and the orders to ship live in the same store as the webhook
 * intake, so a status event settles a parcel of unknown outcome in the intake's own transaction.
 */
export async function shippingRecords(deps: ShippingRecordsDeps): Promise<ShippingRecords> {
  const { engine, logger } = deps;
  const ledger = new CreationLedger(engine, { bench: deps.benchId, process: `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}` });
  await deps.onceReachable(async () => {
    const interrupted = await ledger.recoverInterrupted();
    if (interrupted > 0) logger.warn('orders whose creation was interrupted are now of unknown outcome', { parcels: interrupted });
  });
  const toShip = new ToShipOrders(engine);
  const retention = createPersonalDataRetention({ engine, logger, clock: deps.retentionClock });
  return { ledger, weights: createCreatedWeights(engine), toShip, retention, scanToShip: scanToShip({ toShip, ledger }) };
}

export interface ShippingFeatureDeps {
  records: ShippingRecords;
  engine: StoreEngine;
  settings: StationSettings;
  orders: OrderIndex;
  pickedFiles: PickedFiles;
  printing: PrintingCore;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  events: EventBus;
  logger: Logger;
  /** How the spreadsheet upload waits after a 429; a timer by default. */
  uploadSleep?: (ms: number) => Promise<void>;
}

export interface ShippingFeature {
  readonly ship: ShipService;
  readonly uploads: UploadService;
  readonly handlers: ReturnType<typeof shippingHandlers> & ReturnType<typeof uploadHandlers>;
}

export function shippingFeature(deps: ShippingFeatureDeps): ShippingFeature {
  const { records, settings, orders, pickedFiles, printing, clientFor, events, logger } = deps;
  const { ledger, toShip, weights } = records;
  const ship = new ShipService({
    settings,
    ledger,
    toShip,
    orders,
    weights,
    clientFor,
    printing: { service: printing.service, printers: printing.printers, history: printing.journal.history },
    logger,
  });
  const uploads = new UploadService({
    store: new UploadStore(deps.engine, () => new Date()),
    ledger,
    orders,
    weights,
    events,
    logger,
    clientFor,
    printBundles: async (_environment, bundleIds, printerId) => (await printing.printBundles({ bundleIds, printerId })).runId,
    shipmentLocation: async (environment, orderRef) => (await toShip.get(environment, orderRef))?.locationId ?? null,
    ...(deps.uploadSleep ? { sleep: deps.uploadSleep } : {}),
  });
  return {
    ship,
    uploads,
    handlers: {
      ...shippingHandlers({ settings, ship, ledger, toShip, pickedFiles, lookups: new AddressLookups({ clientFor }) }),
      ...uploadHandlers({ uploads, pickedFiles, clientFor }),
    },
  };
}
