import { composeStation, type Station, type StationOptions } from '../../src/main/composition';
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
