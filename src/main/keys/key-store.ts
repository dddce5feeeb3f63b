import { AsyncEntry } from '@napi-rs/keyring';
import { z } from 'zod';
import type { Environment } from '../../shared/contract/app';
import { StationError } from '../../shared/errors';
import { errorText } from '../../shared/error-text';

/** Environments that take a key: the sandbox has its own, known to the station. */
export type KeyedEnvironment = Exclude<Environment, 'sandbox'>;

/**
 * An API key and the Delivery API address it was entered for. The station sends the key to that
 * address only: a key whose address is null (stored before keys were bound) is sent nowhere.
 */
export interface StoredKey {
  key: string;
  address: string | null;
}

/**
 * The API key of each environment, kept in the OS keychain (macOS Keychain, Windows Credential
 * Manager, Linux Secret Service) together with the address it is bound to, in one entry, so the
 * two can never be changed apart. The key is never written anywhere else (the key service keeps
 * a read key in memory for a minute: key-service.ts).
 */
export interface KeyStore {
  has(environment: KeyedEnvironment): Promise<boolean>;
  get(environment: KeyedEnvironment): Promise<StoredKey | null>;
  set(environment: KeyedEnvironment, stored: StoredKey & { address: string }): Promise<void>;
  remove(environment: KeyedEnvironment): Promise<boolean>;
}

export interface KeychainKeyStoreOptions {
  /** The keychain's service name the entries are filed under. */
  service: string;
  platform?: NodeJS.Platform;
}

export const keychainUnavailableMessage =
  'No persistent OS keychain is available, so the API key cannot be stored or read. The station keeps API keys nowhere else. ' +
  'On Linux, run a Secret Service (such as GNOME Keyring) in the desktop session and unlock it; on macOS and Windows, sign in to the user account the station runs under.';

/** What the keychain entry's secret holds: the key and its address as one JSON value. */
const KeychainSecretSchema = z.object({ v: z.literal(1), key: z.string().min(1), address: z.string().min(1) }).strict();

export function encodeKeychainSecret(stored: StoredKey & { address: string }): string {
  return JSON.stringify({ v: 1, key: stored.key, address: stored.address });
}

/**
 * Reads an entry's secret. Anything that is not the bound form is an entry written before keys
 * were bound to their address: its key is kept (so it can be removed and redacted) but bound to
 * no address, so the station sends it nowhere until it is entered again.
 */
export function decodeKeychainSecret(secret: string): StoredKey {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(secret);
  } catch {
    // A bare key, as earlier versions stored it.
  }
  const bound = KeychainSecretSchema.safeParse(parsed);
  return bound.success ? { key: bound.data.key, address: bound.data.address } : { key: secret, address: null };
}

/**
 * On Linux the keyring library would fall back to the kernel keyring when no Secret Service
 * answers; that keyring forgets everything at reboot, so the entry is pinned to the Secret
 * Service and its absence is an error the user sees, never a silent fallback.
 */
export function createKeychainKeyStore(options: KeychainKeyStoreOptions | string): KeyStore {
  const { service, platform = process.platform } = typeof options === 'string' ? { service: options } : options;
  const entryOptions = platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;

  const unavailable = (error: unknown) =>
    new StationError('KEYCHAIN_UNAVAILABLE', keychainUnavailableMessage, [`keychain said: ${describe(error)}`], { cause: error });

  const withEntry = async <T>(environment: KeyedEnvironment, use: (entry: AsyncEntry) => Promise<T>): Promise<T> => {
    try {
      // Constructing the entry already contacts the store on Linux, so it is inside the guard.
      return await use(new AsyncEntry(service, `api-key:${environment}`, entryOptions));
    } catch (error) {
      throw unavailable(error);
    }
  };

  return {
    async has(environment) {
      return (await this.get(environment)) !== null;
    },
    get: async (environment) => {
      const secret = await withEntry(environment, (entry) => entry.getPassword());
      return secret === null || secret === undefined ? null : decodeKeychainSecret(secret);
    },
    set: (environment, stored) => withEntry(environment, (entry) => entry.setPassword(encodeKeychainSecret(stored))),
    remove: (environment) => withEntry(environment, (entry) => entry.deleteCredential()),
  };
}

function describe(error: unknown): string {
  const text = errorText(error);
  return text.replace(/\s+/g, ' ').slice(0, 300);
}
