/**
 * Manifest import: a CSV or XLSX file of orders into the order index. The file is parsed in a
 * worker thread with a heap limit (spreadsheet-parser.ts), within bounds on every size
 * (spreadsheets/sheet-limits.ts), and read to the end once before anything is written: a file that cannot
 * be read whole fails as a whole, with the line or part at fault, and the index is unchanged.
 * Then rows are written in batches, each batch one transaction of prepared statements. A bad row
 * (no order id, an unknown status, a barcode that belongs to another order) is reported with its
 * row number and why, and the good rows are kept; importing the same file again updates the orders
 * it already brought in (orders are keyed by order id). An import the station was stopped in the middle of is marked `interrupted` at
 * the next start.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';
import { OrderStatusSchema, type OrderStatus } from '../../shared/api/schemas';
import { EnvironmentSchema, type Environment } from '../../shared/contract/app';
import type { ImportRecordData, RowProblem } from '../../shared/contract/imports';
import { StationError, type ErrorFacts } from '../../shared/errors';
import { normalizeScan } from '../../shared/scan';
import type { Logger } from '../logging/logger';
import { retryLostRace, type StoreEngine } from '../store';
import { resolveColumns, type ColumnMapping, type ManifestField, type ResolvedColumns } from './manifest-columns';
import { SheetFileProblem, type SheetLimits } from '../spreadsheets/sheet-limits';
import { parseSpreadsheet } from '../spreadsheets/spreadsheet-parser';
import type { Cell } from '../spreadsheets/sheet-readers';
import type { SheetFormat } from '../spreadsheets/spreadsheet-format';
import type { OrderFacts, OrderIndex } from './order-index';
import { fileProblem, openSpreadsheet, refusedFile, SpreadsheetOpenProblem } from '../spreadsheets/spreadsheet-file';
import { processAlive } from '../process-alive';
import { errorText } from '../../shared/error-text';

export type ManifestSource = { kind: 'path'; path: string } | { kind: 'bytes'; fileName: string; bytes: Buffer };

export interface ImportProgress {
  importId: string;
  rowsRead: number;
  inserted: number;
  updated: number;
  failed: number;
  bytesRead: number;
  totalBytes: number;
  done: boolean;
}

export interface RowError {
  /** Row (XLSX) or line (CSV) number in the file; the header is row 1. */
  row: number;
  message: string;
  problem: RowProblem;
  facts: ErrorFacts;
}

/** A row refused: English for the CLI, the problem and its facts for the screen. */
interface RowRefusal {
  error: string;
  problem: RowProblem;
  facts: ErrorFacts;
}

export interface ImportReport {
  importId: string;
  environment: Environment;
  fileName: string;
  format: SheetFormat;
  /** The header each field was read from; null where the file has no such column. */
  columns: Record<ManifestField, string | null>;
  rowsRead: number;
  inserted: number;
  updated: number;
  failed: number;
  /** The first errors, in file order (all of them up to `maxReportedErrors`). */
  errors: RowError[];
  errorsTruncated: boolean;
  durationMs: number;
}

export interface ImportOptions {
  mapping?: ColumnMapping;
  /** Lets the caller match progress events to its request; one is made when absent. */
  importId?: string;
  onProgress?(progress: ImportProgress): void;
}

export interface ManifestImporterDeps {
  /** The store the order index lives in (the imports' records go with the orders they wrote). */
  engine: StoreEngine;
  index: OrderIndex;
  logger: Logger;
  clock?: () => Date;
  /** Rows per transaction (one engine transaction, its upserts batched: order-index.ts upsertBatch). */
  batchSize?: number;
  /** Least time between two progress reports (the last one is always sent). */
  progressIntervalMs?: number;
  /** Bounds on what a file may ask (tests shrink them). */
  limits?: SheetLimits;
  /** Heap of the parsing worker, in MiB. */
  parserHeapMb?: number;
}

