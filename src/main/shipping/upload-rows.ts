/**
 * The spreadsheet upload's columns and the local check of one row (spec: Spreadsheet upload):
 * exact column names, required cells, a two-letter country, a postal code of that country's
 * shape, deliveryDate as a real YYYY-MM-DD date, numbers above 0 where numbers belong, and length ≥
 * width ≥ height. A row that passes becomes the order to create (POST /orders body); a row that
 * fails says every reason as a code with its facts, so the screen can word it in any language.
 */
import { z } from 'zod';
import { readOrderRef } from '../../shared/identifiers';
import { uploadColumns } from '../../shared/import-columns';
import { CreateOrderRequestSchema, type CreateOrderRequest } from '../../shared/api/schemas';
import type { UploadRowProblem, UploadSkip } from '../../shared/contract/upload';

export const uploadRequiredColumns = uploadColumns.required;
export const uploadOptionalColumns = uploadColumns.optional;
export type UploadColumn = (typeof uploadRequiredColumns)[number] | (typeof uploadOptionalColumns)[number];
const knownColumns = new Set<string>([...uploadRequiredColumns, ...uploadOptionalColumns]);

export const isUploadColumn = (name: string): name is UploadColumn => knownColumns.has(name);

/**
 * Postal code shapes of the countries the service's seed and customers use; any other country
 * gets a generic check (letters, digits, a space or hyphen, 2–10 characters), since the service
 * itself judges the rest.
 */
const postalCodeShapes: Record<string, RegExp> = {
  NL: /^\d{4}\s?[A-Za-z]{2}$/,
  BE: /^\d{4}$/,
  LU: /^(L-?)?\d{4}$/i,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  AT: /^\d{4}$/,
  DK: /^\d{4}$/,
  PL: /^\d{2}-?\d{3}$/,
  ES: /^\d{5}$/,
  IT: /^\d{5}$/,
};
const genericPostalCode = /^[A-Za-z0-9][A-Za-z0-9 -]{0,8}[A-Za-z0-9]$/;

const yes = new Set(['1', 'true', 'yes', 'y', 'ja', 'x']);
const no = new Set(['', '0', 'false', 'no', 'n', 'nee']);

export interface CheckedRow {
  request: CreateOrderRequest | null;
  problems: UploadRowProblem[];
}

const shown = (value: string) => value.slice(0, 200);

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * Checks one row (cells by column name, already trimmed, empty cells absent) against the
 * upload's locations. Every problem is listed, not only the first.
 */
