/**
 * The composition root: the one place that builds every service of the station from its
 * settings and hands each its dependencies. The Electron shell, the web host, the CLI and the
 * tests all build the same graph through here, with their own data folder and host.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Environment } from '../shared/contract/app';
import { createEmbeddedSandbox, type EmbeddedSandbox } from './embedded-sandbox';
import { createDispatcher, type Dispatcher, type Handlers } from './contract/dispatcher';
import { environmentSessions } from './environment-session';
import { createEventBus, type EventBus } from './contract/event-bus';
import { appHandlers } from './handlers/app';
import { importsHandlers } from './handlers/imports';
import { keysHandlers } from './handlers/keys';
import { ordersHandlers } from './handlers/orders';
import { printersHandlers } from './handlers/printers';
import { scalesHandlers } from './handlers/scales';
import { createScaleService, type ScaleService, type ScaleServiceDeps } from './scales/scale-service';
import { printingHandlers } from './handlers/printing';
import { sandboxHandlers } from './handlers/embedded-sandbox';
import { settingsHandlers } from './handlers/settings';
import { storeHandlers } from './handlers/store';
import { shippingHandlers } from './handlers/shipping';
import { supervisionHandlers } from './handlers/supervision';
import { uploadHandlers } from './handlers/upload';
import { webhooksHandlers } from './handlers/webhooks';
import { createKeyService, type KeyService } from './keys/key-service';
import { createKeychainKeyStore, type KeyStore } from './keys/key-store';
import type { Logger } from './logging/logger';
import { createLearningClient } from './orders/learning-client';
import { createManifestImporter, type ManifestImporter } from './orders/manifest-import';
import { OrderIndex } from './orders/order-index';
import { createOrderLookup, type OrderLookup } from './orders/order-lookup';
import { OrderOverview } from './orders/order-overview';
import { createPickedFiles, type PickedFiles } from './orders/picked-files';
import { createSandboxWebhookLink } from './orders/sandbox-webhooks';
import { createStatusEventProcessor } from './orders/status-events';
import { createWebhookConflicts } from './orders/webhook-conflicts';
import { createWebhookReceiver, type WebhookReceiver } from './orders/webhook-receiver';
import { createLabelPreview, type LabelPreview } from './printing/label-preview';
import type { PrintingOptions } from './printing/runs/print-service';
import { createSandboxPrinterSync } from './printing/sandbox-printer';
import { createPrintingCore, type PrintingCore } from './printing/runs/printing-core';
import { PrinterLeases } from './printing/printer-leases';
import { environmentReadiness } from './settings/environment-readiness';
import { createCommandRunner } from './printing/transports/command-runner';
import { createPrinterTransports, type PrinterTransportsOptions } from './printing/transports/printer-transports';
import { createSandboxWiring } from './sandbox-wiring';
import { createDeliveryClients, type DeliveryClients, type DeliveryClientsDeps } from './settings/delivery-clients';
import { benchId } from './store/bench-id';
import { StationSettings } from './settings/station-settings';
import { openChosenStore, type StoreHealthOptions } from './store/chosen-store';
import { createLocalOnlyPrinting } from './printing/offline/local-only-printing';
import { startOrderCopy, type OrderCopyLoop } from './store/order-copy';
import { SqliteEngine } from './store/engine/sqlite-engine';
import { createStoreChoice } from './store/store-choice';
import { createKeychainStorePasswords, type StorePasswords } from './store/engine/store-password';
import { isUnreachable, localStoreHealth, type StoreHealth } from './store/store-health';
import { AddressLookups } from './shipping/address-lookups';
import { CreationLedger } from './shipping/creation-ledger';
import { ledgerHearsStatusEvents } from './shipping/ledger-events';
import { scanToShip } from './shipping/scan-to-ship';
import { ShipService } from './shipping/ship-service';
import { createPersonalDataRetention, type RetentionSweep } from './shipping/personal-data-retention';
import { ToShipOrders } from './shipping/to-ship-orders';
import { UploadService } from './shipping/upload-service';
import { UploadStore } from './shipping/upload-store';
import { openDatabase, type StationDatabase } from './store/database';
import { createWalFlush } from './store/wal-flush';
import { securePrivateFolder } from './store/private-files';
import { SettingsRepository } from './store/settings-repository';
import type { PrintActivity } from './updates/print-activity';
import { createDayClose } from './supervision/day-close';
import { printHandover } from './supervision/handover-print';
import { createPullNotices } from './supervision/pull-notices';
import { createStatusTimeline } from './supervision/status-timeline';
import type { StoreEngine, Subscription } from './store/engine/store-engine';
import { createVoidService } from './supervision/void-service';

export const productName = 'Packing Station';

export interface StationOptions {
  /** Folder for the station's database and files (Electron's userData, or a temp folder in tests). */
  dataDir: string;
  host: 'electron' | 'web';
  version: string;
  logger: Logger;
  /** Defaults to the OS keychain under `keychainService`. */
  keyStore?: KeyStore;
  keychainService?: string;
  /** Whether the print queues are idle; the updater waits for it. Defaults to "nothing printing". */
  printActivity?: PrintActivity;
  /** The embedded sandbox; by default one started in this process on first use and stopped with the station. */
  sandbox?: EmbeddedSandbox;
  /** Delivery API client knobs (tests shorten retry budgets and timeouts). */
  clientOptions?: DeliveryClientsDeps['clientOptions'];
  /** How the spreadsheet upload waits after a 429 (tests record the waits); a timer by default. */
  uploadSleep?: (ms: number) => Promise<void>;
  /** Print queue timing and printer transport options (tests shorten polls and timeouts). */
  printing?: PrintingOptions & { transports?: Partial<PrinterTransportsOptions> };
  /** The desktop app's own file dialog for a manifest (the chosen path, or null); absent where there is none. */
  pickManifestFile?: () => Promise<string | null>;
  /** The clock webhook events are dated against (tests set it); the system clock by default. */
  webhookClock?: () => Date;
  /** The clock personal data's age is measured by (tests set it); the system clock by default. */
  retentionClock?: () => Date;
  /**
   * The store the order index, the journal, the printers, the ledgers and the webhook intake live
   * in, given by the caller (`webhooks serve --store`, tests; closed by whoever opened it). Without
   * it the station opens the one its `store` setting names: the bench's own file by default.
   */
  store?: StoreEngine;
  /** Where the shared store's password is kept; the OS keychain under `keychainService` by default. */
  storePasswords?: StorePasswords;
  /** How the shared store's health is watched (tests shorten the probe and inject timers). */
  storeHealth?: StoreHealthOptions;
  /** How often a bench on a shared store copies the orders changed there into its own file. Default 60 s. */
  orderCopyEveryMs?: number;
  /** How the bench's scale is read (tests shorten the stable window and the serial timing). */
  scale?: Pick<ScaleServiceDeps, 'stable' | 'serialTiming' | 'reconnectMs' | 'open'>;
}

