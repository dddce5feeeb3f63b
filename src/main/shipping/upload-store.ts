/**
 * The spreadsheet uploads' tables (migration 10): one row per upload, one per data row of its
 * file with the row's own cells, the order to create and what became of it. What an upload
 * reports (counts, batches, result) is derived from its rows, so a restart cannot lose count.
 * On a warehouse's shared store every bench sees the same uploads; a row is created only after the
 * creation ledger's claim (one winner across benches), and a row settles only from `ready`.
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
import type { StoreEngine, StoreSession, StoreTransaction } from '../store';

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

type UploadDbRow = {
  id: string;
  environment: string;
  file_name: string;
  columns: string;
  locations: string;
  state: string;
  printer_id: string | null;
  print_run_id: string | null;
  created_at: string;
  updated_at: string;
};
const uploadColumns = 'id, environment, file_name, columns, locations, state, printer_id, print_run_id, created_at, updated_at';
type RowDbRow = {
  row_number: number;
  batch: number;
  order_ref: string | null;
  location_id: string | null;
  cells: string;
  request: string | null;
  state: string;
  problems: string;
  skip: string | null;
  order_id: string | null;
  barcode: string | null;
  tracking_url: string | null;
  bundle_id: string | null;
};
const rowColumns = 'row_number, batch, order_ref, location_id, cells, request, state, problems, skip, order_id, barcode, tracking_url, bundle_id';
const rowColumnCount = 14; // upload_id and the columns above
/** Rows per INSERT when an upload is stored: few round trips, well under both engines' parameter limits. */
const rowsPerInsert = 200;

