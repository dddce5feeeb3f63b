/**
 * The printing feature: one printing core on the printing store (the shared store, or the bench's
 * own file while a lead lets it print on its own while that store is offline), the bench's copy of
 * the warehouse's orders it scans against there, label previews, and the sandbox's virtual Zebra
 * kept as a printer.
 */
import type { Environment } from '../../shared/contract/app';
import type { DeliveryClient } from '../api';
import type { EventBus } from '../contract/event-bus';
import { printersHandlers } from '../handlers/printers';
import { printingHandlers } from '../handlers/printing';
import type { KeyService } from '../keys/key-service';
import type { Logger } from '../logging/logger';
import { createPrintingStore, createWalFlush, type OrderCopyLoop, type PrintingStore, type SettingsRepository, SqliteEngine, startOrderCopy, type StationDatabase, type StoreEngine, type StoreHealth } from '../store';
import { OrderIndex } from '../orders/order-index';
import type { OrderLookup } from '../orders/order-lookup';
import { createLabelPreview } from '../printing/label-preview';
import { createLocalOnlyPrinting, type LocalOnlyPrinting } from '../printing/offline/local-only-printing';
import { PrinterLeases } from '../printing/printer-leases';
import type { PrintingOptions } from '../printing/runs/print-service';
import { createPrintingCore, type PrintingCore } from '../printing/runs/printing-core';
import { createSandboxPrinterSync, type SandboxPrinterSync } from '../printing/sandbox-printer';
import type { DiscoveryTarget } from '../handlers/printers';
import { createCommandRunner } from '../printing/transports/command-runner';
import { createPrinterTransports, type PrinterTransportsOptions } from '../printing/transports/printer-transports';
import { environmentReadiness } from '../settings/environment-readiness';
import type { StationSettings } from '../settings/station-settings';
import type { ScanToShip } from '../shipping/scan-to-ship';
import { errorText } from '../../shared/error-text';

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
  /** A scan's lookup on an order index (the printing core's reads the orders where its journal writes). */
  lookupOn(index: OrderIndex): OrderLookup;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  keys: Pick<KeyService, 'readKey'>;
  scanToShip: ScanToShip;
  /** Where the embedded sandbox's virtual Zebras answer Zebra's discovery (searched too on the sandbox). */
  sandboxDiscovery(): Promise<DiscoveryTarget[]>;
  events: EventBus;
  logger: Logger;
  options?: PrintingOptions & { transports?: Partial<PrinterTransportsOptions> };
  /** How often a bench on a shared store copies the orders changed there into its own file. */
  orderCopyEveryMs: number;
}

export interface PrintingFeature {
  /** The printing core. */
  readonly core: PrintingCore;
  /** What may print while the shared store is offline, and where the journal writes (printing/offline). */
  readonly localOnly: LocalOnlyPrinting;
  /** Keeps the sandbox environment's printer at the virtual Zebra of this launch. */
  readonly sandboxPrinter: SandboxPrinterSync;
  /** Where the journal writes now; each printing call runs in its `hold`. */
  readonly store: PrintingStore;
  /** The warehouse's printer leases (none on one bench). */
  readonly leases: PrinterLeases | undefined;
  readonly handlers: ReturnType<typeof printersHandlers> & ReturnType<typeof printingHandlers>;
  close(): Promise<void>;
}

export async function printingFeature(deps: PrintingFeatureDeps): Promise<PrintingFeature> {
  const { engine, health, settings, events, logger, clientFor } = deps;
  const { transports: transportOptions, ...printingOptions } = deps.options ?? {};
  const shared = deps.sharedStore;
  // The journal writes to the shared store, or to the bench's own file while a lead lets it print
  // on its own while that store is offline (printing/offline); on one bench both are its file.
  const store = createPrintingStore({ shared: engine, bench: shared ? new SqliteEngine(deps.db, false) : engine });
  const bench = { id: deps.benchId, name: () => settings.stationName(), localOnly: () => store.localOnly() };
  // The orders a scan resolves against are where the journal writes: on the bench's file, its copy of the warehouse's.
  const orders = new OrderIndex(store);
  const leases = shared ? new PrinterLeases(store, { bench: bench.id, benchName: bench.name }) : undefined;
  const core = createPrintingCore({
    store,
    bench,
    // One bench drives its own printers (the app and a CLI command beside it are the same bench,
    // one id in one settings file): leases only on a warehouse's shared store.
    ...(leases ? { leases } : {}),
    flushToDisk: createWalFlush(deps.databasePath),
    orders,
    lookup: deps.lookupOn(orders),
    settings,
    clientFor,
    transports: createPrinterTransports({ platform: process.platform, runner: createCommandRunner(), ...transportOptions }),
    events,
    logger,
    options: printingOptions,
    readiness: environmentReadiness({ apiBaseUrl: (environment) => settings.apiBaseUrl(environment), readKey: (environment) => deps.keys.readKey(environment) }),
  });
  // What an earlier stop left mid-print is settled before anything prints (printing waits while offline).
  await deps.onceReachable(() => store.hold(() => core.service.recover()));
  const localOnly = createLocalOnlyPrinting({ health, core, store, benchId: bench.id, operator: () => settings.operator(), events, logger });
  const orderCopy = shared ? await followSharedStore({ store, localOnly, health, onceReachable: deps.onceReachable, everyMs: deps.orderCopyEveryMs, logger }) : null;

  return {
    core,
    localOnly,
    store,
    leases,
    sandboxPrinter: createSandboxPrinterSync({ printers: core.printers, settings: deps.settingsStore, changed: (printer) => core.service.printerChanged(printer) }),
    handlers: {
      ...printersHandlers({ settings, printing: core, setupAllowed: () => localOnly.requireSharedStore(), sandboxDiscovery: deps.sandboxDiscovery, logger, store }),
      // Each call reads and writes the journal in one place: local-only printing moves it between calls.
      ...heldIn(store, printingHandlers({ settings, core, allowed: localOnly, preview: createLabelPreview({ journal: core.journal, printers: core.printers, clientFor }), logger, scanToShip: deps.scanToShip })),
    },
    async close() {
      await orderCopy?.stop();
      await core.close();
    },
  };
}

/** The handlers, each call run in `store.hold`. */
function heldIn<H extends Record<string, (...args: never[]) => unknown>>(store: PrintingStore, handlers: H): H {
  return Object.fromEntries(Object.entries(handlers).map(([name, handle]) => [name, (...args: never[]) => store.hold(async () => handle(...args))])) as H;
}

interface SharedStoreFollowDeps {
  store: PrintingStore;
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
    shared: deps.store.shared,
    local: deps.store.bench,
    everyMs: deps.everyMs,
    isOnline: () => health.current().state === 'online',
    onError: (error) => logger.warn('the orders could not be copied to this bench yet', { error: errorText(error) }),
  });
  const mergeBack = () =>
    localOnly.mergeBack().then(
      () => undefined,
      (error: unknown) => logger.error('local-only labels could not be merged into the shared journal yet', { error: errorText(error) }),
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
