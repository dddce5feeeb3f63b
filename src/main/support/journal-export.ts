import type { Environment } from '../../shared/contract/app';
import type { JournalRow } from '../printing/journal/journal-types';
import { toCsv } from '../../shared/csv';
import type { JournalExport } from './bundle-parts';

/** The print journal as the support bundle reads it (PrintJournal satisfies it). */
export interface JournalSource {
  journal(environment: Environment, options: { limit?: number }): Promise<readonly JournalRow[]>;
}

const environments: Environment[] = ['sandbox', 'test', 'live'];
const DAY = 24 * 60 * 60 * 1000;

const columns = [
  'id', 'environment', 'queuedAt', 'state', 'printerId', 'operator', 'orderId', 'bundleId', 'bundlePosition', 'bundleCount',
  'format', 'runId', 'position', 'reprintOf', 'reason', 'decidedBy', 'sentAt', 'printedAt', 'failedAt', 'uncertainAt', 'decidedAt',
  'documentSha256',
] as const satisfies readonly (keyof JournalRow)[];

/**
 * The print journal's last 24 hours, every environment, oldest first, as one CSV: what IT needs to
 * see which labels a bench printed, failed or left uncertain around a reported problem.
 */
export function printJournalExport(source: JournalSource, options: { maxRowsPerEnvironment?: number } = {}): JournalExport {
  return {
    async lastDay(now) {
      const since = now.getTime() - DAY;
      const perEnvironment = await Promise.all(environments.map((environment) => source.journal(environment, { limit: options.maxRowsPerEnvironment ?? 20_000 })));
      const rows = perEnvironment
        .flat()
        .filter((row) => Date.parse(row.queuedAt) >= since)
        .sort((a, b) => Date.parse(a.queuedAt) - Date.parse(b.queuedAt) || a.id - b.id);
      return [{ path: 'journal/last-day.csv', content: toCsv(columns, rows.map((row) => columns.map((column) => row[column]))) }];
    },
  };
}
