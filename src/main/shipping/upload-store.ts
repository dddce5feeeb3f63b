/**
 * The spreadsheet uploads' tables (migration 10): one row per upload, one per data row of its
 * file with the row's own cells, the order to create and what became of it. What an upload
 * reports (counts, batches, result) is derived from its rows, so a restart cannot lose count.
 */
import { z } from 'zod';
import { CreateOrderRequestSchema, type CreateOrderRequest } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import {
  UploadRowProblemSchema,
  UploadSkipSchema,
  type UploadCounts,
  type UploadResult,
  type UploadRowProblem,
  type UploadRowState,
  type UploadSkip,
  type UploadState,
} from '../../shared/contract/upload';
import type { StationDatabase } from '../store/database';

export interface UploadRecord {
  id: string;
  environment: Environment;
  fileName: string;
  columns: string[];
  locations: string[];
  state: UploadState;
  printerId: string | null;
  printRunId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface StoredUploadRow {
  row: number;
  batch: number;
  orderRef: string | null;
  locationId: string | null;
  cells: Record<string, string>;
  request: CreateOrderRequest | null;
  state: UploadRowState;
  problems: UploadRowProblem[];
  skip: UploadSkip | null;
  orderId: string | null;
  barcode: string | null;
  trackingUrl: string | null;
  bundleId: string | null;
}

export interface RowOutcome {
  state: UploadRowState;
  problems?: UploadRowProblem[];
  skip?: UploadSkip | null;
  orderId?: string | null;
  barcode?: string | null;
  trackingUrl?: string | null;
  bundleId?: string | null;
}

const StringList = z.array(z.string());
const CellsSchema = z.record(z.string(), z.string());
const ProblemsSchema = z.array(UploadRowProblemSchema);

type UploadDbRow = [string, string, string, string, string, string, string | null, string | null, string, string];
const uploadColumns = 'id, environment, file_name, columns, locations, state, printer_id, print_run_id, created_at, updated_at';
type RowDbRow = [number, number, string | null, string | null, string, string | null, string, string, string | null, string | null, string | null, string | null, string | null];
const rowColumns = 'row_number, batch, order_ref, location_id, cells, request, state, problems, skip, order_id, barcode, tracking_url, bundle_id';

export const emptyCounts = (): UploadCounts => ({ total: 0, ready: 0, invalid: 0, skipped: 0, created: 0, failed: 0, unknown: 0, cancelled: 0 });

/** The dashboard's three results: every row done, some rows not, or none done. */
export function resultOf(counts: UploadCounts, stopped: boolean): UploadResult | null {
  if (counts.ready > 0 && !stopped) return null;
  const notDone = counts.invalid + counts.failed + counts.unknown + counts.cancelled + counts.ready;
  if (notDone === 0) return 'completed';
  return counts.created + counts.skipped > 0 ? 'completed-with-errors' : 'failed';
}

export class UploadStore {
  constructor(
    private readonly db: StationDatabase,
    private readonly clock: () => Date,
  ) {}