export interface Station {
  readonly dispatcher: Dispatcher;
  readonly events: EventBus;
  readonly logger: Logger;
  readonly settings: StationSettings;
  /** The shell's updater installs only while this says every print queue is idle. */
  readonly printActivity: PrintActivity;
  /** The core services, for the CLI, the printing code and tests; the screen goes through the dispatcher. */
  readonly services: StationServices;
  /**
   * Starts the listeners of a long-running host (the app, the web host): composing the station
   * binds no port, so a one-shot CLI command never contends for the webhook receiver's port.
   */
  start(listeners: StationListeners): Promise<void>;
  close(): Promise<void>;
}

export interface StationListeners {
  /** Resume the webhook receiver when its setting keeps it on. */
  webhooks: boolean;
  /** Open the bench's scale when one is set up, and keep reading it. */
  scale?: boolean;
}

export interface StationServices {
  readonly db: StationDatabase;
  /** The store the order index, the journal, the printers, the ledgers and the webhook intake live in. */
  readonly store: StoreEngine;
  /** Whether the shared store answers (always "local" on a bench's own file): printing asks it first. */
  readonly storeHealth: StoreHealth;
  readonly sandbox: EmbeddedSandbox;
  /**
   * Starts the embedded sandbox if needed; its day of orders goes into the index as it starts, and
   * its virtual Zebra is the sandbox environment's printer at this launch's port (see
   * printing/sandbox-printer.ts).
   */
  sandboxReady(): Promise<void>;
  readonly clients: DeliveryClients;
  readonly keys: KeyService;
  readonly orders: OrderIndex;
  readonly lookup: OrderLookup;
  readonly importer: ManifestImporter;
  /** Files the main process chose (its file dialog, a path typed at the CLI), behind single-use handles. */
  readonly pickedFiles: PickedFiles;
  readonly webhooks: WebhookReceiver;
  readonly printing: PrintingCore;
  readonly ledger: CreationLedger;
  readonly toShip: ToShipOrders;
  readonly ship: ShipService;
  readonly uploads: UploadService;
  readonly scale: ScaleService;
  /** Deletes orders to ship and uploads past the personal data retention (personal-data-retention.ts). */
  readonly retention: RetentionSweep;
}

