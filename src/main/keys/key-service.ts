/**
 * What the station does with API keys, on top of the keychain: bind each key to the environment's
 * address when it is entered, check one against the service with a harmless call, keep the verdict
 * (never the key) in settings, forget a key when its environment moves to another address, and
 * tell the logger every key it sees so no log line can ever carry one. Nothing here returns a key
 * to the contract.
 */
import { StationError } from '../../shared/errors';
import { sameApiAddress, type KeyedEnvironment } from '../../shared/contract/settings';
import type { DeliveryClient } from '../api';
import type { Logger } from '../logging/logger';
import type { KeyVerification, StationSettings } from '../settings/station-settings';
import type { KeyStore, StoredKey } from './key-store';

export interface KeychainStatus {
  available: boolean;
  message: string | null;
}

export interface EnvironmentKeyStatus {
  environment: KeyedEnvironment;
  keySet: boolean;
  verification: KeyVerification | null;
}

export interface KeysStatus {
  keychain: KeychainStatus;
  environments: EnvironmentKeyStatus[];
}

export interface KeyServiceDeps {
  store: KeyStore;
  settings: StationSettings;
  logger: Logger;
  /** A short-lived client for the environment that sends the given key (refused if bound to another address). */
  clientWithKey(environment: KeyedEnvironment, key: StoredKey): Promise<DeliveryClient>;
  clock?: () => Date;
}

export interface KeyService {
  status(): Promise<KeysStatus>;
  /** Stores the key; with `verify`, only after the service has accepted it. */
  set(environment: KeyedEnvironment, key: string, options?: { verify?: boolean }): Promise<EnvironmentKeyStatus>;
  /** Checks the stored key with a harmless call and remembers the verdict. */
  verify(environment: KeyedEnvironment): Promise<KeyVerification>;
  remove(environment: KeyedEnvironment): Promise<{ environment: KeyedEnvironment; removed: boolean }>;
  /**
   * The environment's address is becoming `address`: a stored key entered for any other address
   * is removed from the keychain (it must be entered again). Answers whether one was removed.
   */
  forgetUnlessBoundTo(environment: KeyedEnvironment, address: string | null): Promise<boolean>;
  /** Whether a key bound to the environment's current address is stored (what "a key is set" means). */
  hasUsableKey(environment: KeyedEnvironment): Promise<boolean>;
  /** The stored key and the address it is bound to, for the Delivery API clients only. */
  readKey(environment: KeyedEnvironment): Promise<StoredKey | null>;
}

const keyedEnvironments: KeyedEnvironment[] = ['test', 'live'];

// Amsterdam's centre: a pickup point search there is read-only, needs no location of the
// company, and any answer (even an empty list) proves the key is accepted.
const harmlessSearch = { lat: 52.3731, lng: 4.8922, maxResults: 1 };

/**
 * How long a key read from the keychain is used again. The Delivery API clients read the key for
 * every call, and each keychain read is a round trip to the OS keychain (4.7 ms median to GNOME
 * Keyring on the test machine) that would sit on every scan before its label's GET. This process's
 * own changes replace the key at once; another process's (the CLI) are seen within this time.
 */
export const KEY_REUSE_MS = 60_000;

