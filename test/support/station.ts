import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeStation, type Station, type StationOptions } from '../../src/main/composition';
import type { KeyStore, StoredKey } from '../../src/main/keys/key-store';
import { createLogger } from '../../src/main/logging/logger';

/**
 * A key store held in memory, for tests that are not about the keychain itself. Like the keychain,
 * it keeps each key with the address it was entered for.
 */
export function memoryKeyStore(initial: Partial<Record<'test' | 'live', StoredKey>> = {}): KeyStore {
  const keys = new Map<string, StoredKey>(Object.entries(initial));
  return {
    has: async (environment) => keys.has(environment),
    get: async (environment) => keys.get(environment) ?? null,
    set: async (environment, stored) => void keys.set(environment, { ...stored }),
    remove: async (environment) => keys.delete(environment),
  };
}

export interface TestStation {
  station: Station;
  dataDir: string;
  logLines: string[];
  dispose(): Promise<void>;
}

/** The station's real composition root over a fresh temporary data folder. */
export async function createTestStation(overrides: Partial<StationOptions> = {}): Promise<TestStation> {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-test-'));
  const logLines: string[] = [];
  const station = await composeStation({
    dataDir,
    host: 'web',
    version: '0.0.0-test',
    logger: createLogger((line) => logLines.push(line), { level: 'debug' }),
    keyStore: memoryKeyStore(),
    ...overrides,
  });
  return {
    station,
    dataDir,
    logLines,
    async dispose() {
      await station.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