export interface ManifestImporter {
  import(environment: Environment, source: ManifestSource, options?: ImportOptions): Promise<ImportReport>;
  /** The latest imports of an environment, newest first. */
  recent(environment: Environment, limit: number): Promise<ImportRecordData[]>;
}

export const maxManifestFileBytes = 256 * 1024 * 1024;
export const maxReportedErrors = 1000;

const count = z.coerce.number().int();
const ImportRowSchema = z.object({
  id: z.string(),
  environment: EnvironmentSchema,
  file_name: z.string(),
  format: z.string(),
  state: z.enum(['running', 'finished', 'failed', 'interrupted']),
  rows_read: count,
  rows_inserted: count,
  rows_updated: count,
  rows_failed: count,
  message: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});

export function createManifestImporter(deps: ManifestImporterDeps): ManifestImporter {
  const clock = deps.clock ?? (() => new Date());
  const batchSize = deps.batchSize ?? 2000;
  const progressIntervalMs = deps.progressIntervalMs ?? 100;
  const owner = hostname();
  // Imports a crashed station left running are marked first (once, before any read of them).
  const recovered = markInterrupted(deps.engine, owner, clock, deps.logger).catch((error: unknown) => {
    deps.logger.warn('could not check for imports cut short by a stop', { reason: describe(error) });
  });

  return {
    async recent(environment, limit) {
      await recovered;
      // Newest first; of two started in the same millisecond, the one still running or finished later.
      const rows = await deps.engine.query(
        `SELECT id, environment, file_name, format, state, rows_read, rows_inserted, rows_updated, rows_failed, message, started_at, finished_at
         FROM manifest_imports WHERE environment = $1 ORDER BY started_at DESC, (finished_at IS NULL) DESC, finished_at DESC, id DESC LIMIT $2`,
        [environment, limit],
      );
      return rows.map((raw) => {
        const row = ImportRowSchema.parse(raw);
        return {
          importId: row.id,
          environment: row.environment,
          fileName: row.file_name,
          format: row.format as SheetFormat,
          state: row.state,
          rowsRead: row.rows_read,
          inserted: row.rows_inserted,
          updated: row.rows_updated,
          failed: row.rows_failed,
          message: row.message,
          startedAt: row.started_at,
          finishedAt: row.finished_at,
        };
      });
    },

    async import(environment, source, options = {}) {
      const startedAt = performance.now();
      const importId = options.importId ?? randomUUID();
      const opened = await openSource(source);
      await recovered;
      // ON CONFLICT DO NOTHING + changes: claiming an import id is one atomic step, so two calls
      // with the same id cannot both start (the second is told the id is taken, not "UNIQUE constraint failed").
      const claimed = await deps.engine.execute(
        `INSERT INTO manifest_imports (id, environment, file_name, format, state, started_at, owner_host, owner_pid) VALUES ($1, $2, $3, $4, 'running', $5, $6, $7)
         ON CONFLICT (id) DO NOTHING`,
        [importId, environment, opened.fileName, opened.format, clock().toISOString(), owner, process.pid],
      );
      if (claimed.changes === 0) {
        const [existing] = await deps.engine.query('SELECT state, started_at FROM manifest_imports WHERE id = $1', [importId]);
        const state = typeof existing?.state === 'string' ? existing.state : 'running';
        const when = typeof existing?.started_at === 'string' ? existing.started_at : '';
        throw new StationError('IMPORT_FAILED', `The import id "${importId}" is already used by an import that ${state === 'running' ? 'is running' : `${state === 'finished' ? 'finished' : `ended ${state}`}`}${when ? ` (started ${when})` : ''}. Give each import its own id.`);
      }
      const progress: ImportProgress = { importId, rowsRead: 0, inserted: 0, updated: 0, failed: 0, bytesRead: 0, totalBytes: opened.totalBytes, done: false };
      const errors: RowError[] = [];
      const fail = (row: number, refusal: RowRefusal) => {
        progress.failed += 1;
        if (errors.length < maxReportedErrors) errors.push({ row, message: refusal.error, problem: refusal.problem, facts: refusal.facts });
      };

      let lastReport = 0;
      const report = (force: boolean) => {
        const now = performance.now();
        if (!force && now - lastReport < progressIntervalMs) return;
        lastReport = now;
        options.onProgress?.({ ...progress });
      };

      const finish = async (state: 'finished' | 'failed', message: string | null) => {
        await deps.engine.execute(
          `UPDATE manifest_imports SET state = $1, rows_read = $2, rows_inserted = $3, rows_updated = $4, rows_failed = $5, message = $6, finished_at = $7 WHERE id = $8`,
          [state, progress.rowsRead, progress.inserted, progress.updated, progress.failed, message, clock().toISOString(), importId],
        );
      };

      let columns: ResolvedColumns | null = null;
      let batch: ReadRow[] = [];
      // One engine transaction per batch, not per file: the transaction awaits only its own
      // statements (a bench's SQLite handle is shared with repositories not yet on the engine, and
      // the parser's next batch may take a while), and the rows before a failure stay imported.
      // A row whose barcode another order holds (in the index, or an earlier row of the file) is
      // refused in the same transaction: that barcode's scan would fit two orders.
      const flush = async () => {
        if (batch.length === 0) return;
        const rows = batch;
        batch = [];
        const { outcome, refused } = await retryLostRace(() =>
          deps.index.transaction(async (tx) => {
            const barcodes = rows.flatMap(({ facts }) => (facts.barcode ? [facts.barcode] : []));
            const { kept, refused } = withoutTakenBarcodes(rows, await deps.index.barcodeHolders(environment, barcodes, tx));
            return { outcome: await deps.index.upsertBatch(tx, environment, kept, 'import'), refused };
          }),
        );
        for (const { row, refusal } of refused) fail(row, refusal);
        progress.inserted += outcome.inserted;
        progress.updated += outcome.updated;
        report(false);
      };

      let checked = false;
      try {
        const parserSource = source.kind === 'path' ? { kind: 'path' as const, path: source.path } : { kind: 'bytes' as const, bytes: source.bytes };
        const batches = parseSpreadsheet(parserSource, opened.format, {
          limits: deps.limits,
          heapMb: deps.parserHeapMb,
          onChecked: () => {
            checked = true;
          },
        });
        for await (const parsed of batches) {
          progress.bytesRead = parsed.bytesRead;
          for (const item of parsed.items) {
            if (item.kind === 'header') {
              columns = resolveColumns(item.cells, options.mapping);
              continue;
            }
            progress.rowsRead += 1;
            if (!columns) continue;
            const row = parseRow(item.row.cells, columns);
            if ('error' in row) fail(item.row.row, row);
            else batch.push({ row: item.row.row, facts: row.facts });
            if (batch.length >= batchSize) await flush();
          }
          report(false);
        }
        await flush();
        if (!columns) {
          throw opened.totalBytes === 0
            ? fileProblem('empty', opened.fileName, `${opened.fileName} is empty.`)
            : fileProblem('no-header', opened.fileName, `${opened.fileName} has no header row and no orders.`);
        }
      } catch (error) {
        // Only a file that changed between the check and the import (or a failing disk) can fail
        // after rows were written; say so rather than claim nothing was imported.
        const written = checked && progress.inserted + progress.updated > 0;
        const aftermath = written ? ' The rows before that point were imported.' : ' Nothing from it was imported; fix the file and import it again.';
        const lead = written ? `${opened.fileName} could not be read to the end` : `${opened.fileName} was not imported`;
        const failure =
          error instanceof StationError
            ? withFileName(error, opened.fileName)
            : error instanceof SheetFileProblem
              ? fileProblem('unreadable', opened.fileName, `${lead}: ${error.message}.${aftermath}`)
              : new StationError('IMPORT_FAILED', `${lead}: ${describe(error)}.${aftermath}`, undefined, { cause: error });
        await finish('failed', failure.message);
        progress.done = true;
        report(true);
        deps.logger.warn('manifest import failed', { importId, fileName: opened.fileName, code: failure.code, rowsRead: progress.rowsRead, reason: failure.message.slice(0, 300) });
        throw failure;
      }

      await finish('finished', null);
      // Refused barcodes are found when their batch is written, after rows read later in it.
      errors.sort((a, b) => a.row - b.row);
      progress.done = true;
      progress.bytesRead = Math.max(progress.bytesRead, progress.totalBytes);
      report(true);
      const durationMs = Math.round(performance.now() - startedAt);
      deps.logger.info('manifest imported', { importId, environment, fileName: opened.fileName, rowsRead: progress.rowsRead, inserted: progress.inserted, updated: progress.updated, failed: progress.failed, durationMs });
      return {
        importId,
        environment,
        fileName: opened.fileName,
        format: opened.format,
        columns: Object.fromEntries(Object.entries(columns).map(([field, column]) => [field, column?.header ?? null])) as Record<ManifestField, string | null>,
        rowsRead: progress.rowsRead,
        inserted: progress.inserted,
        updated: progress.updated,
        failed: progress.failed,
        errors,
        errorsTruncated: progress.failed > errors.length,
        durationMs,
      };
    },
  };
}

