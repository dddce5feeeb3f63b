/**
 * Manifest import: a CSV or XLSX file of orders into the order index. Rows stream in and are
 * written in batches, each batch one transaction of prepared statements, so 100,000 rows take
 * seconds and a crash keeps every batch already written. A bad row is reported with its row
 * number and why, and the good rows are kept; importing the same file again updates the orders
 * it already brought in rather than adding them twice (orders are keyed by order id).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { OrderStatusSchema, type OrderStatus } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import { StationError } from '../../shared/errors';
import { normalizeScan } from '../../shared/scan';
import type { Logger } from '../logging/logger';
import type { StationDatabase } from '../store/database';
import { resolveColumns, type ColumnMapping, type ManifestField, type ResolvedColumns } from './manifest-columns';
import { detectFormat, readCsv, readXlsx, type Cell, type ManifestFormat, type ManifestItem } from './manifest-readers';
import type { OrderFacts, OrderIndex } from './order-index';

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
}

export interface ImportReport {
  importId: string;
  environment: Environment;
  fileName: string;
  format: ManifestFormat;
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
  db: StationDatabase;
  index: OrderIndex;
  logger: Logger;
  clock?: () => Date;
  /** Rows per transaction. */
  batchSize?: number;
  /** Least time between two progress reports (the last one is always sent). */
  progressIntervalMs?: number;
}

export interface ManifestImporter {
  import(environment: Environment, source: ManifestSource, options?: ImportOptions): Promise<ImportReport>;
}

export const maxManifestFileBytes = 256 * 1024 * 1024;
export const maxReportedErrors = 1000;
const headBytes = 64 * 1024;

