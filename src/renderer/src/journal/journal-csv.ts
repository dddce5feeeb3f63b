import type { JournalEntryData, RunSummaryData } from '../../../shared/contract/printing';
import { toCsv, type CsvValue } from '../../../shared/csv';

/** Columns of a journal export, in the order a lead reads them. */
export const journalCsvHeader = [
  'id',
  'state',
  'printedAt',
  'sentAt',
  'queuedAt',
  'orderRef',
  'barcode',
  'orderId',
  'recipient',
  'bundleId',
  'bundlePosition',
  'bundleCount',
  'printer',
  'operator',
  'runId',
  'position',
  'format',
  'reason',
  'reprintOf',
  'decidedBy',
  'decidedAt',
  'environment',
] as const;

export function journalCsv(entries: readonly JournalEntryData[]): string {
  return toCsv(journalCsvHeader, entries.map(journalRow));
}

function journalRow(entry: JournalEntryData): CsvValue[] {
  return [
    entry.id,
    entry.state,
    entry.printedAt,
    entry.sentAt,
    entry.queuedAt,
    entry.orderRef,
    entry.barcode,
    entry.orderId,
    entry.recipient,
    entry.bundleId,
    entry.bundlePosition,
    entry.bundleCount,
    entry.printerName ?? entry.printerId,
    entry.operator,
    entry.runId,
    entry.position,
    entry.format,
    entry.reason,
    entry.reprintOf,
    entry.decidedBy,
    entry.decidedAt,
    entry.environment,
  ];
}

type LeftOut = RunSummaryData['skipped'][number];

/** A run's labels and, after them, the parcels it left out on purpose (state `left-out`, the reason's code and words). */
export function runCsv(entries: readonly JournalEntryData[], skipped: readonly LeftOut[], environment: string): string {
  const column = (name: (typeof journalCsvHeader)[number]) => journalCsvHeader.indexOf(name);
  const leftOut = skipped.map((left) => {
    const row: CsvValue[] = journalCsvHeader.map(() => null);
    row[column('state')] = 'left-out';
    row[column('orderId')] = left.orderId;
    row[column('bundleId')] = left.bundleId;
    row[column('reason')] = `${left.code}: ${left.message}`;
    row[column('environment')] = environment;
    return row;
  });
  return toCsv(journalCsvHeader, [...entries.map(journalRow), ...leftOut]);
}
