/**
 * The printing feature: the printing of each place the journal writes to, each on its own engine
 * (the shared store; on a warehouse also the bench's own file, where it prints while a lead lets
 * it print on its own while that store is offline), sharing the printers' queues; the bench's copy
 * of the warehouse's orders it scans against there; label previews; and the sandbox's virtual
 * Zebra kept as a printer. Each call of the printing and printers screens uses the printing of the
 * place its session holds (store/store-place.ts).
 */
import type { Environment } from '../../shared/contract/app';
import type { CallName } from '../../shared/contract';
import type { DeliveryClient } from '../api';
import type { Handler } from '../contract/dispatcher';
import type { EventBus } from '../contract/event-bus';
import type { EnvironmentSession } from '../environment-session';
import { printersHandlers } from '../handlers/printers';
import { printingHandlers } from '../handlers/printing';
import type { KeyService } from '../keys/key-service';
import type { Logger } from '../logging/logger';
import { OrderIndex } from '../orders/order-index';
import type { OrderLookup } from '../orders/order-lookup';
import { createLocalOnlyPrinting, type LocalOnlyPrinting } from '../printing/offline/local-only-printing';
import { PrinterLeases } from '../printing/printer-leases';
import type { PrinterRecord } from '../printing/printers';
import { PrintQueues } from '../printing/runs/print-queues';
import type { PrintingOptions } from '../printing/runs/print-service';
import { createPrintingCore, type PrintingCore } from '../printing/printing-core';
import { createSandboxPrinterSync, type SandboxPrinterSync } from '../printing/sandbox-printer';
import type { DiscoveryTarget } from '../handlers/printers';
import { systemClock } from '../printing/queue/clock';
import { createCommandRunner } from '../printing/transports/command-runner';
import { createPrinterTransports, type PrinterTransportsOptions } from '../printing/transports/printer-transports';
import { environmentReadiness } from '../settings/environment-readiness';
import type { StationSettings } from '../settings/station-settings';
import type { ScanToShip } from '../shipping/scan-to-ship';
import { createWalFlush, type JournalPlace, type OrderCopyLoop, type SettingsRepository, startOrderCopy, type StoreEngine, type StoreHealth, type StorePlace } from '../store';
import type { PrintActivity } from '../updates/print-activity';
import { errorText } from '../../shared/error-text';

