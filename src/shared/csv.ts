/**
 * The station's one CSV writer, for every file it exports (the screen's History and run exports,
 * the support bundle's journal): RFC 4180 quoting, CRLF line ends, and a guard against formula
 * injection. A text cell starting with = + - @ (or a tab or carriage return, which spreadsheets
 * skip before reading one) would run as a formula in Excel or LibreOffice; an order ref from a
 * webshop, an operator name or a failure reason could be one, so it gets a leading apostrophe.
 */

const formulaStart = /^[=+\-@\t\r]/;

export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && formulaStart.test(text)) text = `'${text}`;
  return /[",\r\n;]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
