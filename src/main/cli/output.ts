import type { CallResult } from '../../shared/contract';
import type { StationErrorData } from '../../shared/errors';
import { exitCodes, type CliContext } from './command';

/** Prints an error the way the screen would word it: the message, then its details. */
export function printError(context: CliContext, error: StationErrorData): number {
  context.warn(`${error.message} [${error.code}]`);
  for (const detail of error.details ?? []) context.warn(`  - ${detail}`);
  return exitCodes.failed;
}

/** The value of a call, or prints its error and answers null. */
export function valueOf<T>(context: CliContext, result: CallResult<unknown>): T | null {
  if (!result.ok) {
    printError(context, result.error);
    return null;
  }
  return result.value as T;
}

export const json = (value: unknown): string => JSON.stringify(value, null, 2);