  create(record: Omit<UploadRecord, 'createdAt' | 'updatedAt' | 'printerId' | 'printRunId'>, rows: StoredUploadRow[]): void {
    const now = this.clock().toISOString();
    const insertRow = this.db.prepare(
      `INSERT INTO upload_rows (upload_id, ${rowColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      this.db
        .prepare(`INSERT INTO uploads (${uploadColumns}) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)`)
        .run(record.id, record.environment, record.fileName, JSON.stringify(record.columns), JSON.stringify(record.locations), record.state, now, now);
      for (const row of rows) {
        insertRow.run(
          record.id,
          row.row,
          row.batch,
          row.orderRef,
          row.locationId,
          JSON.stringify(row.cells),
          row.request ? JSON.stringify(row.request) : null,
          row.state,
          JSON.stringify(row.problems),
          row.skip ? JSON.stringify(row.skip) : null,
          row.orderId,
          row.barcode,
          row.trackingUrl,
          row.bundleId,
        );
      }
    })();
  }

  get(id: string): UploadRecord | null {
    const row = this.db.prepare(`SELECT ${uploadColumns} FROM uploads WHERE id = ?`).raw(true).get(id) as UploadDbRow | undefined;
    return row ? toRecord(row) : null;
  }

  stateOf(id: string): UploadState | null {
    const row = this.db.prepare('SELECT state FROM uploads WHERE id = ?').raw(true).get(id) as [UploadState] | undefined;
    return row ? row[0] : null;
  }

  latest(environment: Environment, limit: number): UploadRecord[] {
    const rows = this.db.prepare(`SELECT ${uploadColumns} FROM uploads WHERE environment = ? ORDER BY created_at DESC, id DESC LIMIT ?`).raw(true).all(environment, limit) as UploadDbRow[];
    return rows.map(toRecord);
  }

  setState(id: string, state: UploadState, from?: UploadState[]): boolean {
    const now = this.clock().toISOString();
    if (!from) return this.db.prepare('UPDATE uploads SET state = ?, updated_at = ? WHERE id = ?').run(state, now, id).changes === 1;
    const placeholders = from.map(() => '?').join(', ');
    return this.db.prepare(`UPDATE uploads SET state = ?, updated_at = ? WHERE id = ? AND state IN (${placeholders})`).run(state, now, id, ...from).changes === 1;
  }

  setPrinting(id: string, printerId: string | null, printRunId: string | null): void {
    this.db.prepare('UPDATE uploads SET printer_id = ?, print_run_id = COALESCE(?, print_run_id), updated_at = ? WHERE id = ?').run(printerId, printRunId, this.clock().toISOString(), id);
  }

  rows(id: string, where: { state?: UploadRowState; batch?: number; limit?: number } = {}): StoredUploadRow[] {
    const clauses = ['upload_id = ?'];
    const values: (string | number)[] = [id];
    if (where.state) {
      clauses.push('state = ?');
      values.push(where.state);
    }
    if (where.batch !== undefined) {
      clauses.push('batch = ?');
      values.push(where.batch);
    }
    const limit = where.limit !== undefined ? ` LIMIT ${Math.floor(where.limit)}` : '';
    const rows = this.db.prepare(`SELECT ${rowColumns} FROM upload_rows WHERE ${clauses.join(' AND ')} ORDER BY row_number${limit}`).raw(true).all(...values) as RowDbRow[];
    return rows.map(toRow);
  }

  /** Rows that are not plainly ready, in file order, for the preview. */
  notReady(id: string, limit: number): { rows: StoredUploadRow[]; total: number } {
    const rows = this.db.prepare(`SELECT ${rowColumns} FROM upload_rows WHERE upload_id = ? AND state <> 'ready' ORDER BY row_number LIMIT ?`).raw(true).all(id, limit) as RowDbRow[];
    const total = (this.db.prepare(`SELECT COUNT(*) FROM upload_rows WHERE upload_id = ? AND state <> 'ready'`).raw(true).get(id) as [number])[0];
    return { rows: rows.map(toRow), total };
  }

  /** Counts per batch (batch 0 = the whole upload). */
  counts(id: string): Map<number, { counts: UploadCounts; firstRow: number; lastRow: number }> {
    const rows = this.db
      .prepare('SELECT batch, state, COUNT(*), MIN(row_number), MAX(row_number) FROM upload_rows WHERE upload_id = ? GROUP BY batch, state')
      .raw(true)
      .all(id) as [number, UploadRowState, number, number, number][];
    const result = new Map<number, { counts: UploadCounts; firstRow: number; lastRow: number }>();
    const add = (batch: number, state: UploadRowState, count: number, first: number, last: number) => {
      const entry = result.get(batch) ?? { counts: emptyCounts(), firstRow: first, lastRow: last };
      entry.counts[state] += count;
      entry.counts.total += count;
      entry.firstRow = Math.min(entry.firstRow, first);
      entry.lastRow = Math.max(entry.lastRow, last);
      result.set(batch, entry);
    };
    for (const [batch, state, count, first, last] of rows) {
      add(batch, state, count, first, last);
      add(0, state, count, first, last);
    }
    return result;
  }

  /**
   * The location each of these orderRefs was created for by an upload of this environment (the
   * latest upload that created it). Asked only for rows the ledger holds as created, in chunks.
   */
  createdLocations(environment: Environment, orderRefs: readonly string[]): Map<string, string> {
    const found = new Map<string, string>();
    const chunk = 500;
    for (let start = 0; start < orderRefs.length; start += chunk) {
      const refs = orderRefs.slice(start, start + chunk);
      const rows = this.db
        .prepare(
          `SELECT r.order_ref, r.location_id FROM upload_rows r JOIN uploads u ON u.id = r.upload_id
           WHERE u.environment = ? AND r.state = 'created' AND r.location_id IS NOT NULL AND r.order_ref IN (${refs.map(() => '?').join(', ')})
           ORDER BY u.created_at, u.id`,
        )
        .raw(true)
        .all(environment, ...refs) as [string, string][];
      // Oldest first, so the latest upload's location is the one kept.
      for (const [orderRef, locationId] of rows) found.set(orderRef, locationId);
    }
    return found;
  }

  skipReasons(id: string): Record<UploadSkip['code'], number> {
    const rows = this.db.prepare(`SELECT skip FROM upload_rows WHERE upload_id = ? AND state = 'skipped'`).raw(true).all(id) as [string | null][];
    const counts: Record<UploadSkip['code'], number> = { 'created-before': 0, 'unknown-before': 0, 'in-progress': 0, 'repeated-in-file': 0 };
    for (const [skip] of rows) if (skip) counts[UploadSkipSchema.parse(JSON.parse(skip)).code] += 1;
    return counts;
  }

  /**
   * Settles a row; only a ready row changes, so two runners never both settle it. The answer to a
   * POST that was sent also settles a row cancelled while the POST was in flight: what the
   * service did wins over the cancellation.
   */
  settle(id: string, row: number, outcome: RowOutcome, answered = false): boolean {
    return (
      this.db
        .prepare(
          `UPDATE upload_rows SET state = ?, problems = COALESCE(?, problems), skip = ?, order_id = ?, barcode = ?, tracking_url = ?, bundle_id = ?
           WHERE upload_id = ? AND row_number = ? AND state IN ('ready', ${answered ? "'cancelled'" : "'ready'"})`,
        )
        .run(
          outcome.state,
          outcome.problems ? JSON.stringify(outcome.problems) : null,
          outcome.skip ? JSON.stringify(outcome.skip) : null,
          outcome.orderId ?? null,
          outcome.barcode ?? null,
          outcome.trackingUrl ?? null,
          outcome.bundleId ?? null,
          id,
          row,
        ).changes === 1
    );
  }

  /** The rows not sent when an upload is cancelled. */
  cancelReady(id: string): number {
    return this.db
      .prepare(`UPDATE upload_rows SET state = 'cancelled', problems = ? WHERE upload_id = ? AND state = 'ready'`)
      .run(JSON.stringify([{ code: 'cancelled' }]), id).changes;
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }
}

function toRecord(row: UploadDbRow): UploadRecord {
  return {
    id: row[0],
    environment: row[1] as Environment,
    fileName: row[2],
    columns: StringList.parse(JSON.parse(row[3])),
    locations: StringList.parse(JSON.parse(row[4])),
    state: row[5] as UploadState,
    printerId: row[6],
    printRunId: row[7],
    createdAt: row[8],
    updatedAt: row[9],
  };
}

function toRow(row: RowDbRow): StoredUploadRow {
  return {
    row: row[0],
    batch: row[1],
    orderRef: row[2],
    locationId: row[3],
    cells: CellsSchema.parse(JSON.parse(row[4])),
    request: row[5] ? CreateOrderRequestSchema.parse(JSON.parse(row[5])) : null,
    state: row[6] as UploadRowState,
    problems: ProblemsSchema.parse(JSON.parse(row[7])),
    skip: row[8] ? UploadSkipSchema.parse(JSON.parse(row[8])) : null,
    orderId: row[9],
    barcode: row[10],
    trackingUrl: row[11],
    bundleId: row[12],
  };
}
