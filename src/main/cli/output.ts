import type { StationErrorData } from '../../shared/errors';
import { exitCodes, type CliContext } from './command';

/** Prints an error the way the screen would word it: the message, then its details. */
export function printError(context: CliContext, error: StationErrorData): number {
  context.warn(`${error.message} [${error.code}]`);
  for (const detail of error.details ?? []) context.warn(`  - ${detail}`);
  return exitCodes.failed;
}

export const json = (value: unknown): string => JSON.stringify(value, null, 2);
