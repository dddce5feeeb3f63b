/**
 * An error in the screen's own words. Main sends a stable code and facts (ids, counts, names,
 * statuses, times), never a sentence for the screen; here they become the title and the action
 * in the packer's language. `facts.subject` picks a variant of the words through i18next's
 * context (`title_key`, `title_address` …), falling back to the code's plain words. Older errors
 * carried their facts as `name: value` details (voided_at, voided_by, reason, status); those are
 * still read.
 */
import type { TFunction } from 'i18next';
import { orderStatuses } from '../../../shared/api/schemas';
import type { StationErrorData } from '../../../shared/errors';
import { keyboardLayoutIds } from '../../../shared/keyboard/layouts';
import { formatClock } from '../i18n/format';

type ErrorLike = Pick<StationErrorData, 'code' | 'details' | 'facts'>;

export function detailValue(error: ErrorLike, name: string): string | null {
  const prefix = `${name}: `;
  const line = error.details?.find((detail) => detail.startsWith(prefix));
  return line === undefined ? null : line.slice(prefix.length);
}

const factText = (error: ErrorLike, name: string): string | null => {
  const value = error.facts?.[name];
  return value === undefined || value === null ? null : String(value);
};

const environments = ['sandbox', 'test', 'live'];

/**
 * The values an error's words interpolate. `statusName` turns an order status into words (the
 * translation of supervision.statuses), `environmentName` an environment (SANDBOX / TEST / LIVE).
 */
export function errorWords(
  error: ErrorLike,
  language: string,
  statusName: (status: string) => string = (status) => status,
  environmentName: (environment: string) => string = (environment) => environment.toUpperCase(),
): Record<string, string | number> {
  const words: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(error.facts ?? {})) if (value !== null) words[name] = typeof value === 'boolean' ? String(value) : value;
  const at = factText(error, 'voidedAt') ?? detailValue(error, 'voided_at');
  const status = factText(error, 'status') ?? detailValue(error, 'status');
  const environment = factText(error, 'environment');
  const printedAt = factText(error, 'printedAt') ?? factText(error, 'since');
  return {
    ...words,
    time: at ? formatClock(at, language) : printedAt ? formatClock(printedAt, language) : '',
    by: factText(error, 'voidedBy') ?? detailValue(error, 'voided_by') ?? '',
    reason: factText(error, 'reason') ?? detailValue(error, 'reason') ?? '',
    status: status && (orderStatuses as readonly string[]).includes(status) ? statusName(status) : (status ?? '?'),
    ...(environment && environments.includes(environment) ? { environment: environmentName(environment) } : {}),
  };
}

export interface ErrorText {
  title: string;
  action: string;
}

/** The title and the action of an error, in the language `t` speaks. */
export function errorText(error: ErrorLike, t: TFunction, language: string): ErrorText {
  const words = errorWords(
    error,
    language,
    (status) => t(`supervision.statuses.${status}`),
    (environment) => t(`environment.${environment}`),
  );
  const subject = factText(error, 'subject');
  // A scan read through the wrong keyboard layout names the layouts (facts readAs, a list, and typedAs).
  const layoutNames = Object.fromEntries(
    ['readAs', 'typedAs'].flatMap((name) => {
      const layouts = (factText(error, name) ?? '').split(',').filter((layout) => (keyboardLayoutIds as readonly string[]).includes(layout));
      return layouts.length > 0 ? [[`${name}Name`, layouts.map((layout) => t(`keyboardLayouts.${layout}`)).join(' / ')]] : [];
    }),
  );
  const options = { ...words, ...layoutNames, ...(subject ? { context: subject } : {}) };
  return { title: t(`errors.${error.code}.title`, options), action: t(`errors.${error.code}.action`, options) };
}

/**
 * The lines of an error shown under its words: only the delivery service's own words — the
 * fields it refused (which the action asks to check) or why it refused a cancellation. Every
 * other detail is the station's English for logs and the CLI.
 */
export function shownDetails(error: ErrorLike): readonly string[] {
  if (error.code === 'VALIDATION') return error.details ?? [];
  // The delivery service's own words for a refusal, as it sent them (a fact, quoted).
  const serviceWords = error.facts?.serviceWords;
  return typeof serviceWords === 'string' && serviceWords.trim() !== '' ? [`“${serviceWords}”`] : [];
}