export function createManifestImporter(deps: ManifestImporterDeps): ManifestImporter {
  const clock = deps.clock ?? (() => new Date());
  const batchSize = deps.batchSize ?? 2000;
  const progressIntervalMs = deps.progressIntervalMs ?? 100;
  const insertImport = deps.db.prepare(
    `INSERT INTO manifest_imports (id, environment, file_name, format, state, started_at) VALUES (?, ?, ?, ?, 'running', ?)`,
  );
  const finishImport = deps.db.prepare(
    `UPDATE manifest_imports SET state = ?, rows_read = ?, rows_inserted = ?, rows_updated = ?, rows_failed = ?, message = ?, finished_at = ? WHERE id = ?`,
  );

  return {
    async import(environment, source, options = {}) {
      const startedAt = performance.now();
      const importId = options.importId ?? randomUUID();
      const opened = await openSource(source);
      const progress: ImportProgress = { importId, rowsRead: 0, inserted: 0, updated: 0, failed: 0, bytesRead: 0, totalBytes: opened.totalBytes, done: false };
      const errors: RowError[] = [];
      const fail = (row: number, message: string) => {
        progress.failed += 1;
        if (errors.length < maxReportedErrors) errors.push({ row, message });
      };

      const input = opened.stream();
      input.on('data', (chunk: Buffer) => {
        progress.bytesRead += chunk.length;
      });
      insertImport.run(importId, environment, opened.fileName, opened.format, clock().toISOString());

      let lastReport = 0;
      const report = (force: boolean) => {
        const now = performance.now();
        if (!force && now - lastReport < progressIntervalMs) return;
        lastReport = now;
        options.onProgress?.({ ...progress });
      };

      let columns: ResolvedColumns | null = null;
      let batch: { row: number; facts: OrderFacts }[] = [];
      const flush = () => {
        if (batch.length === 0) return;
        const rows = batch;
        batch = [];
        deps.index.transaction(() => {
          for (const { facts } of rows) {
            const outcome = deps.index.upsert(environment, facts, 'import');
            if (outcome.change === 'inserted') progress.inserted += 1;
            else progress.updated += 1;
          }
        });
        report(false);
      };

      try {
        const items: AsyncIterable<ManifestItem> = opened.format === 'csv' ? readCsv(input, opened.head) : readXlsx(input);
        for await (const item of items) {
          if (item.kind === 'header') {
            columns = resolveColumns(item.cells, options.mapping);
            continue;
          }
          progress.rowsRead += 1;
          if (item.kind === 'bad-row') {
            fail(item.row, item.message);
            continue;
          }
          if (!columns) continue;
          const parsed = parseRow(item.row.cells, columns);
          if ('error' in parsed) fail(item.row.row, parsed.error);
          else batch.push({ row: item.row.row, facts: parsed.facts });
          if (batch.length >= batchSize) flush();
        }
        flush();
        if (!columns) throw new StationError('IMPORT_FAILED', `${opened.fileName} is empty: it has no header row and no orders.`);
      } catch (error) {
        input.destroy();
        const failure =
          error instanceof StationError
            ? error
            : new StationError('IMPORT_FAILED', `${opened.fileName} could not be read to the end: ${describe(error)}. The rows before that point were imported.`, undefined, { cause: error });
        finishImport.run('failed', progress.rowsRead, progress.inserted, progress.updated, progress.failed, failure.message, clock().toISOString(), importId);
        progress.done = true;
        report(true);
        deps.logger.warn('manifest import failed', { importId, fileName: opened.fileName, code: failure.code, rowsRead: progress.rowsRead });
        throw failure;
      }

      finishImport.run('finished', progress.rowsRead, progress.inserted, progress.updated, progress.failed, null, clock().toISOString(), importId);
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

interface OpenedSource {
  fileName: string;
  format: ManifestFormat;
  head: Buffer;
  totalBytes: number;
  stream(): Readable;
}

async function openSource(source: ManifestSource): Promise<OpenedSource> {
  if (source.kind === 'bytes') {
    const fileName = source.fileName;
    const head = source.bytes.subarray(0, headBytes);
    const format = formatOrFail(head, fileName);
    return { fileName, format, head, totalBytes: source.bytes.length, stream: () => Readable.from([source.bytes], { objectMode: false }) };
  }
  const fileName = basename(source.path);
  let size: number;
  let head: Buffer;
  try {
    const info = await stat(source.path);
    if (!info.isFile()) throw new StationError('IMPORT_FAILED', `${source.path} is not a file.`);
    size = info.size;
    if (size > maxManifestFileBytes) {
      throw new StationError('IMPORT_FAILED', `${fileName} is ${Math.round(size / 1024 / 1024)} MB; a manifest is at most ${maxManifestFileBytes / 1024 / 1024} MB. Split it into smaller files.`);
    }
    const handle = await open(source.path, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(headBytes, size));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof StationError) throw error;
    throw new StationError('IMPORT_FAILED', `${fileName} could not be opened: ${describe(error)}.`, undefined, { cause: error });
  }
  const format = formatOrFail(head, fileName);
  return { fileName, format, head, totalBytes: size, stream: () => createReadStream(source.path, { highWaterMark: 256 * 1024 }) };
}

function formatOrFail(head: Buffer, fileName: string): ManifestFormat {
  const format = detectFormat(head, fileName);
  if (typeof format === 'object') throw new StationError('IMPORT_FAILED', format.unsupported);
  return format;
}

const statusAliases = new Map<string, OrderStatus>(OrderStatusSchema.options.map((status) => [status.replace(/_/g, ''), status]));

function parseRow(cells: Cell[], columns: ResolvedColumns): { facts: OrderFacts } | { error: string } {
  const read = (field: ManifestField): { value: string | null } | { error: string } => {
    const column = columns[field];
    if (!column) return { value: null };
    const cell = cells[column.index] ?? null;
    if (cell === null) return { value: null };
    if (typeof cell === 'object') return { error: `${field} (column "${column.header}") ${cell.error}` };
    return { value: cell };
  };
  const identifier = (field: ManifestField, required: boolean): { value: string | null } | { error: string } => {
    const cell = read(field);
    if ('error' in cell) return cell;
    if (cell.value === null) return required ? { error: `${field} is empty` } : cell;
    const normalized = normalizeScan(cell.value);
    if (!normalized.ok) return { error: `${field} ${normalized.reason === 'empty' ? 'is empty' : `cannot be scanned: ${normalized.message}`}` };
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
    if (!found) return { error: `status "${statusCell.value.slice(0, 40)}" is not one of the Delivery API's statuses` };
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

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 200);
}
