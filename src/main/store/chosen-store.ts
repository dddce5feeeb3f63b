/**
 * Opens the store the bench's `store` setting names, at start. Local: the bench's own SQLite
 * file, through an engine sharing the station's handle. Shared: a PostgreSQL engine whose
 * password is read from the keychain per connection, wrapped so every failure to reach the
 * server is reported to the store's health; the first probe brings the schema up to date. An
 * unreachable store does not stop the station from opening: it opens offline and the probe keeps
 * asking (store-health.ts).
 */
import type { Logger } from '../logging/logger';
import type { StationDatabase } from './database';
import { StationError } from '../../shared/errors';
import { parseStoreAddress, storeConfig, unverifiedServerRefusal, verifiesServer, type PostgresAddress, type PostgresStoreConfig } from './engine/postgres-config';
import { postgres } from './engine/dialect';
import { PostgresEngine } from './engine/postgres-engine';
import { SqliteEngine } from './engine/sqlite-engine';
import type { StoreEngine } from './engine/store-engine';
import { keychainPassword, type StorePasswords } from './engine/store-password';
import { localStoreHealth, sharedStoreHealth, watchedEngine, type HealthTimers, type StoreHealth } from './store-health';
import { storeProblemOf, type StoreInUse, type StoreSettingKept } from './store-choice';
import { errorText } from '../../shared/error-text';

export interface StoreHealthOptions {
  timers?: HealthTimers;
  clock?: () => Date;
  probeIntervalMs?: number;
  heartbeatIntervalMs?: number;
  /** Giving up on one connection attempt. Default 5 s. */
  connectTimeoutMs?: number;
}

export interface ChosenStore {
  /** The engine the repositories get. */
  engine: StoreEngine;
  health: StoreHealth;
  inUse: StoreInUse;
  close(): Promise<void>;
}

export interface ChosenStoreDeps {
  settings: Pick<StoreSettingKept, 'store'>;
  db: StationDatabase;
  passwords: StorePasswords;
  logger: Logger;
  applicationName: string;
  health?: StoreHealthOptions;
}

/**
 * An engine that never connects: the store setting cannot be used as saved (its certificate
 * authority file cannot be read, or its sslmode does not check the server and no lead chose that).
 * Every call answers STORE_UNAVAILABLE with why, so the bench opens offline and says so, and no
 * password goes anywhere.
 */
function refusingEngine(why: StationError): StoreEngine {
  const refuse = async (): Promise<never> => {
    throw new StationError('STORE_UNAVAILABLE', why.message, why.details, { cause: why, facts: why.facts });
  };
  return {
    kind: 'postgres',
    dialect: postgres,
    commitCanSkipDiskWait: false,
    sharedByBenches: true,
    outsideWritesVersion: async () => null,
    query: refuse,
    execute: refuse,
    executeWithoutDiskWait: refuse,
    transaction: refuse,
    notify: refuse,
    subscribe: refuse,
    close: async () => undefined,
  };
}

/** Why the saved setting cannot be used at all, or the engine's configuration. Never throws for a bad setting. */
async function usableConfig(setting: { acceptUnverifiedServer?: boolean }, address: PostgresAddress, password: () => Promise<string>): Promise<PostgresStoreConfig | StationError> {
  if (!verifiesServer(address) && setting.acceptUnverifiedServer !== true) return unverifiedServerRefusal(address);
  try {
    return await storeConfig(address, password);
  } catch (error) {
    if (error instanceof StationError) return error;
    throw error;
  }
}

export async function openChosenStore(deps: ChosenStoreDeps): Promise<ChosenStore> {
  const setting = deps.settings.store();
  if (setting.kind === 'local') {
    const engine = new SqliteEngine(deps.db, false);
    return { engine, health: localStoreHealth(), inUse: { kind: 'local', address: null }, close: () => engine.close() };
  }
  const address = parseStoreAddress(setting.address);
  const password = keychainPassword(deps.passwords, address);
  const config = await usableConfig(setting, address, password);
  if (config instanceof StationError) {
    deps.logger.error('the shared store setting cannot be used: the bench stays offline until it is changed', { server: `${address.host}:${address.port}`, reason: config.message });
  }
  const postgres = config instanceof StationError ? null : new PostgresEngine({ ...config, applicationName: deps.applicationName, connectTimeoutMs: deps.health?.connectTimeoutMs ?? 5_000 });
  const engine: StoreEngine = postgres ?? refusingEngine(config as StationError);
  const health = sharedStoreHealth({
    // The password first: without one no connection is attempted (a half-made login would linger on the server).
    probe: async () => {
      if (!postgres) throw config;
      await password();
      await postgres.migrate();
    },
    heartbeat: async () => {
      await engine.query('SELECT 1');
    },
    problemOf: (error) => storeProblemOf(error, address),
    onWorkFailed: (error) => deps.logger.warn('work waiting for the shared store failed', { error: errorText(error) }),
    ...deps.health,
  });
  health.onChange((state) => {
    if (state.state === 'offline') deps.logger.warn('shared store offline: printing is refused until it answers', { server: `${address.host}:${address.port}`, problem: state.problem });
    else deps.logger.info('shared store reachable', { server: `${address.host}:${address.port}` });
  });
  await health.start();
  return {
    engine: watchedEngine(engine, health),
    health,
    inUse: { kind: 'postgres', address: setting.address },
    async close() {
      health.close();
      await engine.close();
    },
  };
}
