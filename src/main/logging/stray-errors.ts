/**
 * The station's hosts (the desktop app, the web host, `webhooks serve`) log an error no caller
 * caught with its stack and its count, and keep serving: printing's exactly-once promise rests on
 * the journal and the printer's proof, not on the process staying up, but a bench that
 * disappears costs the packer minutes and every screen its calls, and a receiver that
 * disappears stops every bench of the warehouse from learning status changes.
 */
import { keepServingAfterStrayErrors, type StrayErrors, type StrayErrorSource } from '../../shared/stray-errors';
import type { Logger } from './logger';

export type { StrayErrors } from '../../shared/stray-errors';

export function logStrayErrors(logger: Logger, source: StrayErrorSource = process): StrayErrors {
  return keepServingAfterStrayErrors(source, ({ kind, error, stack, count }) => logger.error(kind, { error, stack, strayErrors: count }));
}
