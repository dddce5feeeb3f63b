/**
 * Values for an error's translated title, read from its details (`name: value` lines): the
 * voided order's time and lead, a refused cancellation's last known status. Main says the facts;
 * the screen says them in the packer's language.
 */
import { orderStatuses } from '../../../shared/api/schemas';
import type { StationErrorData } from '../../../shared/errors';
import { formatClock } from '../i18n/format';

export function detailValue(error: StationErrorData, name: string): string | null {
  const prefix = `${name}: `;
  const line = error.details?.find((detail) => detail.startsWith(prefix));
  return line === undefined ? null : line.slice(prefix.length);
}

/** `statusName` turns a status code into the screen's words (the translation of supervision.statuses). */
export function errorWords(error: StationErrorData, language: string, statusName: (status: string) => string = (status) => status): Record<string, string> {
  const at = detailValue(error, 'voided_at');
  const status = detailValue(error, 'status');
  return {
    time: at ? formatClock(at, language) : '',
    by: detailValue(error, 'voided_by') ?? '',
    reason: detailValue(error, 'reason') ?? '',
    status: status && (orderStatuses as readonly string[]).includes(status) ? statusName(status) : (status ?? '?'),
  };
}
