import { describe, expect, it } from 'vitest';
import type { JournalEntryData } from '../../../src/shared/contract/printing';
import { csvCell, toCsv } from '../../../src/shared/csv';
import { journalCsv, journalCsvHeader } from '../../../src/renderer/src/journal/journal-csv';
import { journalDays, localDay, reprintScan, searchJournal } from '../../../src/renderer/src/journal/journal-search';
import { formatDateTime, formatDay } from '../../../src/renderer/src/i18n/format';
import { journalEntry } from './journal-entry';

const entry = journalEntry;

const noon = (day: string) => new Date(`${day}T12:00:00`).toISOString();
const journal = [
  entry(1, { orderRef: 'NW-104249-1', bundleId: 'BND-WG569BPC', printedAt: noon('2025-11-21') }),
  entry(2, { orderRef: 'NW-104286', barcode: 'DT3296405435851', operator: 'Priya', printerName: 'Bench 5 Zebra', printedAt: noon('2025-11-21') }),
  entry(3, { orderRef: 'NW-100001', recipient: 'Marie Becker', printedAt: noon('2025-11-20') }),
];
const ids = (found: JournalEntryData[]) => found.map((found) => found.id);

describe('searching the print journal', () => {
  it('finds by order ref, barcode, order id, bundle, printer and operator, case-insensitively', () => {
    expect(ids(searchJournal(journal, { text: 'nw-104286', day: '' }))).toEqual([2]);
    expect(ids(searchJournal(journal, { text: 'DT3296405435851', day: '' }))).toEqual([2]);
    expect(ids(searchJournal(journal, { text: 'SBX-3', day: '' }))).toEqual([3]);
    expect(ids(searchJournal(journal, { text: 'bnd-wg569', day: '' }))).toEqual([1]);
    expect(ids(searchJournal(journal, { text: 'bench 5', day: '' }))).toEqual([2]);
    expect(ids(searchJournal(journal, { text: 'priya', day: '' }))).toEqual([2]);
  });

  it('needs every word to match, and filters by local day', () => {
    expect(ids(searchJournal(journal, { text: 'sam becker', day: '' }))).toEqual([3]);
    expect(ids(searchJournal(journal, { text: '', day: '2025-11-21' }))).toEqual([1, 2]);
    expect(ids(searchJournal(journal, { text: 'sam', day: '2025-11-20' }))).toEqual([3]);
    expect(ids(searchJournal(journal, { text: '', day: '' }))).toEqual([1, 2, 3]);
  });

  it('offers the days that have labels, newest first, each once', () => {
    expect(journalDays(journal)).toEqual(['2025-11-21', '2025-11-20']);
    expect(journalDays([])).toEqual([]);
  });

  it('writes a day as the screen’s language writes a date, British in English, never month first', () => {
    expect(formatDay('2025-11-21', 'en')).toBe('Fri, 21 Nov 2025');
    expect(formatDay('2025-11-21', 'nl')).toBe('vr 21 nov 2025');
    expect(formatDay('2025-11-21', 'de')).toMatch(/^Fr\.?, 21\. Nov\.? 2025$/);
    expect(formatDay('2025-11-21', 'pl')).toMatch(/^pt\., 21 lis 2025$/);
    expect(formatDateTime(new Date(2025, 10, 21, 9, 5).toISOString(), 'en')).toBe('21/11/2025, 09:05');
    expect(formatDay('not a day', 'en')).toBe('not a day');
  });

  it('reads a timestamp as the local calendar day', () => {
    expect(localDay(noon('2025-01-05'))).toBe('2025-01-05');
    expect(localDay('not a date')).toBe('');
  });

  it('reprints by the unique order id when the entry has one', () => {
    expect(reprintScan(entry(9, {}))).toBe('SBX-9');
    expect(reprintScan(entry(9, { orderId: null }))).toBe('DT9');
    expect(reprintScan(entry(9, { orderId: null, barcode: null, orderRef: null }))).toBeNull();
  });
});

describe('CSV export', () => {
  it('quotes commas, quotes and line breaks, and leaves plain values bare', () => {
    expect(csvCell('NW-1')).toBe('NW-1');
    expect(csvCell('Bakker, Anouk')).toBe('"Bakker, Anouk"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(3)).toBe('3');
  });

  it('defuses cells a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('+31 6 1234')).toBe("'+31 6 1234");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-5)).toBe('-5');
  });

  it('writes a header and one CRLF line per label', () => {
    const csv = journalCsv(journal);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(journalCsvHeader.join(','));
    expect(lines).toHaveLength(journal.length + 2);
    expect(lines[1]).toContain('NW-104249-1');
    expect(lines[1]).toContain('BND-WG569BPC');
    expect(toCsv(['a'], [])).toBe('a\r\n');
  });
});
