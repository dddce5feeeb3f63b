/**
 * Opens the store the bench's `store` setting names, at start. Local: the bench's own SQLite
 * file, through an engine sharing the station's handle. Shared: a PostgreSQL engine whose
 * password is read from the keychain per connection, wrapped so every failure to reach the
 * server is reported to the store's health; the first probe brings the schema up to date. An
 * unreachable store does not stop the station from opening: it opens offline and the probe keeps
 * asking (store-health.ts).
 */
import type { Logger } from '../logging/logger';
import type { StationDatabase } from '../store/database';
import { parseStoreAddress, storeConfig, type PostgresAddress } from '../store/engine/postgres-config';
import { PostgresEngine } from '../store/engine/postgres-engine';
import { SqliteEngine } from '../store/engine/sqlite-engine';
import type { StoreEngine } from '../store/engine/store-engine';
import { keychainPassword, type StorePasswords } from '../store/engine/store-password';
import { localStoreHealth, sharedStoreHealth, watchedEngine, type HealthTimers, type StoreHealth } from '../store/store-health';
import type { StationSettings } from './station-settings';
import { storeProblemOf, type StoreInUse } from './store-choice';

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
  settings: StationSettings;
  db: StationDatabase;
  passwords: StorePasswords;
  logger: Logger;
  applicationName: string;
  health?: StoreHealthOptions;
}

/**
 * The engine's configuration. A certificate authority file that cannot be read must not stop the
 * bench from opening: without it the server's certificate is checked against the system's
 * authorities only, so the connection fails safe (problem "tls") and the log says why.
 */
function readableConfig(address: PostgresAddress, password: () => Promise<string>, logger: Logger) {
  try {
    return storeConfig(address, password);
  } catch (error) {
    logger.error('the shared store\'s certificate authority file cannot be read', { file: address.caFile ?? '', error: error instanceof Error ? error.message : String(error) });
    return storeConfig({ ...address, caFile: null }, password);
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
  const engine = new PostgresEngine({ ...readableConfig(address, password, deps.logger), applicationName: deps.applicationName, connectTimeoutMs: deps.health?.connectTimeoutMs ?? 5_000 });
  const health = sharedStoreHealth({
    // The password first: without one no connection is attempted (a half-made login would linger on the server).
    probe: async () => {
      await password();
      await engine.migrate();
    },
    heartbeat: async () => {
      await engine.query('SELECT 1');
    },
    problemOf: (error) => storeProblemOf(error, address),
    onWorkFailed: (error) => deps.logger.warn('work waiting for the shared store failed', { error: error instanceof Error ? error.message : String(error) }),
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
