/**
 * The environment a contract call works in, resolved once per call by the dispatcher: which
 * environment it is, its readiness (the embedded sandbox started, seeded and its virtual Zebra
 * synced as the printer, when the environment is the sandbox) and its delivery client. Handlers
 * receive it rather than each readying the environment its own way.
 */
import type { Environment } from '../shared/contract/app';
import type { DeliveryClient } from './api';

export interface EnvironmentSession {
  readonly environment: Environment;
  /** Readies the environment once for this call; later calls in the same call share the outcome. */
  ready(): Promise<void>;
  /** The environment's delivery client, once the environment is ready. */
  client(): Promise<DeliveryClient>;
}

export interface EnvironmentSessionDeps {
  environment: () => Environment;
  readyFor: (environment: Environment) => Promise<void>;
  clientFor: (environment: Environment) => Promise<DeliveryClient>;
}

export type OpenEnvironmentSession = () => EnvironmentSession;

export function environmentSessions(deps: EnvironmentSessionDeps): OpenEnvironmentSession {
  return () => {
    const environment = deps.environment();
    let readying: Promise<void> | null = null;
    // Lazy: calls that never touch the environment (settings, keys, notices) never start the sandbox.
    const ready = (): Promise<void> => (readying ??= deps.readyFor(environment));
    return {
      environment,
      ready,
      async client() {
        await ready();
        return deps.clientFor(environment);
      },
    };
  };
}
