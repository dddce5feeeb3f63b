/**
 * The shared store's password in the real OS keychain (gnome-keyring's Secret Service, started by
 * scripts/with-keyring.sh): the engine opens the store with the password read from the entry of
 * that address, and finds none for another server.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { StationError } from '../../../src/shared/errors';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import { parseStoreAddress, storeConfig } from '../../../src/main/store/engine/postgres-config';
import { createKeychainStorePasswords, keychainPassword } from '../../../src/main/store/engine/store-password';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';

describe('the shared store password in the OS keychain', () => {
  const passwords = createKeychainStorePasswords(`packing-station-test-${randomBytes(6).toString('hex')}`);
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(inject('postgres'));
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('opens the store with the password filed under its address, and keeps it out of the address', async () => {
    const { port, user, database: name, password } = database.info;
    const address = parseStoreAddress(`postgres://${user}@127.0.0.1:${port}/${name}?sslmode=disable`);
    await passwords.set(address, password);
    try {
      const config = await storeConfig(address, keychainPassword(passwords, address));
      expect(JSON.stringify({ ...config, password: undefined })).not.toContain(password);
      const engine = await PostgresEngine.open(config);
      try {
        expect(await engine.query('SELECT current_user AS who')).toEqual([{ who: user }]);
      } finally {
        await engine.close();
      }
    } finally {
      expect(await passwords.remove(address)).toBe(true);
    }
  });

  it('finds no password for another server (the entry is bound to the address): NOT_CONFIGURED, nothing sent', async () => {
    const { port, user, database: name, password } = database.info;
    const entered = parseStoreAddress(`postgres://${user}@127.0.0.1:${port}/${name}?sslmode=disable`);
    await passwords.set(entered, password);
    try {
      const elsewhere = { ...entered, database: 'postgres' };
      const refusal = await PostgresEngine.open(await storeConfig(elsewhere, keychainPassword(passwords, elsewhere))).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(StationError);
      expect((refusal as StationError).code).toBe('NOT_CONFIGURED');
      expect((refusal as StationError).details).toEqual([`store-password:postgres://${user}@127.0.0.1:${port}/postgres`]);
    } finally {
      await passwords.remove(entered);
    }
  });
});