export function checkUploadRow(cells: Partial<Record<UploadColumn, string>>, locations: ReadonlySet<string>): CheckedRow {
  const problems: UploadRowProblem[] = [];
  const cell = (column: UploadColumn): string | undefined => {
    const value = cells[column]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  for (const column of uploadRequiredColumns) if (cell(column) === undefined) problems.push({ code: 'missing', column });
  // POST /orders validates deliveryName as non-empty: a row without one could only be refused.
  if (cell('deliveryName') === undefined) problems.push({ code: 'missing', column: 'deliveryName' });

  // Read as a scan reads it: a ref with an invisible character (zero-width space, word joiner) could
  // never be scanned, and would pass for another ref that looks the same.
  const typedRef = cell('orderRef');
  const readRef = typedRef === undefined ? undefined : readOrderRef(typedRef);
  const orderRef = readRef?.ok ? readRef.value : typedRef;
  if (typedRef !== undefined && (!readRef?.ok || typedRef.length > 200)) problems.push({ code: 'cell', column: 'orderRef', value: shown(typedRef) });
  const locationId = cell('locationId');
  if (locationId !== undefined && (!/^\d{1,12}$/.test(locationId) || !locations.has(locationId))) problems.push({ code: 'location', column: 'locationId', value: shown(locationId) });
  const country = cell('deliveryCountry');
  const countryOk = country !== undefined && /^[A-Za-z]{2}$/.test(country);
  if (country !== undefined && !countryOk) problems.push({ code: 'country', column: 'deliveryCountry', value: shown(country) });
  const postalCode = cell('deliveryPostalCode');
  if (postalCode !== undefined) {
    const shape = countryOk ? postalCodeShapes[country.toUpperCase()] : undefined;
    if (!(shape ?? genericPostalCode).test(postalCode)) problems.push({ code: 'postal-code', column: 'deliveryPostalCode', value: shown(postalCode) });
  }
  const deliveryDate = cell('deliveryDate');
  if (deliveryDate !== undefined && !isCalendarDate(deliveryDate)) problems.push({ code: 'date', column: 'deliveryDate', value: shown(deliveryDate) });

  const number = (column: 'length' | 'width' | 'height' | 'weight'): number | undefined => {
    const text = cell(column);
    if (text === undefined) return undefined;
    const parsed = Number(text.replace(',', '.'));
    if (!/^\d+([.,]\d+)?$/.test(text) || !Number.isFinite(parsed) || parsed <= 0) {
      problems.push({ code: 'number', column, value: shown(text) });
      return undefined;
    }
    return parsed;
  };
  const length = number('length');
  const width = number('width');
  const height = number('height');
  const weight = number('weight');
  const measuresGiven = (['length', 'width', 'height'] as const).filter((column) => cell(column) !== undefined).length;
  if (measuresGiven !== 0 && measuresGiven !== 3) problems.push({ code: 'dimensions-partial' });
  if (length !== undefined && width !== undefined && height !== undefined && !(length >= width && width >= height)) {
    problems.push({ code: 'dimensions-order', value: `${length} × ${width} × ${height}` });
  }
  const flag = (column: 'signature' | 'notAtNeighbour'): boolean => {
    const text = (cell(column) ?? '').toLowerCase();
    if (yes.has(text)) return true;
    if (!no.has(text)) problems.push({ code: 'flag', column, value: shown(cell(column) ?? '') });
    return false;
  };
  const parcels = cell('parcels');
  if (parcels !== undefined && parcels !== '1') problems.push({ code: 'parcels', column: 'parcels', value: shown(parcels) });
  const signature = flag('signature');
  const notAtNeighbour = flag('notAtNeighbour');
  if (problems.length > 0) return { request: null, problems };

  const name = cell('name') ?? cell('description');
  const request = {
    locationId: locationId!,
    orderRef: orderRef!,
    ...(name !== undefined ? { name } : {}),
    deliveryName: cell('deliveryName')!,
    ...(cell('deliveryEmail') !== undefined ? { deliveryEmail: cell('deliveryEmail') } : {}),
    ...(cell('deliveryPhone') !== undefined ? { deliveryPhone: cell('deliveryPhone') } : {}),
    deliveryAddress: {
      street: cell('deliveryStreet')!,
      houseNumber: cell('deliveryNumber')!,
      suffix: cell('deliverySuffix') ?? '',
      postalCode: postalCode!,
      city: cell('deliveryCity')!,
      countryCode: country!.toUpperCase(),
    },
    ...(length !== undefined && width !== undefined && height !== undefined ? { dimensions: { length, width, height } } : {}),
    ...(weight !== undefined ? { weight } : {}),
    ...(signature ? { signature: true } : {}),
    ...(notAtNeighbour ? { notAtNeighbour: true } : {}),
    ...(deliveryDate !== undefined ? { deliveryDate } : {}),
  };
  // The station's own request schema has the last word (the API client checks it again before sending).
  const parsed = CreateOrderRequestSchema.safeParse(request);
  if (!parsed.success) return { request: null, problems: parsed.error.issues.map((issue) => ({ code: 'cell', column: issue.path.map(String).join('.').slice(0, 64), value: shown(issue.message) })) };
  return { request: parsed.data, problems: [] };
}

/** A problem in English, for the report workbook and the terminal (the screen words codes itself). */
export function problemInWords(problem: UploadRowProblem): string {
  const column = problem.column ?? '';
  const value = problem.value !== undefined ? ` (got "${problem.value}")` : '';
  switch (problem.code) {
    case 'missing':
      return `${column} is empty`;
    case 'country':
      return `deliveryCountry should be a two-letter country code such as NL${value}`;
    case 'postal-code':
      return `deliveryPostalCode is not a postal code of the row's country${value}`;
    case 'date':
      return `deliveryDate should be a date written YYYY-MM-DD${value}`;
    case 'number':
      return `${column} should be a number above 0${value}`;
    case 'flag':
      return `${column} should be yes/no, true/false or 1/0${value}`;
    case 'dimensions-partial':
      return 'length, width and height go together: give all three or none';
    case 'dimensions-order':
      return `length ≥ width ≥ height should hold${problem.value !== undefined ? ` (got ${problem.value})` : ''}`;
    case 'location':
      return `locationId is not one of the locations of this upload${value}`;
    case 'duplicate':
      return `orderRef is already on row ${problem.firstRow ?? '?'} of this file with other contents`;
    case 'cell':
      return `${column} cannot be used${value}`;
    case 'refused':
      return `the service refused the order (${problem.errorCode ?? 'error'})${problem.messages?.length ? `: ${problem.messages.join('; ')}` : ''}`;
    case 'outcome-unknown':
      return 'the order was sent but it is not known whether it was created; it is not sent again until that is settled';
    case 'cancelled':
      return 'the upload was cancelled before this row was sent';
    case 'parcels':
      return `a row here is one parcel${value}: give each parcel its own row, or ship an order of several parcels from the Scan screen (the shop's export)`;
  }
}

/** Why a row was skipped, in English, for the report workbook and the terminal. */
export function skipInWords(skip: UploadSkip): string {
  switch (skip.code) {
    case 'created-before':
      return skip.locationId && skip.rowLocationId && skip.locationId !== skip.rowLocationId
        ? `already created at location ${skip.locationId}; this row names location ${skip.rowLocationId}`
        : 'already created';
    case 'unknown-before':
      return 'sent before with an unknown outcome; a lead settles it first';
    case 'in-progress':
      return 'being created by another process';
    case 'repeated-in-file':
      return `repeats row ${skip.firstRow ?? '?'} of this file`;
  }
}

/** Text for the cells a reader returned; the report and the re-upload keep these exact texts. */
export const UploadCellsSchema = z.record(z.string(), z.string());
