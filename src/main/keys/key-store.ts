import { AsyncEntry } from '@napi-rs/keyring';
import type { Environment } from '../../shared/contract/app';
import { StationError } from '../../shared/errors';

/** Environments that take a key: the sandbox has its own, known to the station. */
export type KeyedEnvironment = Exclude<Environment, 'sandbox'>;

/**
 * The API key of each environment, kept in the OS keychain (macOS Keychain, Windows Credential
 * Manager, Linux Secret Service). The key is read per use and never written anywhere else.
 */
export interface KeyStore {
  has(environment: KeyedEnvironment): Promise<boolean>;
  get(environment: KeyedEnvironment): Promise<string | null>;
  set(environment: KeyedEnvironment, key: string): Promise<void>;
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
    get: (environment) => withEntry(environment, (entry) => entry.getPassword()),
    set: (environment, key) => withEntry(environment, (entry) => entry.setPassword(key)),
    remove: (environment) => withEntry(environment, (entry) => entry.deleteCredential()),
  };
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').slice(0, 300);
}
