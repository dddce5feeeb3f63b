/**
 * The shared store's password in the OS keychain, filed under the address it was entered for
 * (postgres-config.ts, keychainAccount): user, server and database are the entry's name, so the
 * password can only ever be read for that server. The engine reads it through keychainPassword
 * each time it opens a connection, so a password changed by IT takes effect without a restart.
 * Like API keys, the entry is pinned to the Secret Service on Linux (never the kernel keyring,
 * which forgets at reboot).
 */
import { AsyncEntry } from '@napi-rs/keyring';
import { StationError } from '../../../shared/errors';
import { keychainUnavailableMessage } from '../../keys/key-store';
import { keychainAccount, type PostgresAddress } from './postgres-config';
import { errorText } from '../../../shared/error-text';

type StoreServer = Pick<PostgresAddress, 'user' | 'host' | 'port' | 'database'>;

export interface StorePasswords {
  get(address: StoreServer): Promise<string | null>;
  set(address: StoreServer, password: string): Promise<void>;
  remove(address: StoreServer): Promise<boolean>;
}

export function createKeychainStorePasswords(service: string, platform: NodeJS.Platform = process.platform): StorePasswords {
  const entryOptions = platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;
  const withEntry = async <T>(address: StoreServer, use: (entry: AsyncEntry) => Promise<T>): Promise<T> => {
    try {
      return await use(new AsyncEntry(service, keychainAccount(address), entryOptions));
    } catch (error) {
      const said = errorText(error).replace(/\s+/g, ' ').slice(0, 300);
      throw new StationError('KEYCHAIN_UNAVAILABLE', keychainUnavailableMessage, [`keychain said: ${said}`], { cause: error });
    }
  };
  return {
    get: async (address) => (await withEntry(address, (entry) => entry.getPassword())) ?? null,
    set: (address, password) => withEntry(address, (entry) => entry.setPassword(password)),
    remove: (address) => withEntry(address, (entry) => entry.deleteCredential()),
  };
}

/** The engine's password: read from the keychain per connection; none stored is NOT_CONFIGURED. */
export function keychainPassword(passwords: StorePasswords, address: StoreServer): () => Promise<string> {
  return async () => {
    const password = await passwords.get(address);
    if (password === null) {
      throw new StationError('NOT_CONFIGURED', `No password is stored for the shared store ${keychainAccount(address).replace(/^store-password:/, '')}.`, [
        keychainAccount(address),
      ]);
    }
    return password;
  };
}
