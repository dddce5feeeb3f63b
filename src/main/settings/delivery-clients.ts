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

/** What a client needs whichever key it sends: the environment's address, the sandbox, the knobs. */
export interface KeyCheckClientsDeps {
  settings: StationSettings;
  /** Starts the embedded sandbox on first use. */
  sandboxApi(): Promise<SandboxApi>;
  logger: Logger;
  /** Test knobs: retry budgets, timeouts. */
  clientOptions?: Partial<Pick<DeliveryClientOptions, 'retry' | 'timeouts' | 'labelWait' | 'concurrency'>>;
}

export interface DeliveryClientsDeps extends KeyCheckClientsDeps {
  /** Reads an environment's key and its bound address from the keychain (and tells the logger to redact it). */
  readKey(environment: KeyedEnvironment): Promise<StoredKey | null>;
  /** Wraps each client built, for example so the order index learns from its answers. */
  decorate?(environment: Environment, client: DeliveryClient): DeliveryClient;
}

/**
 * Clients that send a key they are given rather than the stored one. They read no key, so the key
 * service (which checks a key with one before keeping it) is built before the clients that read
 * keys through it.
 */
export interface KeyCheckClients {
  /**
   * A short-lived client that sends `key` instead of the stored one (to check a key before keeping
   * it). Refused unless the key's address is the environment's address. Close it after use.
   */
  withKey(environment: KeyedEnvironment, key: StoredKey): Promise<DeliveryClient>;
}

export interface DeliveryClients extends KeyCheckClients {
  forEnvironment(environment: Environment): Promise<DeliveryClient>;
  close(): Promise<void>;
}

/** Addressing and key checks shared by both kinds of client. */
function clientBuilding(deps: KeyCheckClientsDeps) {
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
    baseUrlFor,
    build,
    keyFor,
    async withKey(environment: KeyedEnvironment, key: StoredKey): Promise<DeliveryClient> {
      const baseUrl = await baseUrlFor(environment);
      const checked = keyFor(environment, key, baseUrl);
      return build(environment, baseUrl, async () => checked);
    },
  };
}

export function createKeyCheckClients(deps: KeyCheckClientsDeps): KeyCheckClients {
  const { withKey } = clientBuilding(deps);
  return { withKey };
}

export function createDeliveryClients(deps: DeliveryClientsDeps): DeliveryClients {
  const cache = new Map<Environment, { baseUrl: string; client: DeliveryClient }>();
  const { baseUrlFor, build, keyFor, withKey } = clientBuilding(deps);

  const keyReader = (environment: Environment, baseUrl: string) => async (): Promise<string | null> => {
    if (environment === 'sandbox') return (await deps.sandboxApi()).apiKey;
    const stored = await deps.readKey(environment);
    return stored === null ? null : keyFor(environment, stored, baseUrl);
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
    withKey,
    async close() {
      const clients = [...cache.values()].map((entry) => entry.client);
      cache.clear();
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}
