/**
 * The context a contract call works in, settled once per call by the dispatcher: which
 * environment it is, its readiness (the embedded sandbox started, seeded and its virtual Zebra
 * synced as the printer, when the environment is the sandbox), its delivery client, and the place
 * the print journal writes to for the whole call (store/store-place.ts). Handlers receive it
 * rather than each readying the environment or finding the journal their own way.
 */
import type { Environment } from '../shared/contract/app';
import type { DeliveryClient } from './api';
import type { HeldPlace, JournalPlace } from './store';

export interface EnvironmentSession {
  readonly environment: Environment;
  /** Readies the environment once for this call; later calls in the same call share the outcome. */
  ready(): Promise<void>;
  /** The environment's delivery client, once the environment is ready. */
  client(): Promise<DeliveryClient>;
  /**
   * Where the print journal writes for this call: taken at the call's first ask and held until the
   * call has answered, so the whole call reads and writes one journal (a move waits for it).
   */
  place(): Promise<JournalPlace>;
}

/** A session as the dispatcher holds it: ended once its call has answered. */
export interface OpenedSession extends EnvironmentSession {
  end(): void;
}

export interface EnvironmentSessionDeps {
  environment: () => Environment;
  readyFor: (environment: Environment) => Promise<void>;
  clientFor: (environment: Environment) => Promise<DeliveryClient>;
  /** Takes the journal's place for a call until it leaves (StorePlace.enter); the shared store, never moving, when absent. */
  enterPlace?: () => Promise<HeldPlace>;
}

export type OpenEnvironmentSession = () => OpenedSession;

const unmoving: HeldPlace = { place: 'shared', leave: () => undefined };

export function environmentSessions(deps: EnvironmentSessionDeps): OpenEnvironmentSession {
  return () => {
    const environment = deps.environment();
    let readying: Promise<void> | null = null;
    // Lazy: calls that never touch the environment (settings, keys, notices) never start the sandbox.
    const ready = (): Promise<void> => (readying ??= deps.readyFor(environment));
    // Lazy too: only calls that print or read printing hold the journal's place.
    let entered: Promise<HeldPlace> | null = null;
    let ended = false;
    return {
      environment,
      ready,
      async client() {
        await ready();
        return deps.clientFor(environment);
      },
      async place() {
        entered ??= deps.enterPlace?.() ?? Promise.resolve(unmoving);
        const held = await entered;
        // A call that answered while it waited for the place lets go of it at once.
        if (ended) held.leave();
        return held.place;
      },
      end() {
        ended = true;
        void entered?.then((held) => held.leave());
      },
    };
  };
}
