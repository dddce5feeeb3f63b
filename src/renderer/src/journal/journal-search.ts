/**
 * Searching the print journal the way a lead asks: by order ref, parcel barcode, order id,
 * bundle, printer, operator or day, in one box. Pure, so it is tested without a screen.
 */
import type { JournalEntryData } from '../../../shared/contract/printing';

export interface JournalQuery {
  /** Words that must each appear in one of the searchable fields (case-insensitive). */
  text: string;
  /** YYYY-MM-DD in local time, or empty for every day. */
  day: string;
}

/** When the label happened, for the day filter and the list: printed, else sent, else queued. */
export const entryTime = (entry: JournalEntryData): string => entry.printedAt ?? entry.sentAt ?? entry.failedAt ?? entry.uncertainAt ?? entry.queuedAt;

/** A timestamp's local calendar day, YYYY-MM-DD. */
export function localDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The local days the entries fall on, newest first: the days a lead can choose between. */
export function journalDays(entries: readonly JournalEntryData[]): string[] {
  const days = new Set(entries.map((entry) => localDay(entryTime(entry))).filter((day) => day !== ''));
  return [...days].sort().reverse();
}

const fields = (entry: JournalEntryData): string[] =>
  [entry.orderRef, entry.barcode, entry.orderId, entry.bundleId, entry.printerName, entry.printerId, entry.operator, entry.recipient, entry.runId]
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .map((value) => value.toLowerCase());

/**
 * The whole query found inside one field wins ("bench 5" is the printer Bench 5, not every label
 * with a 5 somewhere); when nothing holds it whole, every word must appear in some field.
 */
export function searchJournal(entries: readonly JournalEntryData[], query: JournalQuery): JournalEntryData[] {
  const onDay = query.day ? entries.filter((entry) => localDay(entryTime(entry)) === query.day) : [...entries];
  const phrase = query.text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (phrase === '') return onDay;
  const whole = onDay.filter((entry) => fields(entry).some((field) => field.includes(phrase)));
  if (whole.length > 0) return whole;
  const words = phrase.split(' ');
  return onDay.filter((entry) => {
    const values = fields(entry);
    return words.every((word) => values.some((field) => field.includes(word)));
  });
}

/** What a reprint scans for this entry: the order id is unique, then the barcode, then the ref. */
export const reprintScan = (entry: JournalEntryData): string | null => entry.orderId ?? entry.barcode ?? entry.orderRef;
