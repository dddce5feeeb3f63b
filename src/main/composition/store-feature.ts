/**
 * The store feature: the store the order index, the journal, the printers, the ledgers and the
 * webhook intake live in, its health, and the store choice the screen changes it with.
 */
import type { EventBus } from '../contract/event-bus';
import { storeHandlers } from '../handlers/store';
import type { Logger } from '../logging/logger';
import type { LocalOnlyPrinting } from '../printing/offline/local-only-printing';
import { benchFileBeside, type ChosenStore, createKeychainStorePasswords, createStorePlace, createStoreChoice, isUnreachable, localStoreHealth, openChosenStore, type StationDatabase, type StoreEngine, type StoreHealth, type StoreHealthOptions, type StorePasswords, type StorePlace } from '../store';
import type { StationSettings } from '../settings/station-settings';

export interface StoreFeatureDeps {
  settings: StationSettings;
  db: StationDatabase;
  events: EventBus;
  logger: Logger;
  keychainService: string;
  /** A store the caller opened (and closes); otherwise the one the `store` setting names. */
  given?: StoreEngine;
  passwords?: StorePasswords;
  health?: StoreHealthOptions;
}

export interface StoreFeature {
  readonly chosen: ChosenStore;
  readonly engine: StoreEngine;
  /** Beside a warehouse's shared store, the bench's own file (its order copy, and its journal while local-only printing lasts); null on one bench. */
  readonly benchFile: StoreEngine | null;
  /** Where the print journal writes for a call: the shared store, or the bench's own file while local-only printing lasts. */
  readonly place: StorePlace;
  readonly health: StoreHealth;
  readonly passwords: StorePasswords;
  /**
   * Runs work that needs the store at start now, or once it answers when the shared store is
   * offline (or goes offline under it): the station opens all the same.
   */
  onceReachable(work: () => Promise<void>): Promise<void>;
}

export async function openStoreFeature(deps: StoreFeatureDeps): Promise<StoreFeature> {
  const { settings, db, events, logger } = deps;
  // The bench's own file (an engine sharing the station's libsql handle) or the warehouse's shared
  // PostgreSQL store. An injected store (`webhooks serve --store`, tests) is closed by whoever opened it.
  const passwords = deps.passwords ?? createKeychainStorePasswords(deps.keychainService);
  const given = deps.given;
  const chosen: ChosenStore = given
    ? { engine: given, health: localStoreHealth(), inUse: { kind: given.sharedByBenches ? 'postgres' : 'local', address: null }, close: async () => undefined }
    : await openChosenStore({ settings, db, passwords, logger, applicationName: `packing-station ${settings.stationName()}`, health: deps.health });
  const health = chosen.health;
  health.onChange((current) => events.emit('store.health', current));
  const onceReachable = async (work: () => Promise<void>) => {
    if (health.current().state === 'offline') return health.whenOnline(work);
    try {
      await work();
    } catch (error) {
      if (!isUnreachable(error) || health.current().state === 'local') throw error;
      health.whenOnline(work);
    }
  };
  return { chosen, engine: chosen.engine, benchFile: benchFileBeside(chosen.engine, db), place: createStorePlace(), health, passwords, onceReachable };
}

/** The store calls: choosing the store, and printing on the bench's own file while it is offline. */
export function storeFeatureHandlers(store: StoreFeature, localOnly: LocalOnlyPrinting, settings: StationSettings): ReturnType<typeof storeHandlers> {
  const choice = createStoreChoice({
    settings,
    passwords: store.passwords,
    inUse: store.chosen.inUse,
    health: store.health,
    applicationName: () => `packing-station ${settings.stationName()}`,
  });
  return storeHandlers(choice, localOnly, settings);
}
