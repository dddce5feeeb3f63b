import { events, type EventName, type EventPayload } from '../../shared/contract';
import type { Logger } from '../logging/logger';
import { errorText } from '../../shared/error-text';

export type EventListener = (name: EventName, payload: unknown) => void;

/** Main's outgoing events: validated against the contract, then fanned out to every host. */
export interface EventBus {
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  subscribe(listener: EventListener): () => void;
  /** One event's payloads, as the contract types them (a host in the station's process follows a run, an upload). */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function createEventBus(logger: Logger): EventBus {
  const listeners = new Set<EventListener>();
  return {
    emit(name, payload) {
      const parsed = events[name].payload.safeParse(payload);
      if (!parsed.success) {
        logger.error('event outside the contract was not sent', { event: name });
        return;
      }
      for (const listener of listeners) {
        try {
          listener(name, parsed.data);
        } catch (error) {
          logger.warn('event listener failed', { event: name, error: errorText(error) });
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    on(event, listener) {
      // A payload reaches listeners only once its event's schema parsed it (emit, above).
      const forward: EventListener = (name, payload) => {
        if (name === event) listener(payload as EventPayload<typeof event>);
      };
      listeners.add(forward);
      return () => listeners.delete(forward);
    },
  };
}
