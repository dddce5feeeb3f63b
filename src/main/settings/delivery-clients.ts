/**
 * One Delivery API client per environment, built from the station's settings: the embedded
 * sandbox for 'sandbox', the configured address and the keychain's key for 'test' and 'live'.
 * A client is rebuilt when its address changes; the key is read from the keychain on every call,
 * so a new key takes effect at once and is never cached here.
 *
 * A key goes only to the address it was entered for: each read compares the key's bound address
 * with the address this client sends to, and a mismatch sends nothing. This holds whatever changed
 * the settings (a contract call, another process on the same database, a hand-edited file).
 */
import type { Environment } from '../../shared/contract/app';
import { canonicalApiAddress, sameApiAddress } from '../../shared/contract/settings';
import { StationError } from '../../shared/errors';
import { createDeliveryClient, type DeliveryClient, type DeliveryClientOptions } from '../api';
import type { KeyedEnvironment, StoredKey } from '../keys/key-store';
import type { Logger } from '../logging/logger';
import type { StationSettings } from './station-settings';

/** Where the embedded sandbox's API answers, and the key of its demo company. */
export interface SandboxApi {
  baseUrl: string;
  apiKey: string;
}

export interface DeliveryClientsDeps {
  settings: StationSettings;
  /** Reads an environment's key and its bound address from the keychain (and tells the logger to redact it). */
  readKey(environment: KeyedEnvironment): Promise<StoredKey | null>;
  /** Starts the embedded sandbox on first use. */
  sandboxApi(): Promise<SandboxApi>;
  logger: Logger;
  /** Wraps each client built, for example so the order index learns from its answers. */
  decorate?(environment: Environment, client: DeliveryClient): DeliveryClient;
  /** Test knobs: retry budgets, timeouts. */
  clientOptions?: Partial<Pick<DeliveryClientOptions, 'retry' | 'timeouts' | 'labelWait' | 'concurrency'>>;
}

export interface DeliveryClients {
  forEnvironment(environment: Environment): Promise<DeliveryClient>;
  /**
   * A short-lived client that sends `key` instead of the stored one (to check a key before keeping
   * it). Refused unless the key's address is the environment's address. Close it after use.
   */
  withKey(environment: KeyedEnvironment, key: StoredKey): Promise<DeliveryClient>;
  close(): Promise<void>;
}

export function createDeliveryClients(deps: DeliveryClientsDeps): DeliveryClients {
  const cache = new Map<Environment, { baseUrl: string; client: DeliveryClient }>();

  const baseUrlFor = async (environment: Environment): Promise<string> => {
    if (environment === 'sandbox') return (await deps.sandboxApi()).baseUrl;
    const url = deps.settings.apiBaseUrl(environment);
    if (!url) {
      throw new StationError(
        'NOT_CONFIGURED',
        `No Delivery API address is set for the ${environment} environment. Enter it in Setup (it is the address your Delivery Service contact gave you).`,
      );
    }
    return url;
  };

  const build = (environment: Environment, baseUrl: string, getApiKey: () => Promise<string | null>): DeliveryClient =>
    createDeliveryClient({ ...deps.clientOptions, baseUrl, getApiKey, environment, logger: deps.logger });

  const keyReader = (environment: Environment, baseUrl: string) => async (): Promise<string | null> => {
    if (environment === 'sandbox') return (await deps.sandboxApi()).apiKey;
    const stored = await deps.readKey(environment);
    return stored === null ? null : keyFor(environment, stored, baseUrl);
  };

  /** The key, when it was entered for this very address; otherwise nothing is sent and the user is told why. */
  const keyFor = (environment: KeyedEnvironment, stored: StoredKey, baseUrl: string): string => {
    if (sameApiAddress(stored.address, baseUrl)) return stored.key;
    deps.logger.warn('API key not sent: it was entered for another address', {
      environment,
      boundTo: stored.address === null ? null : canonicalApiAddress(stored.address),
      address: canonicalApiAddress(baseUrl),
    });
    throw new StationError(
      'KEY_MISSING',
      `The ${environment} API key was entered for ${stored.address === null ? 'no recorded address' : canonicalApiAddress(stored.address)}, not for ${canonicalApiAddress(baseUrl)}. ` +
        'A key is only sent to the address it was entered for: enter the key again in Setup. Nothing was sent.',
    );
  };

  return {
    async forEnvironment(environment) {
      const baseUrl = await baseUrlFor(environment);
      const cached = cache.get(environment);
      if (cached && cached.baseUrl === baseUrl) return cached.client;
      if (cached) void cached.client.close();
      const raw = build(environment, baseUrl, keyReader(environment, baseUrl));
      const client = deps.decorate ? deps.decorate(environment, raw) : raw;
      cache.set(environment, { baseUrl, client });
      return client;
    },
    async withKey(environment, key) {
      const baseUrl = await baseUrlFor(environment);
      const checked = keyFor(environment, key, baseUrl);
      return build(environment, baseUrl, async () => checked);
    },
    async close() {
      const clients = [...cache.values()].map((entry) => entry.client);
      cache.clear();
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}
