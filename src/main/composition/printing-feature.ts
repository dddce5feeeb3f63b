/**
 * The printing feature: the printing core on the store, the core on the bench's own file that a
 * lead may let print while a shared store is offline, the bench's copy of the warehouse's orders
 * that core scans against, label previews, and the sandbox's virtual Zebra kept as a printer.
 */
import type { Environment } from '../../shared/contract/app';
import type { DeliveryClient } from '../api';
import type { EventBus } from '../contract/event-bus';
import { printersHandlers } from '../handlers/printers';
import { printingHandlers } from '../handlers/printing';
import type { KeyService } from '../keys/key-service';
import type { Logger } from '../logging/logger';
import { startOrderCopy, type OrderCopyLoop } from '../store/order-copy';
import { OrderIndex } from '../orders/order-index';
import type { OrderLookup } from '../orders/order-lookup';
import { createLabelPreview, type LabelPreview } from '../printing/label-preview';
import { createLocalOnlyPrinting, type LocalOnlyPrinting } from '../printing/offline/local-only-printing';
import { PrinterLeases } from '../printing/printer-leases';
import type { PrintingOptions } from '../printing/runs/print-service';
import { createPrintingCore, type PrintingCore } from '../printing/runs/printing-core';
import { createSandboxPrinterSync, type SandboxPrinterSync } from '../printing/sandbox-printer';
import { createCommandRunner } from '../printing/transports/command-runner';
import { createPrinterTransports, type PrinterTransportsOptions } from '../printing/transports/printer-transports';
import { environmentReadiness } from '../settings/environment-readiness';
import type { StationSettings } from '../settings/station-settings';
import type { ScanToShip } from '../shipping/scan-to-ship';
import type { StationDatabase } from '../store/database';
import { SqliteEngine } from '../store/engine/sqlite-engine';
import type { StoreEngine } from '../store/engine/store-engine';
import type { SettingsRepository } from '../store/settings-repository';
import type { StoreHealth } from '../store/store-health';
import { createWalFlush } from '../store/wal-flush';

export interface PrintingFeatureDeps {
  /** The store the journal and the printers live in: the bench's own file or the warehouse's shared store. */
  engine: StoreEngine;
  /** Whether the store in use is a warehouse's shared store (the setting's choice), not the bench's own file. */
  sharedStore: boolean;
  health: StoreHealth;
  onceReachable(work: () => Promise<void>): Promise<void>;
  /** The station's own database and its file: the bench's own file when the store is shared. */
  db: StationDatabase;
  databasePath: string;
  benchId: string;
  settings: StationSettings;
  settingsStore: SettingsRepository;
  orders: OrderIndex;
  lookup: OrderLookup;
  /** A lookup on the bench's own copy of the orders, for printing on its own file. */
  lookupOn(index: OrderIndex): OrderLookup;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  keys: Pick<KeyService, 'readKey'>;
  scanToShip: ScanToShip;
  events: EventBus;
  logger: Logger;
  options?: PrintingOptions & { transports?: Partial<PrinterTransportsOptions> };
  /** How often a bench on a shared store copies the orders changed there into its own file. */
  orderCopyEveryMs: number;
}

export interface PrintingFeature {
  /** The printing core on the store. */
  readonly core: PrintingCore;
  /** Which core a print goes to while the shared store is offline (printing/offline). */
  readonly localOnly: LocalOnlyPrinting;
  /** Keeps the sandbox environment's printer at the virtual Zebra of this launch. */
  readonly sandboxPrinter: SandboxPrinterSync;
  readonly handlers: ReturnType<typeof printersHandlers> & ReturnType<typeof printingHandlers>;
  close(): Promise<void>;
}