export async function composeStation(options: StationOptions): Promise<Station> {
  const { logger } = options;
  for (const fix of securePrivateFolder(options.dataDir)) logger.warn('data folder permissions narrowed to this user only', { ...fix });
  const databasePath = join(options.dataDir, 'station.db');
  const db: StationDatabase = openDatabase(databasePath);
  const settingsStore = new SettingsRepository(db);
  const settings = new StationSettings(settingsStore);
  const keys = options.keyStore ?? createKeychainKeyStore(options.keychainService ?? 'packing-station');
  const events = createEventBus(logger);
  // The order index, the ledgers and the webhook intake live in the store the `store` setting names:
  // the bench's own file (an engine sharing the station's libsql handle) or the warehouse's shared
  // PostgreSQL store. An injected store (`webhooks serve --store`, tests) is closed by whoever opened it.
  const storePasswords = options.storePasswords ?? createKeychainStorePasswords(options.keychainService ?? 'packing-station');
  const chosenStore = options.store
    ? { engine: options.store, health: localStoreHealth(), inUse: { kind: options.store.kind === 'sqlite' ? ('local' as const) : ('postgres' as const), address: null }, close: async () => undefined }
    : await openChosenStore({ settings, db, passwords: storePasswords, logger, applicationName: `packing-station ${settings.stationName()}`, health: options.storeHealth });
  const store = chosenStore.engine;
  const storeHealth = chosenStore.health;
  storeHealth.onChange((health) => events.emit('store.health', health));
  // Work that needs the store at start waits for it when the shared store is offline, or went
  // offline under it: the station opens all the same.
  const onceReachable = async (work: () => Promise<void>) => {
    if (storeHealth.current().state === 'offline') return storeHealth.whenOnline(work);
    try {
      await work();
    } catch (error) {
      if (!isUnreachable(error) || storeHealth.current().state === 'local') throw error;
      storeHealth.whenOnline(work);
    }
  };
  const orders = new OrderIndex(store);
  const sandbox = options.sandbox ?? createEmbeddedSandbox();
  const sandboxWiring = createSandboxWiring({ sandbox, orders, logger });
  const prepare = async (environment: Environment) => {
    if (environment === 'sandbox') await sandboxWiring.started();
  };
  let keyService: KeyService | null = null;
  const clients = createDeliveryClients({
    settings,
    logger,
    readKey: (environment) => (keyService ? keyService.readKey(environment) : keys.get(environment)),
    sandboxApi: async () => {
      await sandboxWiring.started();
      return sandbox.api();
    },
    decorate: (environment, client) => createLearningClient(environment, client, orders, logger),
    clientOptions: options.clientOptions,
  });
  // Every service asks for the client of the environment it works in, at the moment it needs it.
  const clientFor = (environment: Environment) => clients.forEnvironment(environment);
  keyService = createKeyService({ store: keys, settings, logger, clientWithKey: (environment, key) => clients.withKey(environment, key) });
  const lookup = createOrderLookup({ index: orders, prepare, clientFor });
  const importer = createManifestImporter({ engine: store, index: orders, logger });
  const pickedFiles = createPickedFiles();
  // The creation and upload ledgers and the orders to ship live in the same store as the webhook
  // intake, so a status event settles a parcel of unknown outcome in the intake's own transaction.
  const ledger = new CreationLedger(store, { bench: benchId(db), process: `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}` });
  await onceReachable(async () => {
    const interrupted = await ledger.recoverInterrupted();
    if (interrupted > 0) logger.warn('orders whose creation was interrupted are now of unknown outcome', { parcels: interrupted });
  });
  const toShip = new ToShipOrders(store);
  const retention = createPersonalDataRetention({ engine: store, logger, clock: options.retentionClock });
  const settleCreations = ledgerHearsStatusEvents(ledger, logger);
  const webhookConflicts = createWebhookConflicts({ engine: store, events, logger, clock: options.webhookClock });
  const timeline = createStatusTimeline(store);
  // The journal is built with the printing core below; a webhook only reaches it once listening starts.
  let pullNotices: ReturnType<typeof createPullNotices> | null = null;
  const webhooks = createWebhookReceiver({
    settings,
    logger,
    clock: options.webhookClock,
    processor: createStatusEventProcessor({
      engine: store,
      logger,
      conflicts: webhookConflicts,
      clock: options.webhookClock,
      onEvent: async (tx, event, afterCommit) => {
        await timeline.record(tx, event);
        const notices = pullNotices;
        const raised = await notices?.consider(tx, event);
        if (notices && raised !== undefined && raised !== null) afterCommit(() => notices.announce(event.environment, raised));
        // A status event of an order whose creation is of unknown outcome settles it.
        await settleCreations(tx, event.environment, event.payload);
      },
    }),
  });
  const { transports: transportOptions, ...printingOptions } = options.printing ?? {};
  const bench = { id: benchId(db), name: () => settings.stationName() };
  const flushToDisk = createWalFlush(databasePath);
  const readiness = environmentReadiness({ apiBaseUrl: (environment) => settings.apiBaseUrl(environment), readKey: (environment) => keyService.readKey(environment) });
  const printing = createPrintingCore({
    store,
    bench,
    // One bench drives its own printers (the app and a CLI command beside it are the same bench,
    // one id in one settings file): leases only on a warehouse's shared store.
    ...(store.kind === 'postgres' ? { leases: new PrinterLeases(store, { bench: bench.id, benchName: bench.name }) } : {}),
    flushToDisk,
    orders,
    lookup,
    settings,
    clientFor,
    transports: createPrinterTransports({ platform: process.platform, runner: createCommandRunner(), ...transportOptions }),
    events,
    logger,
    options: printingOptions,
    readiness,
  });
  // What an earlier stop left mid-print is settled before anything prints (printing waits while offline).
  await onceReachable(() => printing.service.recover());
  // While the shared store is offline a lead may let this bench print scans on its own file; they
  // are merged into the shared journal when the store answers again (printing/offline).
  const localEngine = chosenStore.inUse.kind === 'postgres' ? new SqliteEngine(db, false) : store;
  const localOnly = createLocalOnlyPrinting({
    health: storeHealth,
    shared: printing,
    buildLocal: (localOnlyMark) => {
      const localOrders = new OrderIndex(localEngine);
      return createPrintingCore({
        store: localEngine,
        bench: { ...bench, localOnly: localOnlyMark },
        flushToDisk,
        orders: localOrders,
        lookup: createOrderLookup({ index: localOrders, prepare, clientFor }),
        settings,
        clientFor,
        transports: printing.transports,
        events,
        logger,
        options: printingOptions,
        readiness,
      });
    },
    localEngine,
    sharedEngine: store,
    benchId: bench.id,
    operator: () => settings.operator(),
    events,
    logger,
  });
  let orderCopy: OrderCopyLoop | null = null;
  if (chosenStore.inUse.kind === 'postgres') {
    // Offline, a scan resolves against the bench's own copy of the warehouse's orders.
    orderCopy = startOrderCopy({
      shared: store,
      local: localEngine,
      everyMs: options.orderCopyEveryMs ?? 60_000,
      isOnline: () => storeHealth.current().state === 'online',
      onError: (error) => logger.warn('the orders could not be copied to this bench yet', { error: error instanceof Error ? error.message : String(error) }),
    });
    const mergeBack = () =>
      localOnly.mergeBack().then(
        () => undefined,
        (error: unknown) => logger.error('local-only labels could not be merged into the shared journal yet', { error: error instanceof Error ? error.message : String(error) }),
      );
    let wasOffline = storeHealth.current().state === 'offline';
    storeHealth.onChange((health) => {
      const back = wasOffline && health.state === 'online';
      wasOffline = health.state === 'offline';
      if (back) void mergeBack();
    });
    await onceReachable(mergeBack);
  }

  pullNotices = createPullNotices({ engine: store, events, logger, benchName: () => settings.stationName(), clock: options.webhookClock });
  // Notices and conflicts reach the screen by notification, whichever process wrote them.
  const following: Subscription[] = [];
  const notices = pullNotices;
  await onceReachable(async () => {
    following.push(await notices.follow(), await webhookConflicts.follow(), await printing.printers.follow());
  });
  const voids = createVoidService({ engine: store, index: orders, lookup, clientFor });
  const dayClose = createDayClose({ engine: store, index: orders, timeline, notices: pullNotices, dataDir: options.dataDir, benchName: () => settings.stationName() });

  const sandboxLink = createSandboxWebhookLink({
    environment: () => settings.environment(),
    receiver: () => webhooks.status(),
    sandboxRunning: () => sandbox.isRunning(),
    register: (url) => sandbox.registerWebhook(url),
    unregister: (id) => sandbox.unregisterWebhook(id),
    logger,
  });
  sandboxWiring.attach({
    printer: createSandboxPrinterSync({ printers: printing.printers, settings: settingsStore, changed: (printer) => printing.service.printerChanged(printer) }),
    webhookLink: sandboxLink,
  });
  const sandboxReady = sandboxWiring.ready;
  const overview = new OrderOverview(store, orders);
  const ship = new ShipService({
    settings,
    ledger,
    toShip,
    orders,
    clientFor,
    printing: { service: printing.service, printers: printing.printers },
    logger,
  });
  const uploads = new UploadService({
    store: new UploadStore(store, () => new Date()),
    ledger,
    orders,
    events,
    logger,
    clientFor,
    printBundles: async (_environment, bundleIds, printerId) => (await printing.printBundles({ bundleIds, printerId })).runId,
    shipmentLocation: async (environment, orderRef) => (await toShip.get(environment, orderRef))?.locationId ?? null,
    ...(options.uploadSleep ? { sleep: options.uploadSleep } : {}),
  });
  const previews = new Map<PrintingCore, LabelPreview>();
  const previewOf = (core: PrintingCore): LabelPreview => {
    let preview = previews.get(core);
    if (!preview) {
      preview = createLabelPreview({ journal: core.journal, printers: core.printers, clientFor });
      previews.set(core, preview);
    }
    return preview;
  };

  const scale = createScaleService({
    setting: () => settings.scale(),
    saveSetting: (setting) => settings.setScale(setting),
    emit: (reading) => events.emit('scales.reading', reading),
    logger,
    ...options.scale,
  });

  const handlers: Handlers = {
    ...appHandlers({ name: productName, version: options.version, host: options.host, dataDir: options.dataDir, settings, keys: keyService }),
    ...settingsHandlers({ settings, webhooks, keys: keyService, logger, sandboxLink }),
    ...keysHandlers(keyService),
    ...ordersHandlers({ settings, index: orders, lookup, overview, sandboxSampleIds: () => sandboxWiring.zplOrderIds() }),
    ...importsHandlers({ settings, importer, events, pickedFiles, pickManifestFile: options.pickManifestFile }),
    ...webhooksHandlers({ receiver: webhooks, sandboxLink, conflicts: webhookConflicts, settings }),
    ...printersHandlers({ settings, printing, logger }),
    ...printingHandlers({ settings, cores: localOnly, previewOf, logger, scanToShip: scanToShip({ toShip, ledger }) }),
    ...sandboxHandlers({ settings, sandbox }),
    ...supervisionHandlers({ settings, voids, notices: pullNotices, timeline, dayClose, index: orders, lookup, journal: printing.journal, printHandover: (environment, printer, handover, pdf) => printHandover({ printers: printing.printers, transports: printing.transports }, environment, printer, handover, pdf) }),
    ...shippingHandlers({ settings, ship, ledger, toShip, pickedFiles, lookups: new AddressLookups({ clientFor }) }),
    ...storeHandlers(
      createStoreChoice({ settings, passwords: storePasswords, inUse: chosenStore.inUse, health: storeHealth, applicationName: () => `packing-station ${settings.stationName()}` }),
      localOnly,
      settings,
    ),
    ...uploadHandlers({ uploads, pickedFiles, clientFor }),
    ...scalesHandlers({ scale, logger }),
  };

  return {
    dispatcher: createDispatcher(
      handlers,
      logger,
      environmentSessions({ environment: () => settings.environment(), readyFor: sandboxWiring.readyFor, clientFor }),
    ),
    events,
    logger,
    settings,
    printActivity: options.printActivity ?? localOnly.activity,
    services: { db, store, storeHealth, sandbox, sandboxReady, clients, keys: keyService, orders, lookup, importer, pickedFiles, webhooks, printing, ledger, toShip, ship, uploads, scale, retention },
    async start(listeners) {
      // A shift lasts until the station restarts: the screen asks who is packing at each start.
      settings.endShift();
      retention.start();
      if (listeners.webhooks) await webhooks.resume();
      if (listeners.scale) await scale.start();
    },
    async close() {
      await retention.stop();
      await scale.close();
      await uploads.close();
      await localOnly.close();
      await orderCopy?.stop();
      await printing.close();
      await webhooks.close();
      for (const subscription of following) await subscription.close();
      await chosenStore.close();
      await clients.close();
      if (!options.sandbox) await sandbox.close();
      db.close();
    },
  };
}
