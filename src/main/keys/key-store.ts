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

export function createKeychainKeyStore(service: string): KeyStore {
  const entry = (environment: KeyedEnvironment) => new AsyncEntry(service, `api-key:${environment}`);
  const unavailable = (error: unknown) =>
    new StationError(
      'KEYCHAIN_UNAVAILABLE',
      'The OS keychain could not be reached, so the API key cannot be stored or read. On Linux, start a Secret Service (such as GNOME Keyring) and unlock it.',
      undefined,
      { cause: error },
    );
  return {
    async has(environment) {
      return (await this.get(environment)) !== null;
    },
    async get(environment) {
      try {
        return await entry(environment).getPassword();
      } catch (error) {
        throw unavailable(error);
      }
    },
    async set(environment, key) {
      try {
        await entry(environment).setPassword(key);
      } catch (error) {
        throw unavailable(error);
      }
    },
    async remove(environment) {
      try {
        return await entry(environment).deleteCredential();
      } catch (error) {
        throw unavailable(error);
      }
    },
  };
}