export async function printingFeature(deps: PrintingFeatureDeps): Promise<PrintingFeature> {
  const { engine, health, settings, events, logger, clientFor } = deps;
  const { transports: transportOptions, ...printingOptions } = deps.options ?? {};
  const bench = { id: deps.benchId, name: () => settings.stationName() };
  const flushToDisk = createWalFlush(deps.databasePath);
  const readiness = environmentReadiness({ apiBaseUrl: (environment) => settings.apiBaseUrl(environment), readKey: (environment) => deps.keys.readKey(environment) });
  const core = createPrintingCore({
    store: engine,
    bench,
    // One bench drives its own printers (the app and a CLI command beside it are the same bench,
    // one id in one settings file): leases only on a warehouse's shared store.
    ...(engine.sharedByBenches ? { leases: new PrinterLeases(engine, { bench: bench.id, benchName: bench.name }) } : {}),
    flushToDisk,
    orders: deps.orders,
    lookup: deps.lookup,
    settings,
    clientFor,
    transports: createPrinterTransports({ platform: process.platform, runner: createCommandRunner(), ...transportOptions }),
    events,
    logger,
    options: printingOptions,
    readiness,
  });
  // What an earlier stop left mid-print is settled before anything prints (printing waits while offline).
  await deps.onceReachable(() => core.service.recover());
  // While the shared store is offline a lead may let this bench print scans on its own file; they
  // are merged into the shared journal when the store answers again (printing/offline).
  const shared = deps.sharedStore;
  const localEngine = shared ? new SqliteEngine(deps.db, false) : engine;
  const localOnly = createLocalOnlyPrinting({
    health,
    shared: core,
    buildLocal: (localOnlyMark) => {
      const localOrders = new OrderIndex(localEngine);
      return createPrintingCore({
        store: localEngine,
        bench: { ...bench, localOnly: localOnlyMark },
        flushToDisk,
        orders: localOrders,
        lookup: deps.lookupOn(localOrders),
        settings,
        clientFor,
        transports: core.transports,
        events,
        logger,
        options: printingOptions,
        readiness,
      });
    },
    localEngine,
    sharedEngine: engine,
    benchId: bench.id,
    operator: () => settings.operator(),
    events,
    logger,
  });
  const orderCopy = shared ? await followSharedStore({ shared: engine, localEngine, localOnly, health, onceReachable: deps.onceReachable, everyMs: deps.orderCopyEveryMs, logger }) : null;

  const previews = new Map<PrintingCore, LabelPreview>();
  const previewOf = (of: PrintingCore): LabelPreview => {
    let preview = previews.get(of);
    if (!preview) {
      preview = createLabelPreview({ journal: of.journal, printers: of.printers, clientFor });
      previews.set(of, preview);
    }
    return preview;
  };
  return {
    core,
    localOnly,
    sandboxPrinter: createSandboxPrinterSync({ printers: core.printers, settings: deps.settingsStore, changed: (printer) => core.service.printerChanged(printer) }),
    handlers: {
      ...printersHandlers({ settings, printing: core, logger }),
      ...printingHandlers({ settings, cores: localOnly, previewOf, logger, scanToShip: deps.scanToShip }),
    },
    async close() {
      await localOnly.close();
      await orderCopy?.stop();
      await core.close();
    },
  };
}

interface SharedStoreFollowDeps {
  shared: StoreEngine;
  localEngine: StoreEngine;
  localOnly: LocalOnlyPrinting;
  health: StoreHealth;
  onceReachable(work: () => Promise<void>): Promise<void>;
  everyMs: number;
  logger: Logger;
}

/**
 * On a shared store: the bench keeps its own copy of the warehouse's orders, which a scan resolves
 * against while offline, and merges what it printed on its own file each time the store is back.
 */
async function followSharedStore(deps: SharedStoreFollowDeps): Promise<OrderCopyLoop> {
  const { localOnly, health, logger } = deps;
  const orderCopy = startOrderCopy({
    shared: deps.shared,
    local: deps.localEngine,
    everyMs: deps.everyMs,
    isOnline: () => health.current().state === 'online',
    onError: (error) => logger.warn('the orders could not be copied to this bench yet', { error: error instanceof Error ? error.message : String(error) }),
  });
  const mergeBack = () =>
    localOnly.mergeBack().then(
      () => undefined,
      (error: unknown) => logger.error('local-only labels could not be merged into the shared journal yet', { error: error instanceof Error ? error.message : String(error) }),
    );
  let wasOffline = health.current().state === 'offline';
  health.onChange((current) => {
    const back = wasOffline && current.state === 'online';
    wasOffline = current.state === 'offline';
    if (back) void mergeBack();
  });
  await deps.onceReachable(mergeBack);
  return orderCopy;
}
