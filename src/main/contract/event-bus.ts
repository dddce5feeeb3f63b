import { events, type EventName, type EventPayload } from '../../shared/contract';
import type { Logger } from '../logging/logger';

export type EventListener = (name: EventName, payload: unknown) => void;

/** Main's outgoing events: validated against the contract, then fanned out to every host. */
export interface EventBus {
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  subscribe(listener: EventListener): () => void;
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
          logger.warn('event listener failed', { event: name, error: error instanceof Error ? error.message : String(error) });
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
