/**
 * Orders to ship: orders the shop wants sent that are not created at the service yet, imported
 * from the shop's or WMS's export with the column names of the service's spreadsheet upload
 * (spec: Spreadsheet upload), plus `pudoId` and `parcels` where the shop has them. Stored per
 * environment, one row per orderRef. An import reports every row: new, updated (the same orderRef
 * imported again replaces what was known) or rejected with the reason.
 */
import { z } from 'zod';
import type { Environment } from '../../shared/contract/app';
import { ShipmentSchema, type Shipment, type ToShipImportReport } from '../../shared/contract/shipping';
import { StationError } from '../../shared/errors';
import { identifierKey, readOrderRef } from '../../shared/identifiers';
import { toShipColumns } from '../../shared/import-columns';
import { SheetFileProblem } from '../spreadsheets/sheet-limits';
import { parseSpreadsheet } from '../spreadsheets/spreadsheet-parser';
import type { Cell } from '../spreadsheets/sheet-readers';
import { fileProblem, openSpreadsheet, refusedFile, SpreadsheetOpenProblem, type OpenedSpreadsheet, type SpreadsheetSource } from '../spreadsheets/spreadsheet-file';
import type { StoreEngine } from '../store';

// The spreadsheet upload's own required columns (spec: Spreadsheet upload).
export const requiredColumns = toShipColumns.required;
export const optionalColumns = toShipColumns.optional;
type Column = (typeof requiredColumns)[number] | (typeof optionalColumns)[number];

const maxFileBytes = 20 * 1024 * 1024;

const yes = new Set(['1', 'true', 'yes', 'y', 'ja', 'x']);
const no = new Set(['', '0', 'false', 'no', 'n', 'nee']);

const flag = (name: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = (value ?? '').trim().toLowerCase();
      if (yes.has(text)) return true;
      if (no.has(text)) return undefined;
      ctx.addIssue({ code: 'custom', message: `${name} should be yes/no, true/false or 1/0 (got "${value}")` });
      return z.NEVER;
    });

const number = (name: string, integer = false) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const text = (value ?? '').trim().replace(',', '.');
      if (text === '') return undefined;
      const parsed = Number(text);
      if (!Number.isFinite(parsed) || parsed <= 0 || (integer && !Number.isInteger(parsed))) {
        ctx.addIssue({ code: 'custom', message: `${name} should be a ${integer ? 'whole ' : ''}number above 0 (got "${value}")` });
        return z.NEVER;
      }
      return parsed;
    });

const text = (name: string) => z.string({ message: `${name} is missing` }).trim().min(1, `${name} is empty`);
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** One spreadsheet row as text cells by column name → a shipment, or the reasons it cannot be one. */
const RowSchema = z
  .object({
    orderRef: text('orderRef').max(200),
    locationId: text('locationId').regex(/^\d{1,12}$/, 'locationId should be the number of the pickup location'),
    deliveryStreet: text('deliveryStreet'),
    deliveryNumber: text('deliveryNumber'),
    deliveryPostalCode: text('deliveryPostalCode'),
    deliveryCity: text('deliveryCity'),
    deliveryCountry: text('deliveryCountry').regex(/^[A-Za-z]{2}$/, 'deliveryCountry should be a two-letter country code such as NL'),
    deliverySuffix: optionalText,
    // The service refuses an order without a recipient's name (POST /orders validates deliveryName
    // as non-empty): a row without one is refused here, at the import, not at the bench.
    deliveryName: text('deliveryName').max(200),
    deliveryEmail: optionalText,
    deliveryPhone: optionalText,
    deliveryNote: optionalText,
    deliveryDate: optionalText.refine((value) => value === undefined || /^\d{4}-\d{2}-\d{2}$/.test(value), 'deliveryDate should be YYYY-MM-DD'),
    pudoId: optionalText,
    name: optionalText,
    description: optionalText,
    weight: number('weight'),
    length: number('length'),
    width: number('width'),
    height: number('height'),
    parcels: number('parcels', true).refine((value) => value === undefined || value <= 50, 'parcels should be at most 50'),
    signature: flag('signature'),
    notAtNeighbour: flag('notAtNeighbour'),
  })
  .transform((row, ctx): Shipment => {
    const measured = [row.length, row.width, row.height].filter((value) => value !== undefined).length;
    if (measured !== 0 && measured !== 3) ctx.addIssue({ code: 'custom', message: 'length, width and height go together: give all three or none' });
    const shipment: Shipment = {
      orderRef: row.orderRef,
      locationId: row.locationId,
      recipient: { name: row.deliveryName, email: row.deliveryEmail ?? null, phone: row.deliveryPhone ?? null },
      address: {
        street: row.deliveryStreet,
        houseNumber: row.deliveryNumber,
        suffix: row.deliverySuffix ?? '',
        postalCode: row.deliveryPostalCode,
        city: row.deliveryCity,
        countryCode: row.deliveryCountry.toUpperCase(),
      },
      parcels: row.parcels ?? null,
      pudoId: row.pudoId ?? null,
      weight: row.weight ?? null,
      dimensions: measured === 3 ? sortDimensions(row.length!, row.width!, row.height!) : null,
      signature: row.signature ?? false,
      notAtNeighbour: row.notAtNeighbour ?? false,
      deliveryNote: row.deliveryNote ?? null,
      deliveryDate: row.deliveryDate ?? null,
      name: row.name ?? row.description ?? null,
    };
    return shipment;
  });