/**
 * Imports left `running` by a process of this machine that is gone (a crash, a kill, a power
 * cut) are marked `interrupted`: the rows written before it stopped stay. A running import of
 * another live process (the app, while the CLI starts) is left alone.
 */
async function markInterrupted(engine: StoreEngine, owner: string, clock: () => Date, logger: Logger): Promise<void> {
  const running = await engine.query(`SELECT id, owner_host, owner_pid FROM manifest_imports WHERE state = 'running'`);
  for (const raw of running) {
    const { id, owner_host: host, owner_pid: pid } = RunningImportSchema.parse(raw);
    if (host !== null && host !== owner) continue;
    if (pid !== null && pid !== process.pid && processAlive(pid)) continue;
    if (pid === process.pid) continue;
    await engine.execute(`UPDATE manifest_imports SET state = 'interrupted', message = $1, finished_at = $2 WHERE id = $3 AND state = 'running'`, [
      'The station stopped while this import ran (a crash or a forced stop). The rows written before that stay; import the file again to finish it.',
      clock().toISOString(),
      id,
    ]);
    logger.warn('manifest import was interrupted by a stop of the station', { importId: id });
  }
}

const RunningImportSchema = z.object({ id: z.string(), owner_host: z.string().nullable(), owner_pid: z.coerce.number().int().nullable() });