/** A row skipped because another runner holds its claim, exactly as `settle` writes it. */
const inProgress = JSON.stringify({ code: 'in-progress' } satisfies UploadSkip);

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
    private readonly engine: StoreEngine,
    private readonly clock: () => Date,
  ) {}

  async create(record: Omit<UploadRecord, 'createdAt' | 'updatedAt' | 'printerId' | 'printRunId'>, rows: StoredUploadRow[]): Promise<void> {
    const now = this.clock().toISOString();
    await this.engine.transaction(async (tx) => {
      await tx.execute(`INSERT INTO uploads (${uploadColumns}) VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL, $7, $7)`, [
        record.id,
        record.environment,
        record.fileName,
        JSON.stringify(record.columns),
        JSON.stringify(record.locations),
        record.state,
        now,
      ]);
      for (let start = 0; start < rows.length; start += rowsPerInsert) {
        const chunk = rows.slice(start, start + rowsPerInsert);
        const tuples = chunk.map((_, index) => `(${Array.from({ length: rowColumnCount }, (_, column) => `$${index * rowColumnCount + column + 1}`).join(', ')})`);
        const values = chunk.flatMap((row) => [
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
        ]);
        await tx.execute(`INSERT INTO upload_rows (upload_id, ${rowColumns}) VALUES ${tuples.join(', ')}`, values);
      }
    });
  }

  async get(id: string): Promise<UploadRecord | null> {
    const [row] = await this.engine.query<UploadDbRow>(`SELECT ${uploadColumns} FROM uploads WHERE id = $1`, [id]);
    return row ? toRecord(row) : null;
  }

  async stateOf(id: string): Promise<UploadState | null> {
    const [row] = await this.engine.query<{ state: UploadState }>('SELECT state FROM uploads WHERE id = $1', [id]);
    return row ? row.state : null;
  }

  async latest(environment: Environment, limit: number): Promise<UploadRecord[]> {
    const rows = await this.engine.query<UploadDbRow>(`SELECT ${uploadColumns} FROM uploads WHERE environment = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [environment, limit]);
    return rows.map(toRecord);
  }

  async setState(id: string, state: UploadState, from?: UploadState[], session: StoreSession = this.engine): Promise<boolean> {
    const now = this.clock().toISOString();
    if (!from) return (await session.execute('UPDATE uploads SET state = $1, updated_at = $2 WHERE id = $3', [state, now, id])).changes === 1;
    const fromList = from.map((_, index) => `$${index + 4}`).join(', ');
    return (await session.execute(`UPDATE uploads SET state = $1, updated_at = $2 WHERE id = $3 AND state IN (${fromList})`, [state, now, id, ...from])).changes === 1;
  }

  async setPrinting(id: string, printerId: string | null, printRunId: string | null): Promise<void> {
    await this.engine.execute('UPDATE uploads SET printer_id = $1, print_run_id = COALESCE($2, print_run_id), updated_at = $3 WHERE id = $4', [printerId, printRunId, this.clock().toISOString(), id]);
  }

  async rows(id: string, where: { state?: UploadRowState; batch?: number; limit?: number } = {}): Promise<StoredUploadRow[]> {
    const clauses = ['upload_id = $1'];
    const values: (string | number)[] = [id];
    if (where.state) {
      values.push(where.state);
      clauses.push(`state = $${values.length}`);
    }
    if (where.batch !== undefined) {
      values.push(where.batch);
      clauses.push(`batch = $${values.length}`);
    }
    const limit = where.limit !== undefined ? ` LIMIT ${Math.floor(where.limit)}` : '';
    const rows = await this.engine.query<RowDbRow>(`SELECT ${rowColumns} FROM upload_rows WHERE ${clauses.join(' AND ')} ORDER BY row_number${limit}`, values);
    return rows.map(toRow);
  }

  /** Rows that are not plainly ready, in file order, for the preview. */
  async notReady(id: string, limit: number): Promise<{ rows: StoredUploadRow[]; total: number }> {
    const rows = await this.engine.query<RowDbRow>(`SELECT ${rowColumns} FROM upload_rows WHERE upload_id = $1 AND state <> 'ready' ORDER BY row_number LIMIT $2`, [id, limit]);
    const [count] = await this.engine.query<{ total: number }>(`SELECT COUNT(*) AS total FROM upload_rows WHERE upload_id = $1 AND state <> 'ready'`, [id]);
    return { rows: rows.map(toRow), total: Number(count?.total ?? 0) };
  }

  /** Rows that were not created and will not be by this upload (invalid, refused, unknown, cancelled), in file order. */
  async problems(id: string, limit: number): Promise<{ rows: StoredUploadRow[]; total: number }> {
    const notCreated = `upload_id = $1 AND state IN ('invalid', 'failed', 'unknown', 'cancelled')`;
    const rows = await this.engine.query<RowDbRow>(`SELECT ${rowColumns} FROM upload_rows WHERE ${notCreated} ORDER BY row_number LIMIT $2`, [id, limit]);
    const [count] = await this.engine.query<{ total: number }>(`SELECT COUNT(*) AS total FROM upload_rows WHERE ${notCreated}`, [id]);
    return { rows: rows.map(toRow), total: Number(count?.total ?? 0) };
  }

  /** Counts per batch (batch 0 = the whole upload). */
  async counts(id: string): Promise<Map<number, { counts: UploadCounts; firstRow: number; lastRow: number }>> {
    const rows = await this.engine.query<{ batch: number; state: UploadRowState; count: number; first: number; last: number }>(
      'SELECT batch, state, COUNT(*) AS count, MIN(row_number) AS first, MAX(row_number) AS last FROM upload_rows WHERE upload_id = $1 GROUP BY batch, state',
      [id],
    );
    const result = new Map<number, { counts: UploadCounts; firstRow: number; lastRow: number }>();
    const add = (batch: number, state: UploadRowState, count: number, first: number, last: number) => {
      const entry = result.get(batch) ?? { counts: emptyCounts(), firstRow: first, lastRow: last };
      entry.counts[state] += count;
      entry.counts.total += count;
      entry.firstRow = Math.min(entry.firstRow, first);
      entry.lastRow = Math.max(entry.lastRow, last);
      result.set(batch, entry);
    };
    for (const row of rows) {
      const [batch, count, first, last] = [Number(row.batch), Number(row.count), Number(row.first), Number(row.last)];
      add(batch, row.state, count, first, last);
      add(0, row.state, count, first, last);
    }
    return result;
  }

  /**
   * The location each of these orderRefs was created for by an upload of this environment (the
   * latest upload that created it). Asked only for rows the ledger holds as created, in chunks.
   */
  async createdLocations(environment: Environment, orderRefs: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const chunk = 500;
    for (let start = 0; start < orderRefs.length; start += chunk) {
      const refs = orderRefs.slice(start, start + chunk);
      const rows = await this.engine.query<{ order_ref: string; location_id: string }>(
        `SELECT r.order_ref, r.location_id FROM upload_rows r JOIN uploads u ON u.id = r.upload_id
         WHERE u.environment = $1 AND r.state = 'created' AND r.location_id IS NOT NULL AND r.order_ref IN (${refs.map((_, index) => `$${index + 2}`).join(', ')})
         ORDER BY u.created_at, u.id`,
        [environment, ...refs],
      );
      // Oldest first, so the latest upload's location is the one kept.
      for (const row of rows) found.set(row.order_ref, row.location_id);
    }
    return found;
  }

  async skipReasons(id: string): Promise<Record<UploadSkip['code'], number>> {
    const rows = await this.engine.query<{ skip: string | null }>(`SELECT skip FROM upload_rows WHERE upload_id = $1 AND state = 'skipped'`, [id]);
    const counts: Record<UploadSkip['code'], number> = { 'created-before': 0, 'unknown-before': 0, 'in-progress': 0, 'repeated-in-file': 0 };
    for (const { skip } of rows) if (skip) counts[UploadSkipSchema.parse(JSON.parse(skip)).code] += 1;
    return counts;
  }

  /**
   * Settles a row; only a ready row changes, so two runners never both settle it. The answer to a
   * POST that was sent (`answered`) also settles a row cancelled while the POST was in flight, and
   * one another runner of the same upload (another bench) marked "in progress" because this runner
   * held the claim: what the service did wins over both.
   */
  async settle(id: string, row: number, outcome: RowOutcome, answered = false, session: StoreSession = this.engine): Promise<boolean> {
    const result = await session.execute(
      `UPDATE upload_rows SET state = $1, problems = COALESCE($2, problems), skip = $3, order_id = $4, barcode = $5, tracking_url = $6, bundle_id = $7
       WHERE upload_id = $8 AND row_number = $9 AND (state = 'ready' OR ($10 = 1 AND (state = 'cancelled' OR (state = 'skipped' AND skip = $11))))`,
      [
        outcome.state,
        outcome.problems ? JSON.stringify(outcome.problems) : null,
        outcome.skip ? JSON.stringify(outcome.skip) : null,
        outcome.orderId ?? null,
        outcome.barcode ?? null,
        outcome.trackingUrl ?? null,
        outcome.bundleId ?? null,
        id,
        row,
        answered,
        inProgress,
      ],
    );
    return result.changes === 1;
  }

  /**
   * A row whose POST created nothing (a 429, no link) goes back to ready for this runner to send
   * again, also when another runner of the upload marked it "in progress" meanwhile.
   */
  async reopen(id: string, row: number): Promise<void> {
    await this.engine.execute(`UPDATE upload_rows SET state = 'ready', skip = NULL WHERE upload_id = $1 AND row_number = $2 AND state = 'skipped' AND skip = $3`, [id, row, inProgress]);
  }

  /** The rows not sent when an upload is cancelled. */
  async cancelReady(id: string, session: StoreSession = this.engine): Promise<number> {
    return (await session.execute(`UPDATE upload_rows SET state = 'cancelled', problems = $1 WHERE upload_id = $2 AND state = 'ready'`, [JSON.stringify([{ code: 'cancelled' }]), id])).changes;
  }

  /**
   * One transaction on the store the uploads live in; the creation ledger shares that store, so
   * its writes may go in the same transaction (pass it `tx`).
   */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.engine.transaction(work);
  }
}

function toRecord(row: UploadDbRow): UploadRecord {
  return {
    id: row.id,
    environment: row.environment as Environment,
    fileName: row.file_name,
    columns: StringList.parse(JSON.parse(row.columns)),
    locations: StringList.parse(JSON.parse(row.locations)),
    state: row.state as UploadState,
    printerId: row.printer_id,
    printRunId: row.print_run_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(row: RowDbRow): StoredUploadRow {
  return {
    row: Number(row.row_number),
    batch: Number(row.batch),
    orderRef: row.order_ref,
    locationId: row.location_id,
    cells: CellsSchema.parse(JSON.parse(row.cells)),
    request: row.request ? CreateOrderRequestSchema.parse(JSON.parse(row.request)) : null,
    state: row.state as UploadRowState,
    problems: ProblemsSchema.parse(JSON.parse(row.problems)),
    skip: row.skip ? UploadSkipSchema.parse(JSON.parse(row.skip)) : null,
    orderId: row.order_id,
    barcode: row.barcode,
    trackingUrl: row.tracking_url,
    bundleId: row.bundle_id,
  };
}
