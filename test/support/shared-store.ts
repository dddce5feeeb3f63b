import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeStation, type Station, type StationOptions } from '../../src/main/composition';
import type { EventName, EventPayload } from '../../src/shared/contract';
import type { StoreStatus } from '../../src/shared/contract/store';
import { createLogger } from '../../src/main/logging/logger';
import { keychainAccount } from '../../src/main/store/engine/postgres-config';
import type { StorePasswords } from '../../src/main/store/engine/store-password';
import type { PostgresServerInfo } from './postgres-server';
import { memoryKeyStore } from './station';

/** Store passwords held in memory, filed like the keychain's: under the address they were entered for. */
export function memoryStorePasswords(): StorePasswords & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    get: async (address) => entries.get(keychainAccount(address)) ?? null,
    set: async (address, password) => void entries.set(keychainAccount(address), password),
    remove: async (address) => entries.delete(keychainAccount(address)),
  };
}

/** The address an admin would type for a test database (plain TCP on loopback). */
export const storeAddressOf = (info: PostgresServerInfo) => `postgres://${info.user}@${info.host}:${info.port}/${info.database}?sslmode=disable`;

/** The station's composition root over a data folder, as the app opens it at start. */
export function openStationIn(dataDir: string, overrides: Partial<StationOptions> = {}): Promise<Station> {
  return composeStation({ dataDir, host: 'web', version: '0.0.0-test', logger: createLogger(() => undefined, { level: 'error' }), keyStore: memoryKeyStore(), ...overrides });
}

/** A call through the contract as the screen makes it; throws with the station's error when refused. */
export async function call<T>(station: Station, name: string, input: unknown): Promise<T> {
  const result = await station.dispatcher.dispatch(name, input, { host: 'web' });
  if (!result.ok) throw Object.assign(new Error(`${name}: ${result.error.code} ${result.error.message}`), { data: result.error });
  return result.value as T;
}

/** The error a call answers with (throws when it succeeds). */
export async function refusal(station: Station, name: string, input: unknown) {
  const result = await station.dispatcher.dispatch(name, input, { host: 'web' });
  if (result.ok) throw new Error(`${name} succeeded: ${JSON.stringify(result.value)}`);
  return result.error;
}

/** The next event of that name matching `match`, heard from now on. */
export function nextEvent<E extends EventName>(station: Station, name: E, match: (payload: EventPayload<E>) => boolean, timeoutMs = 30_000): Promise<EventPayload<E>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no ${name} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const stop = station.events.subscribe((heard, payload) => {
      if (heard !== name || !match(payload as EventPayload<E>)) return;
      clearTimeout(timer);
      stop();
      resolve(payload as EventPayload<E>);
    });
  });
}

/**
 * A bench whose admin chose the store at `info`: the choice is saved on a first opening (local),
 * as `settings set store` does, and the bench opened again, as at its next start; the store's
 * health is asked every 100 ms. `opened` hears the station and its data folder, for the caller to
 * close and remove, and how to open the bench again (its next start).
 */
export async function benchOnStore(
  info: PostgresServerInfo,
  options: Partial<StationOptions>,
  opened: (station: Station, dataDir: string, openAgain: () => Promise<Station>) => void,
): Promise<Station> {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-bench-'));
  const passwords = memoryStorePasswords();
  const first = await openStationIn(dataDir, { storePasswords: passwords });
  try {
    const saved = await call<StoreStatus>(first, 'store.set', { kind: 'postgres', address: storeAddressOf(info), password: info.password, acceptUnverifiedServer: true });
    if (saved.chosen.kind !== 'postgres' || !saved.restartNeeded) throw new Error(`the store choice was not saved: ${JSON.stringify(saved)}`);
  } finally {
    await first.close();
  }
  const open = () => openStationIn(dataDir, { storePasswords: passwords, storeHealth: { probeIntervalMs: 100, heartbeatIntervalMs: 100, connectTimeoutMs: 2_000 }, ...options });
  const station = await open();
  opened(station, dataDir, open);
  return station;
}
