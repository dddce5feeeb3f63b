/**
 * What a host serves when the station could not open its store because a newer station migrated
 * it: every call is answered with that refusal (its code and facts), so the screen can say, in
 * the bench's language, what to do. Nothing else runs; nothing touches the store.
 */
import { StationError } from '../../shared/errors';
import type { Station } from '../composition';
import type { Logger } from '../logging/logger';
import { createEventBus } from './event-bus';

/** The part of a station a host serves: its calls, its events and its log. */
export type ServedStation = Pick<Station, 'dispatcher' | 'events' | 'logger'>;

export function unopenedStation(refusal: StationError, logger: Logger): ServedStation {
  const error = refusal.toData();
  return { dispatcher: { dispatch: async () => ({ ok: false, error }) }, events: createEventBus(logger), logger };
}

/** Whether a failure to compose the station is one the screen can explain (rather than a crash to report). */
export function isUnopenedStore(error: unknown): error is StationError {
  return error instanceof StationError && error.code === 'STORE_NEWER_THAN_STATION';
}