export interface PrintingFeatureDeps {
  /** The store the journal and the printers live in: the bench's own file or the warehouse's shared store. */
  engine: StoreEngine;
  /** Beside a warehouse's shared store, the bench's own file (where it prints while local-only printing lasts); null on one bench. */
  benchFile: StoreEngine | null;
  /** Where the journal writes for a call; each call's session holds it (store/store-place.ts). */
  place: StorePlace;
  health: StoreHealth;
  onceReachable(work: () => Promise<void>): Promise<void>;
  /** The station's own database file, whose log is taken to the disk in the background. */
  databasePath: string;
  benchId: string;
  settings: StationSettings;
  settingsStore: SettingsRepository;
  /** A scan's lookup on an order index (each place's printing reads the orders where its journal writes). */
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

/** The printing of each place the journal writes to (one on one bench). */
export interface PrintingPlaces {
  /** The shared store's (on one bench, its file's): what the other features print and read through. */
  readonly shared: PrintingCore;
  at(place: JournalPlace): PrintingCore;
  /** Runs `work` with the printing of the place the journal writes to now, held while it runs (a lead's action applied at this bench). */
  held<T>(work: (core: PrintingCore) => Promise<T>): Promise<T>;
  /** What `build` makes of each place's printing (built once on one bench, where both places are its file). */
  each<H>(build: (core: PrintingCore, at: JournalPlace) => H): Record<JournalPlace, H>;
}

export interface PrintingFeature {
  /** The printing core on the shared store (on one bench, its file). */
  readonly core: PrintingCore;
  readonly places: PrintingPlaces;
  /** Tells the updater when every place's printing is quiet. */
  readonly activity: PrintActivity;
  /** What may print while the shared store is offline, and where the journal writes (printing/offline). */
  readonly localOnly: LocalOnlyPrinting;
  /** Keeps the sandbox environment's printer at the virtual Zebra of this launch. */
  readonly sandboxPrinter: SandboxPrinterSync;
  /** The warehouse's printer leases (none on one bench). */
  readonly leases: PrinterLeases | undefined;
  readonly handlers: ReturnType<typeof printersHandlers> & ReturnType<typeof printingHandlers>;
  close(): Promise<void>;
}

export async function printingFeature(deps: PrintingFeatureDeps): Promise<PrintingFeature> {
  const { engine, benchFile, place, health, settings, events, logger, clientFor } = deps;
  const { transports: transportOptions, ...printingOptions } = deps.options ?? {};
  const transports = createPrinterTransports({ platform: process.platform, runner: createCommandRunner(), ...transportOptions });
  const clock = systemClock;
  // Each printer's record as last read at either place: a queue checks a new connection's printer against its serial.
  const registries: PrintingCore['printers'][] = [];
  const lastSerial = (printer: PrinterRecord) => registries.map((printers) => printers.lastKnown(printer.environment, printer.id)?.options.serialNumber ?? null).find((serial) => serial !== null) ?? null;
  const queues = new PrintQueues({
    transports,
    events,
    logger,
    clock,
    identifiedSerial: lastSerial,
    ...(printingOptions.queueTiming ? { timing: printingOptions.queueTiming } : {}),
    ...(printingOptions.rollQuietMs !== undefined ? { rollQuietMs: printingOptions.rollQuietMs } : {}),
  });
  const flushToDisk = createWalFlush(deps.databasePath);
  const readiness = environmentReadiness({ apiBaseUrl: (environment) => settings.apiBaseUrl(environment), readKey: (environment) => deps.keys.readKey(environment) });
  const benchName = () => settings.stationName();
  const printingOn = (store: StoreEngine, marked: boolean): { core: PrintingCore; leases: PrinterLeases | undefined } => {
    // The orders a scan resolves against are where the journal writes: on the bench's file, its copy of the warehouse's.
    const orders = new OrderIndex(store);
    // Labels written to the bench's file beside a shared store carry the lead's permission.
    const bench = { id: deps.benchId, name: benchName, localOnly: () => (marked ? place.localOnly() : null) };
    // One bench drives its own printers (the app and a CLI command beside it are the same bench,
    // one id in one settings file): leases only on a warehouse's shared store.
    const leases = benchFile ? new PrinterLeases(store, { bench: bench.id, benchName }) : undefined;
    const core = createPrintingCore({
      store,
      queues,
      bench,
      ...(leases ? { leases } : {}),
      flushToDisk,
      orders,
      lookup: deps.lookupOn(orders),
      settings,
      clientFor,
      transports,
      events,
      logger,
      options: printingOptions,
      readiness,
    });
    registries.unshift(core.printers);
    return { core, leases };
  };
  const shared = printingOn(engine, false);
  const bench = benchFile ? printingOn(benchFile, true).core : shared.core;
  const cores = { shared: shared.core, bench };
  const stores = { shared: engine, bench: benchFile ?? engine };
  const places: PrintingPlaces = {
    shared: shared.core,
    at: (at) => cores[at],
    held: (work) => place.hold((at) => work(cores[at])),
    each(build) {
      const atShared = build(cores.shared, 'shared');
      return { shared: atShared, bench: cores.bench === cores.shared ? atShared : build(cores.bench, 'bench') };
    },
  };
  // What an earlier stop left mid-print is settled before anything prints (printing waits while offline).
  await deps.onceReachable(() => place.hold((at) => cores[at].service.recover()));
  const localOnly = createLocalOnlyPrinting({ health, cores, stores, place, benchId: deps.benchId, operator: () => settings.operator(), events, logger });
  const orderCopy = benchFile ? await followSharedStore({ shared: engine, benchFile, localOnly, health, onceReachable: deps.onceReachable, everyMs: deps.orderCopyEveryMs, logger }) : null;

  return {
    core: shared.core,
    places,
    activity: queues.activity,
    localOnly,
    leases: shared.leases,
    sandboxPrinter: createSandboxPrinterSync({ printers: shared.core.printers, settings: deps.settingsStore, changed: (printer) => shared.core.service.printerChanged(printer) }),
    handlers: {
      ...byPlace(places.each((core, at) => printersHandlers({ settings, printing: core, setupAllowed: () => localOnly.requireSharedStore(), sandboxDiscovery: deps.sandboxDiscovery, logger, store: stores[at] }))),
      // Each call reads and writes the journal of one place: local-only printing moves it between calls.
      ...byPlace(places.each((core) => printingHandlers({ settings, core, allowed: localOnly, preview: core.preview, logger, scanToShip: deps.scanToShip }))),
    },
    async close() {
      await orderCopy?.stop();
      // Every place's runs stop, then the queues they share close, then each place settles its runs.
      await Promise.all([...new Set(Object.values(cores))].map((core) => core.close()));
      await transports.closeAll();
    },
  };
}

/** The handlers of each place as one set: each call runs with those of the place its session holds. */
export function byPlace<H extends Partial<Record<CallName, Handler<never>>>>(atPlace: Record<JournalPlace, H>): H {
  if (atPlace.bench === atPlace.shared) return atPlace.shared;
  const names = Object.keys(atPlace.shared) as (keyof H & string)[];
  return Object.fromEntries(
    names.map((name) => [
      name,
      async (input: never, context: { session: EnvironmentSession }) => {
        const handler = atPlace[await context.session.place()][name] as (input: never, context: { session: EnvironmentSession }) => unknown;
        return handler(input, context);
      },
    ]),
  ) as unknown as H;
}

interface SharedStoreFollowDeps {
  shared: StoreEngine;
  benchFile: StoreEngine;
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
    local: deps.benchFile,
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