/** The service wants length ≥ width ≥ height; a shop's export lists them in any order. */
function sortDimensions(a: number, b: number, c: number) {
  const [length, width, height] = [a, b, c].sort((x, y) => y - x) as [number, number, number];
  return { length, width, height };
}

export class ToShipOrders {
  private readonly clock: () => Date;

  constructor(
    private readonly engine: StoreEngine,
    clock?: () => Date,
  ) {
    this.clock = clock ?? (() => new Date());
  }

  async get(environment: Environment, orderRef: string): Promise<Shipment | null> {
    const [row] = await this.engine.query<{ shipment: string }>('SELECT shipment FROM to_ship_orders WHERE environment = $1 AND order_ref = $2', [environment, orderRef.trim()]);
    return row ? ShipmentSchema.parse(JSON.parse(row.shipment)) : null;
  }

  /** Inserts or replaces; says which. */
  async save(environment: Environment, shipment: Shipment, source: string): Promise<'new' | 'updated'> {
    const now = this.clock().toISOString();
    return this.engine.transaction(async (tx) => {
      const existed = (await tx.queryForUpdate('SELECT order_ref FROM to_ship_orders WHERE environment = $1 AND order_ref = $2', [environment, shipment.orderRef])).length > 0;
      await tx.execute(
        `INSERT INTO to_ship_orders (environment, order_ref, shipment, imported_from, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (environment, order_ref) DO UPDATE SET shipment = excluded.shipment, imported_from = excluded.imported_from, updated_at = excluded.updated_at`,
        [environment, shipment.orderRef, JSON.stringify(shipment), source, now],
      );
      return existed ? 'updated' : 'new';
    });
  }

  /**
   * Reads a CSV or XLSX export (first worksheet) and stores every valid row; rejected rows say why.
   * Only a regular file is read (a pipe or a device is refused before a byte is read).
   */
  async importFile(environment: Environment, path: string): Promise<ToShipImportReport> {
    return this.importFrom(environment, await openToShipFile({ kind: 'path', path }));
  }

  /** The same for a file the screen sent as bytes. */
  async importBytes(environment: Environment, fileName: string, bytes: Buffer): Promise<ToShipImportReport> {
    return this.importFrom(environment, await openToShipFile({ kind: 'bytes', fileName, bytes }));
  }

