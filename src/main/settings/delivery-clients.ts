/**
 * One Delivery API client per environment, built from the station's settings: the embedded
 * sandbox for 'sandbox', the configured address and the keychain's key for 'test' and 'live'.
 * A client is rebuilt when its address changes; the key is read from the keychain on every call,
 * so a new key takes effect at once and is never cached here.
 */
import type { Environment } from '../../shared/contract/app';
import { StationError } from '../../shared/errors';
import { createDeliveryClient, type DeliveryClient, type DeliveryClientOptions } from '../api';
import type { KeyedEnvironment } from '../keys/key-store';
import type { Logger } from '../logging/logger';
import type { StationSettings } from './station-settings';

/** Where the embedded sandbox's API answers, and the key of its demo company. */
export interface SandboxApi {
  baseUrl: string;
  apiKey: string;
}

export interface DeliveryClientsDeps {
  settings: StationSettings;
  /** Reads an environment's key from the keychain (and tells the logger to redact it). */
  readKey(environment: KeyedEnvironment): Promise<string | null>;
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
  /** A short-lived client that sends `key` instead of the stored one (to check a key before keeping it). Close it after use. */
  withKey(environment: KeyedEnvironment, key: string): Promise<DeliveryClient>;
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

  const keyReader = (environment: Environment) => async (): Promise<string | null> =>
    environment === 'sandbox' ? (await deps.sandboxApi()).apiKey : deps.readKey(environment);

  return {
    async forEnvironment(environment) {
      const baseUrl = await baseUrlFor(environment);
      const cached = cache.get(environment);
      if (cached && cached.baseUrl === baseUrl) return cached.client;
      if (cached) void cached.client.close();
      const raw = build(environment, baseUrl, keyReader(environment));
      const client = deps.decorate ? deps.decorate(environment, raw) : raw;
      cache.set(environment, { baseUrl, client });
      return client;
    },
    async withKey(environment, key) {
      return build(environment, await baseUrlFor(environment), async () => key);
    },
    async close() {
      const clients = [...cache.values()].map((entry) => entry.client);
      cache.clear();
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}
