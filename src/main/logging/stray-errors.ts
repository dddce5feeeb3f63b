/**
 * The last resort for an error no caller caught (a timer's callback that threw, a promise nobody
 * awaited). The station logs it with its stack and keeps serving rather than dying mid-shift:
 * printing's exactly-once promise rests on the journal and the printer's proof, not on the process
 * staying up, but a bench that disappears costs the packer minutes and every screen its calls.
 * Every long-running host (the desktop app, the web host) installs it once, at its start.
 */
import type { Logger } from './logger';

export function logStrayErrors(logger: Logger, target: Pick<NodeJS.Process, 'on'> = process): void {
  const stackOf = (error: unknown) => (error instanceof Error ? error.stack : undefined);
  target.on('uncaughtException', (error) => logger.error('uncaught exception', { error, stack: stackOf(error) }));
  target.on('unhandledRejection', (reason) => logger.error('unhandled rejection', { error: reason, stack: stackOf(reason) }));
}
