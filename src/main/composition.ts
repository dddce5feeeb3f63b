/**
 * The composition root: the one place that builds every service of the station from its
 * settings and hands each its dependencies. The Electron shell, the web host, the CLI and the
 * tests all build the same graph through here, with their own data folder and host.
 */
import { join } from 'node:path';
import { createDispatcher, type Dispatcher, type Handlers } from './contract/dispatcher';
import { createEventBus, type EventBus } from './contract/event-bus';
import { appHandlers } from './handlers/app';
import { createKeychainKeyStore, type KeyStore } from './keys/key-store';
import type { Logger } from './logging/logger';
import { StationSettings } from './settings/station-settings';
import { openDatabase, type StationDatabase } from './store/database';
import { SettingsRepository } from './store/settings-repository';
import { noPrintActivity, type PrintActivity } from './updates/print-activity';

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
}

export interface Station {
  readonly dispatcher: Dispatcher;
  readonly events: EventBus;
  readonly logger: Logger;
  readonly settings: StationSettings;
  /** The shell's updater installs only while this says every print queue is idle. */
  readonly printActivity: PrintActivity;
  close(): Promise<void>;
}

export async function composeStation(options: StationOptions): Promise<Station> {
  const { logger } = options;
  const db: StationDatabase = openDatabase(join(options.dataDir, 'station.db'));
  const settings = new StationSettings(new SettingsRepository(db));
  const keys = options.keyStore ?? createKeychainKeyStore(options.keychainService ?? 'packing-station');
  const events = createEventBus(logger);

  const handlers: Handlers = {
    ...appHandlers({ name: productName, version: options.version, host: options.host, settings, keys }),
  };

  return {
    dispatcher: createDispatcher(handlers, logger),
    events,
    logger,
    settings,
    printActivity: options.printActivity ?? noPrintActivity,
    async close() {
      db.close();
    },
  };
}