interface OpenedSource {
  fileName: string;
  format: SheetFormat;
  totalBytes: number;
}

/** Opens the manifest with the imports' one opener, in this import's words. */
async function openSource(source: ManifestSource): Promise<OpenedSource> {
  try {
    const opened = await openSpreadsheet(source, { maxBytes: maxManifestFileBytes, acceptXls: false, refuseEmpty: false });
    return { fileName: opened.fileName, format: opened.format, totalBytes: opened.size };
  } catch (error) {
    if (!(error instanceof SpreadsheetOpenProblem)) throw error;
    throw refusedFile(error, maxManifestFileBytes);
  }
}

/** A row read from the file: its number and what it says of its order. */
interface ReadRow {
  row: number;
  facts: OrderFacts;
}

/**
 * The rows to write, and those refused because their barcode belongs to another order: held by
 * it in the index (`holders`), or claimed by an earlier row of this batch for another order id.
 */
function withoutTakenBarcodes(rows: readonly ReadRow[], holders: ReadonlyMap<string, { orderId: string; orderRef: string | null }>): { kept: OrderFacts[]; refused: { row: number; refusal: RowRefusal }[] } {
  const kept: OrderFacts[] = [];
  const refused: { row: number; refusal: RowRefusal }[] = [];
  const claimed = new Map(holders);
  for (const { row, facts } of rows) {
    const barcode = facts.barcode;
    const holder = barcode ? claimed.get(barcode) : undefined;
    if (barcode && holder && holder.orderId !== facts.orderId) {
      const other = holder.orderRef ?? holder.orderId;
      refused.push({
        row,
        refusal: {
          error: `barcode ${barcode} already belongs to order ${other} (order id ${holder.orderId}); the row of order ${facts.orderId} was not imported`,
          problem: 'barcode-taken',
          facts: { barcode, otherOrder: other, otherOrderId: holder.orderId },
        },
      });
      continue;
    }
    if (barcode) claimed.set(barcode, { orderId: facts.orderId, orderRef: facts.orderRef ?? null });
    kept.push(facts);
  }
  return { kept, refused };
}