export function createKeyService(deps: KeyServiceDeps): KeyService {
  const clock = deps.clock ?? (() => new Date());
  // Main-process memory only, as the key already is while a request is sent; a missing key is not kept.
  const remembered = new Map<KeyedEnvironment, { stored: StoredKey; until: number }>();

  const check = async (environment: KeyedEnvironment, key: StoredKey): Promise<KeyVerification> => {
    const client = await deps.clientWithKey(environment, key);
    const checkedAt = clock().toISOString();
    try {
      await client.searchPickupPoints(harmlessSearch);
      return { outcome: 'accepted', checkedAt, message: `The Delivery API accepted the ${environment} key.` };
    } catch (error) {
      if (error instanceof StationError && error.code === 'KEY_REJECTED') {
        return { outcome: 'rejected', checkedAt, message: `The Delivery API rejected the ${environment} key. Check that it is the ${environment} key, copied whole.` };
      }
      if (error instanceof StationError && error.code === 'FORBIDDEN') {
        return { outcome: 'forbidden', checkedAt, message: `The Delivery API knows the ${environment} key but refused this request with it (HTTP 403). Ask your Delivery Service contact what the key may do.` };
      }
      throw error;
    } finally {
      await client.close();
    }
  };

  // A key bound to another address (or to none, from before keys were bound) is no key here.
  const hasUsableKey = async (environment: KeyedEnvironment): Promise<boolean> => {
    const stored = await deps.store.get(environment);
    return stored !== null && sameApiAddress(stored.address, deps.settings.apiBaseUrl(environment));
  };

  const environmentStatus = async (environment: KeyedEnvironment): Promise<EnvironmentKeyStatus> => ({
    environment,
    keySet: await hasUsableKey(environment),
    verification: deps.settings.keyVerification(environment),
  });

  return {
    async status() {
      try {
        const environments = [];
        for (const environment of keyedEnvironments) environments.push(await environmentStatus(environment));
        return { keychain: { available: true, message: null }, environments };
      } catch (error) {
        if (!(error instanceof StationError) || error.code !== 'KEYCHAIN_UNAVAILABLE') throw error;
        return {
          keychain: { available: false, message: error.message },
          environments: keyedEnvironments.map((environment) => ({ environment, keySet: false, verification: deps.settings.keyVerification(environment) })),
        };
      }
    },

    async set(environment, typed, options = {}) {
      deps.logger.addSecret(typed);
      // The key is bound to the address it is entered for, read once here: were the address to
      // change meanwhile, the key stays bound to this one and is never sent to the other.
      const address = deps.settings.apiBaseUrl(environment);
      if (address === null) {
        throw new StationError(
          'NOT_CONFIGURED',
          `Enter the ${environment} Delivery API address first: the key is kept for that address only. The key was not stored.`,
        );
      }
      const key = { key: typed, address };
      if (options.verify) {
        const verification = await check(environment, key);
        if (verification.outcome !== 'accepted') {
          throw new StationError(verification.outcome === 'rejected' ? 'KEY_REJECTED' : 'FORBIDDEN', `${verification.message} The key was not stored.`);
        }
        await deps.store.set(environment, key);
        remembered.delete(environment);
        deps.settings.setKeyVerification(environment, verification);
      } else {
        await deps.store.set(environment, key);
        remembered.delete(environment);
        deps.settings.setKeyVerification(environment, null);
      }
      deps.logger.info('API key stored in the OS keychain', { environment, address, verified: options.verify === true });
      return environmentStatus(environment);
    },

    async verify(environment) {
      const key = await this.readKey(environment);
      if (key === null) {
        throw new StationError('KEY_MISSING', `No API key is set for the ${environment} environment. Enter it in Setup.`);
      }
      const verification = await check(environment, key);
      deps.settings.setKeyVerification(environment, verification);
      deps.logger.info('API key checked', { environment, outcome: verification.outcome });
      return verification;
    },

    async remove(environment) {
      const removed = await deps.store.remove(environment);
      remembered.delete(environment);
      deps.settings.setKeyVerification(environment, null);
      deps.logger.info('API key removed from the OS keychain', { environment, removed });
      return { environment, removed };
    },

    hasUsableKey,

    async forgetUnlessBoundTo(environment, address) {
      const stored = await this.readKey(environment);
      if (stored === null || sameApiAddress(stored.address, address)) return false;
      const removed = await deps.store.remove(environment);
      remembered.delete(environment);
      deps.settings.setKeyVerification(environment, null);
      deps.logger.warn('API key removed from the OS keychain: it was entered for another address', { environment, boundTo: stored.address, address });
      return removed;
    },

    async readKey(environment) {
      const now = clock().getTime();
      const kept = remembered.get(environment);
      if (kept && now < kept.until) return kept.stored;
      const stored = await deps.store.get(environment);
      if (stored === null) {
        remembered.delete(environment);
        return null;
      }
      deps.logger.addSecret(stored.key);
      remembered.set(environment, { stored, until: now + KEY_REUSE_MS });
      return stored;
    },
  };
}
