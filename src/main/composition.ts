/**
 * The composition root: the one place that builds every service of the station from its
 * settings and hands each its dependencies. The Electron shell, the web host, the CLI and the
 * tests all build the same graph through here, with their own data folder and host.
 */
import { join } from 'node:path';
import { createEmbeddedSandbox } from './embedded-sandbox';
import { callThrough, createDispatcher, type Dispatcher, type Handlers } from './contract/dispatcher';
import { environmentSessions } from './environment-session';
import { createEventBus } from './contract/event-bus';
import { appHandlers } from './handlers/app';
import { sandboxHandlers } from './handlers/embedded-sandbox';
import { scalesHandlers } from './handlers/scales';
import { settingsHandlers } from './handlers/settings';
import { createKeychainKeyStore } from './keys/key-store';
import { OrderIndex } from './orders/order-index';
import { createScaleService } from './scales/scale-service';
import { createSandboxWiring } from './sandbox-wiring';
import { benchId, openDatabase, securePrivateFolder, SettingsRepository } from './store';
import { StationSettings } from './settings/station-settings';
import { deliveryFeature } from './composition/delivery-feature';
import { floorFeature } from './composition/floor-feature';
import { ordersFeature } from './composition/orders-feature';
import { printingFeature } from './composition/printing-feature';
import { shippingFeature, shippingRecords } from './composition/shipping-feature';
import { openStoreFeature, storeFeatureHandlers } from './composition/store-feature';
import { supervisionFeature } from './composition/supervision-feature';
import { webhooksFeature } from './composition/webhooks-feature';
import type { Station, StationOptions } from './composition/station-types';

export type { Station, StationListeners, StationOptions, StationServices } from './composition/station-types';

export const productName = 'Packing Station';

/**
 * Builds each feature from the ones it needs, in that order; nothing is handed over later except
 * the sandbox wiring's one `attach` (the sandbox's client is built before the printers and the
 * webhook receiver it then keeps in step with).
 */