  /**
   * The file is parsed in the bounded worker (spreadsheet-parser.ts), which reads it to the end before
   * handing on a row: a file that cannot be read whole (a broken quote, a record over 64 KiB, a
   * workbook bomb) is refused naming where, and nothing is stored. Rows are then checked in the
   * batches the worker hands over and written a batch per transaction, so the station's other
   * calls (a scan, a print) are answered between batches.
   */
  private async importFrom(environment: Environment, { fileName, format, source }: OpenedSpreadsheet): Promise<ToShipImportReport> {

    const report: ToShipImportReport = { fileName, newRows: 0, updatedRows: 0, rejectedRows: 0, rows: [] };
    let header: Map<Column, number> | null = null;
    // Keyed as a scan compares refs: two refs a Caps-Lock scan cannot tell apart are one ref.
    const seenInFile = new Map<string, number>();
    try {
      for await (const batch of parseSpreadsheet(source, format, { batchSize: parsedBatchRows })) {
        for (let start = 0; start < batch.items.length; start += writeBatchRows) {
        const ready: { row: number; orderRef: string; shipment: Shipment }[] = [];
        for (const item of batch.items.slice(start, start + writeBatchRows)) {
          if (item.kind === 'header') {
            header = resolveHeader(item.cells, fileName);
            continue;
          }
          if (!header) throw fileProblem('no-header', fileName, `${fileName} has no header row.`);
          const checked = checkRow(item.row.cells, header);
          const orderRef = checked.orderRef;
          if (!checked.ok) {
            report.rejectedRows += 1;
            report.rows.push({ row: item.row.row, orderRef, outcome: 'rejected', reason: checked.reasons.join('; ') });
            continue;
          }
          if (checked.shipment === null) continue;
          const key = identifierKey(checked.shipment.orderRef);
          const earlier = seenInFile.get(key);
          if (earlier !== undefined) {
            report.rejectedRows += 1;
            report.rows.push({ row: item.row.row, orderRef, outcome: 'rejected', reason: `orderRef ${checked.shipment.orderRef} is already on row ${earlier} of this file` });
            continue;
          }
          seenInFile.set(key, item.row.row);
          ready.push({ row: item.row.row, orderRef: checked.shipment.orderRef, shipment: checked.shipment });
        }
        const outcomes = await this.saveBatch(environment, ready.map((entry) => entry.shipment), fileName);
        ready.forEach((entry, index) => {
          const outcome = outcomes[index]!;
          if (outcome === 'new') report.newRows += 1;
          else report.updatedRows += 1;
          report.rows.push({ row: entry.row, orderRef: entry.orderRef, outcome, reason: null });
        });
        // The local store answers without waiting on anything, and the worker keeps batches ready:
        // without this the import would hold the event loop from batch to batch, and a scan's timer
        // or socket would wait for the end.
        await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
    } catch (error) {
      if (error instanceof SheetFileProblem) throw fileProblem('unreadable', fileName, `${fileName} cannot be read: ${error.message}. Nothing was imported.`, { details: [error.message], cause: error });
      throw error;
    }
    if (!header) throw fileProblem('no-header', fileName, `${fileName} is empty: it has no header row.`);
    report.rows.sort((a, b) => a.row - b.row);
    return report;
  }

  /** Inserts or replaces a batch in one transaction; says which for each, in order. */
  private async saveBatch(environment: Environment, shipments: Shipment[], source: string): Promise<('new' | 'updated')[]> {
    if (shipments.length === 0) return [];
    const now = this.clock().toISOString();
    return this.engine.transaction(async (tx) => {
      const refs = shipments.map((shipment) => shipment.orderRef);
      const placeholders = refs.map((_, index) => `$${index + 2}`).join(', ');
      const existing = new Set(
        (await tx.query<{ order_ref: string }>(`SELECT order_ref FROM to_ship_orders WHERE environment = $1 AND order_ref IN (${placeholders})`, [environment, ...refs])).map(
          (row) => row.order_ref,
        ),
      );
      for (const shipment of shipments) {
        await tx.execute(
          `INSERT INTO to_ship_orders (environment, order_ref, shipment, imported_from, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
           ON CONFLICT (environment, order_ref) DO UPDATE SET shipment = excluded.shipment, imported_from = excluded.imported_from, updated_at = excluded.updated_at`,
          [environment, shipment.orderRef, JSON.stringify(shipment), source, now],
        );
      }
      return shipments.map((shipment) => (existing.has(shipment.orderRef) ? 'updated' : 'new'));
    });
  }
}

/** Rows per batch from the parsing worker. */
const parsedBatchRows = 500;
/** Rows checked and written per transaction; the event loop is let go between two (a few milliseconds each). */
const writeBatchRows = 100;

/** Opens the export with the imports' one opener, in this import's words. */
async function openToShipFile(input: SpreadsheetSource): Promise<OpenedSpreadsheet> {
  try {
    return await openSpreadsheet(input, { maxBytes: maxFileBytes, acceptXls: false, refuseEmpty: true });
  } catch (error) {
    if (!(error instanceof SpreadsheetOpenProblem)) throw error;
    throw refusedFile(error, maxFileBytes);
  }
}

type CheckedRow = { ok: true; orderRef: string | null; shipment: Shipment | null } | { ok: false; orderRef: string | null; reasons: string[] };

/** One data row: a shipment, nothing (an empty row), or the reasons it cannot be one. */
function checkRow(cells: readonly Cell[], header: Map<Column, number>): CheckedRow {
  if (cells.every((cell) => cell === null || cell === '')) return { ok: true, orderRef: null, shipment: null };
  const record: Record<string, string> = {};
  const cellErrors: string[] = [];
  for (const [column, index] of header) {
    const cell: Cell | undefined = cells[index];
    if (cell !== null && cell !== undefined && typeof cell === 'object') cellErrors.push(`${column} ${cell.error}`);
    else if (typeof cell === 'string') record[column] = cell;
  }
  const orderRef = record.orderRef?.trim() || null;
  const ref = record.orderRef === undefined ? null : readOrderRef(record.orderRef);
  if (ref && !ref.ok) cellErrors.push(ref.reason);
  const parsed = RowSchema.safeParse(ref?.ok ? { ...record, orderRef: ref.value } : record);
  if (cellErrors.length > 0 || !parsed.success) {
    return { ok: false, orderRef, reasons: [...cellErrors, ...(parsed.success ? [] : parsed.error.issues.map((issue) => issue.message))] };
  }
  return { ok: true, orderRef: parsed.data.orderRef, shipment: parsed.data };
}

function resolveHeader(cells: string[], fileName: string): Map<Column, number> {
  const known = new Set<string>([...requiredColumns, ...optionalColumns]);
  const map = new Map<Column, number>();
  cells.forEach((cell, index) => {
    const name = cell.trim();
    if (known.has(name) && !map.has(name as Column)) map.set(name as Column, index);
  });
  const missing = requiredColumns.filter((column) => !map.has(column));
  if (missing.length > 0) {
    throw new StationError(
      'IMPORT_FAILED',
      `${fileName} lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}. Column names are those of the service's spreadsheet upload and are exact.`,
    );
  }
  return map;
}
