import type { StationErrorData } from '../../../../shared/errors';

/**
 * An error shown on Setup, where the reader is the supervisor or IT: worded for them
 * (`errors.<CODE>.title_setup` / `action_setup`), so it never says "ask a supervisor" to the
 * supervisor, nor "scan again" to someone typing an address. An error with words of its own
 * (`facts.subject`) keeps them.
 */
export function forSetup(error: StationErrorData | null): StationErrorData | null {
  return error && !error.facts?.subject ? { ...error, facts: { ...error.facts, subject: 'setup' } } : error;
}