export async function composeStation(options: StationOptions): Promise<Station> {
  const { logger, dataDir } = options;
  for (const fix of securePrivateFolder(dataDir)) logger.warn('data folder permissions narrowed to this user only', { ...fix });
  const databasePath = join(dataDir, 'station.db');
  const db = openDatabase(databasePath);
  const settingsStore = new SettingsRepository(db);
  const settings = new StationSettings(settingsStore);
  const keychainService = options.keychainService ?? 'packing-station';
  const keyStore = options.keyStore ?? createKeychainKeyStore(keychainService);
  const events = createEventBus(logger);
  const store = await openStoreFeature({ settings, db, events, logger, keychainService, given: options.store, passwords: options.storePasswords, health: options.storeHealth });
  const { engine, onceReachable } = store;
  const orders = new OrderIndex(engine);
  const sandbox = options.sandbox ?? createEmbeddedSandbox();
  const sandboxWiring = createSandboxWiring({ sandbox, orders, logger });
  const delivery = deliveryFeature({ settings, logger, keyStore, sandbox, sandboxWiring, orders, clientOptions: options.clientOptions });
  const { keys, clients, clientFor } = delivery;
  const ordering = ordersFeature({ engine, index: orders, settings, events, logger, clientFor, sandboxWiring, pickManifestFile: options.pickManifestFile });
  const { lookup, pickedFiles } = ordering;
  const bench = benchId(db);
  const records = await shippingRecords({ engine, benchId: bench, logger, onceReachable, retentionClock: options.retentionClock });
  const intake = webhooksFeature({ engine, settings, ledger: records.ledger, sandbox, events, logger, clock: options.webhookClock, strayErrors: options.strayErrors });
  const printing = await printingFeature({
    engine, benchFile: store.benchFile, place: store.place, health: store.health, onceReachable, databasePath, benchId: bench, settings, settingsStore,
    lookupOn: ordering.lookupOn, clientFor, keys, scanToShip: records.scanToShip, events, logger,
    sandboxDiscovery: async () => (await sandbox.printers()).map((printer) => ({ host: printer.host, port: printer.discoveryPort })),
    options: options.printing, orderCopyEveryMs: options.orderCopyEveryMs ?? 60_000,
  });
  // Notices, conflicts and printers reach the screen by notification, whichever process wrote them.
  const followed = [intake.notices, intake.conflicts, printing.core.printers];
  const supervision = await supervisionFeature({ engine, index: orders, lookup, clientFor, timeline: intake.timeline, notices: intake.notices, weights: records.weights, followed, printing: printing.places, onceReachable, settings, dataDir });
  sandboxWiring.attach({ printer: printing.sandboxPrinter, webhookLink: intake.sandboxLink });
  const shipping = shippingFeature({ records, engine, settings, orders, pickedFiles, printing: printing.core, clientFor, events, logger, uploadSleep: options.uploadSleep });
  const scale = createScaleService({
    setting: () => settings.scale(),
    saveSetting: (setting) => settings.setScale(setting),
    emit: (reading) => events.emit('scales.reading', reading),
    logger,
    ...options.scale,
  });
  const { retention } = records;
  const webhooks = intake.receiver;
  // The floor asks this bench's idle printers how they are through the same call as the screen.
  let dispatcher: Dispatcher | null = null;
  const floor = floorFeature({
    engine, benchId: bench, settings, printing, onceReachable, events, logger, ...(options.floor ? { options: options.floor } : {}),
    printerStatus: async (id) => {
      if (!dispatcher) throw new Error('the station is not composed yet');
      const answer = await callThrough(dispatcher, 'printers.status', { id }, { host: options.host });
      if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
      return answer.value;
    },
  });

  const handlers: Handlers = floor.observing({
    ...appHandlers({ name: productName, version: options.version, host: options.host, dataDir, settings, keys }),
    ...settingsHandlers({ settings, webhooks, keys, logger, sandboxLink: intake.sandboxLink }),
    ...delivery.handlers,
    ...ordering.handlers,
    ...intake.handlers,
    ...printing.handlers,
    ...sandboxHandlers({ settings, sandbox }),
    ...supervision.handlers,
    ...shipping.handlers,
    ...storeFeatureHandlers(store, printing.localOnly, settings),
    ...scalesHandlers({ scale, logger }),
    ...floor.handlers,
  });
  dispatcher = createDispatcher(handlers, logger, environmentSessions({ environment: () => settings.environment(), readyFor: sandboxWiring.readyFor, clientFor, enterPlace: () => store.place.enter() }));

  return {
    dispatcher,
    events,
    logger,
    settings,
    printActivity: options.printActivity ?? printing.activity,
    host: {
      pickFile: (path) => pickedFiles.register(path),
      webhookReceiver: webhooks,
      readySandbox: async () => {
        await sandboxWiring.ready();
        return { orders: await orders.count('sandbox') };
      },
      scale,
      uploadSettled: (uploadId) => shipping.uploads.settled(uploadId),
      watchFloor: () => floor.floor.watch(),
    },
    services: {
      db, store: engine, storeHealth: store.health, sandbox, sandboxReady: sandboxWiring.ready, clients, keys, orders, lookup, importer: ordering.importer,
      pickedFiles, webhooks, printing: printing.core, floor: floor.floor, ledger: records.ledger, toShip: records.toShip, ship: shipping.ship, uploads: shipping.uploads, scale, retention,
    },
    async start(listeners) {
      // A shift lasts until the station restarts: the screen asks who is packing at each start.
      settings.endShift();
      retention.start();
      if (listeners.webhooks) await webhooks.resume();
      if (listeners.scale) await scale.start();
      // A long-running host reports this bench to the floor and applies the actions sent to it.
      await floor.start();
    },
    async close() {
      await floor.close();
      await retention.stop();
      await scale.close();
      await shipping.uploads.close();
      await printing.close();
      await webhooks.close();
      await supervision.close();
      await store.chosen.close();
      await clients.close();
      if (!options.sandbox) await sandbox.close();
      db.close();
    },
  };
}
