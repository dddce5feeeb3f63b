/**
 * The delivery feature: the API keys and the Delivery API client of each environment, through
 * which every other service reaches the service at the moment it needs it.
 */
import type { Environment } from '../../shared/contract/app';
import type { DeliveryClient } from '../api';
import type { EmbeddedSandbox } from '../embedded-sandbox';
import { keysHandlers } from '../handlers/keys';
import { createKeyService, type KeyService } from '../keys/key-service';
import type { KeyStore } from '../keys/key-store';
import type { Logger } from '../logging/logger';
import { createLearningClient } from '../orders/learning-client';
import type { OrderIndex } from '../orders/order-index';
import type { SandboxWiring } from '../sandbox-wiring';
import { createDeliveryClients, createKeyCheckClients, type DeliveryClients, type DeliveryClientsDeps } from '../settings/delivery-clients';
import type { StationSettings } from '../settings/station-settings';

export interface DeliveryFeatureDeps {
  settings: StationSettings;
  logger: Logger;
  keyStore: KeyStore;
  sandbox: EmbeddedSandbox;
  /** The sandbox environment's client reaches the sandbox once it has started and its orders are indexed. */
  sandboxWiring: Pick<SandboxWiring, 'started'>;
  /** Learns order facts from the service's answers. */
  orders: OrderIndex;
  clientOptions?: DeliveryClientsDeps['clientOptions'];
}

export interface DeliveryFeature {
  readonly keys: KeyService;
  readonly clients: DeliveryClients;
  /** Every service asks for the client of the environment it works in, at the moment it needs it. */
  clientFor(environment: Environment): Promise<DeliveryClient>;
  readonly handlers: ReturnType<typeof keysHandlers>;
}

export function deliveryFeature(deps: DeliveryFeatureDeps): DeliveryFeature {
  const { settings, logger, sandbox, sandboxWiring, orders } = deps;
  const sandboxApi = async () => {
    await sandboxWiring.started();
    return sandbox.api();
  };
  // A key is checked with a client that sends it before it is kept; those clients read no stored
  // key, so the key service comes first and the clients that read keys go through it.
  const keyChecks = createKeyCheckClients({ settings, logger, sandboxApi, clientOptions: deps.clientOptions });
  const keys = createKeyService({ store: deps.keyStore, settings, logger, clientWithKey: (environment, key) => keyChecks.withKey(environment, key) });
  const clients = createDeliveryClients({
    settings,
    logger,
    readKey: (environment) => keys.readKey(environment),
    sandboxApi,
    decorate: (environment, client) => createLearningClient(environment, client, orders, logger),
    clientOptions: deps.clientOptions,
  });
  return {
    keys,
    clients,
    clientFor: (environment) => clients.forEnvironment(environment),
    handlers: keysHandlers(keys),
  };
}
