import type { JournalEntryData } from '../../../shared/contract/printing';
import { toCsv } from '../../../shared/csv';

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
  return toCsv(
    journalCsvHeader,
    entries.map((entry) => [
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
    ]),
  );
}