const statusAliases = new Map<string, OrderStatus>(OrderStatusSchema.options.map((status) => [status.replace(/_/g, ''), status]));

function parseRow(cells: Cell[], columns: ResolvedColumns): { facts: OrderFacts } | RowRefusal {
  const read = (field: ManifestField): { value: string | null } | RowRefusal => {
    const column = columns[field];
    if (!column) return { value: null };
    const cell = cells[column.index] ?? null;
    if (cell === null) return { value: null };
    if (typeof cell === 'object') {
      return { error: `${field} (column "${column.header}") ${cell.error}`, problem: 'cell-unreadable', facts: { field, column: column.header.slice(0, 200) } };
    }
    return { value: cell };
  };
  const identifier = (field: ManifestField, required: boolean): { value: string | null } | RowRefusal => {
    const cell = read(field);
    if ('error' in cell) return cell;
    if (cell.value === null) return required ? { error: `${field} is empty`, problem: 'empty', facts: { field } } : cell;
    const normalized = normalizeScan(cell.value);
    if (!normalized.ok) {
      return normalized.reason === 'empty'
        ? { error: `${field} is empty`, problem: 'empty', facts: { field } }
        : { error: `${field} cannot be scanned: ${normalized.message}`, problem: 'not-scannable', facts: { field, reason: normalized.reason } };
    }
    return { value: normalized.value };
  };

  const orderId = identifier('orderId', true);
  if ('error' in orderId) return orderId;
  const orderRef = identifier('orderRef', false);
  if ('error' in orderRef) return orderRef;
  const barcode = identifier('barcode', false);
  if ('error' in barcode) return barcode;
  const bundleId = identifier('bundleId', false);
  if ('error' in bundleId) return bundleId;
  const recipient = read('recipient');
  if ('error' in recipient) return recipient;
  const statusCell = read('status');
  if ('error' in statusCell) return statusCell;
  let status: OrderStatus | null = null;
  if (statusCell.value !== null) {
    const found = statusAliases.get(statusCell.value.toLowerCase().replace(/[\s_-]/g, ''));
    if (!found) {
      const value = statusCell.value.slice(0, 40);
      return { error: `status "${value}" is not one of the Delivery API's statuses`, problem: 'unknown-status', facts: { value } };
    }
    status = found;
  }
  return {
    facts: {
      orderId: orderId.value ?? '',
      orderRef: orderRef.value,
      barcode: barcode.value,
      bundleId: bundleId.value,
      recipient: recipient.value,
      status,
    },
  };
}

/** A refusal the screen words with the file's name (its facts say what was wrong, not which file). */
function withFileName(error: StationError, fileName: string): StationError {
  if (error.code !== 'IMPORT_FAILED' || !error.facts?.subject || error.facts.file !== undefined) return error;
  return new StationError(error.code, error.message, error.details, { cause: error.cause, facts: { ...error.facts, file: fileName.slice(0, 255) } });
}

function describe(error: unknown): string {
  return errorText(error).replace(/\s+/g, ' ').slice(0, 200);
}
