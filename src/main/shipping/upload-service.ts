/**
 * Spreadsheet upload, done at the station and safe to run twice. `prepare` reads the file in the
 * bounded parsing worker (first worksheet, the spec's exact columns), checks every row locally and
 * asks the creation ledger which rows exist already; nothing is sent. `start` creates the ready
 * rows in the background, batch after batch of at most 1,000 (the service's own upload limit),
 * each POST claimed in the creation ledger first (orderRef, parcel 1), so a row already created by
 * this or any earlier upload, a ship or another process is never created again, and a row whose
 * POST outcome is unknown is flagged and never re-sent blindly. Pause, cancel and resume are state
 * in the database: a killed process's upload is resumed by starting it again.
 */
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { Environment } from '../../shared/contract/app';
import type { UploadPreview, UploadRowProblem, UploadRowView, UploadSkip, UploadStatus } from '../../shared/contract/upload';
import { StationError } from '../../shared/errors';
import type { DeliveryClient } from '../api';
import type { EventBus } from '../contract/event-bus';
import type { Logger } from '../logging/logger';
import { SheetFileProblem } from '../spreadsheets/sheet-limits';
import { identifierKey, invisibleCharacters, readOrderRef } from '../../shared/identifiers';
import { parseSpreadsheet } from '../spreadsheets/spreadsheet-parser';
import type { ParserSource } from '../spreadsheets/spreadsheet-parser-protocol';
import type { SheetItem } from '../spreadsheets/sheet-readers';
import type { SheetFormat } from '../spreadsheets/spreadsheet-format';
import type { OrderIndex } from '../orders/order-index';
import { fileProblem, openSpreadsheet, refusedFile, SpreadsheetOpenProblem } from '../spreadsheets/spreadsheet-file';
import type { CreationLedger } from './creation-ledger';
import type { CreatedWeights } from './created-weights';
import { columnsMissing, uploadStateConflict } from './upload-errors';
import { checkUploadRow, isUploadColumn, uploadRequiredColumns, type UploadColumn } from './upload-rows';
import type { UploadStore} from './upload-store';
import { resultOf, type StoredUploadRow, type UploadRecord } from './upload-store';
import { errorText } from '../../shared/error-text';

export const uploadBatchSize = 1_000;
export const maxUploadBytes = 20 * 1024 * 1024;
/** Rows shown in a preview (the rest are counted); the report holds every row. */
const previewRowsShown = 500;

export type UploadSource = { kind: 'path'; path: string } | { kind: 'bytes'; fileName: string; bytes: Buffer };

export interface UploadServiceDeps {
  store: UploadStore;
  ledger: CreationLedger;
  orders: OrderIndex;
  /** The weight each order was created with, for the handover list. */
  weights: CreatedWeights;
  events: EventBus;
  logger: Logger;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  /** Prints the labels of these bundles as one normal print run; answers its run id. */
  printBundles(environment: Environment, bundleIds: string[], printerId: string): Promise<string>;
  /** The location an order to ship (the ship flow) names, for an orderRef created by shipping rather than by an upload. */
  shipmentLocation?(environment: Environment, orderRef: string): Promise<string | null>;
  /** POSTs in flight at once (the API client's own limit is the same by default). */
  concurrency?: number;
  /** Monotonic milliseconds, for the rate. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Least time between two progress events of one upload. */
  progressIntervalMs?: number;
}

/** Failures that say nothing about the row and everything about the station's link: the upload pauses. */
const stopsTheUpload = new Set(['KEY_MISSING', 'KEY_REJECTED', 'NOT_CONFIGURED', 'KEYCHAIN_UNAVAILABLE', 'NETWORK']);

interface Runner {
  /** 'halt': the station is closing; the upload stays 'running' in the database and is resumed later. */
  stop: 'pause' | 'cancel' | 'halt' | null;
  done: Promise<void>;
  /** Monotonic times rows settled, for the rate (last few seconds only). */
  settledAt: number[];
  /** Rows this runner settled, for telling a pass that made progress from one that did not. */
  settledCount: number;
  lastProgress: number;
}

export class UploadService {
  private readonly runners = new Map<string, Runner>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly concurrency: number;

  constructor(private readonly deps: UploadServiceDeps) {
    this.now = deps.now ?? (() => performance.now());
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.concurrency = deps.concurrency ?? 4;
  }

  /** Reads and checks the file; stores the upload with every row's verdict. Nothing is sent. */
  async prepare(environment: Environment, source: UploadSource, locations: string[]): Promise<UploadPreview> {
    const fileName = source.kind === 'path' ? basename(source.path) : source.fileName;
    const { format, parserSource } = await this.open(source);
    const allowed = new Set(locations.map((location) => location.trim()));

    let header: string[] | null = null;
    let columnIndex = new Map<UploadColumn, number>();
    const rows: StoredUploadRow[] = [];
    const firstSeen = new Map<string, { row: number; cells: string }>();
    try {
      for await (const batch of parseSpreadsheet(parserSource, format)) {
        for (const item of batch.items) {
          if (item.kind === 'header') {
            header = item.cells.map((cell) => cell.trim());
            columnIndex = resolveHeader(header);
            continue;
          }
          if (!header) throw fileProblem('no-header', fileName, `${fileName} has no header row.`);
          rows.push(this.checkRow(item, header, columnIndex, allowed, firstSeen, rows.length));
        }
      }
    } catch (error) {
      if (error instanceof SheetFileProblem) throw fileProblem('unreadable', fileName, `${fileName} cannot be read: ${error.message}.`, { details: [error.message] });
      throw error;
    }
    if (!header) throw fileProblem('no-header', fileName, `${fileName} is empty: it has no header row.`);
    await this.applyLedger(environment, rows);
    await this.placeEarlierCreations(environment, rows);

    const id = `${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(6).toString('base64url')}`;
    await this.deps.store.create({ id, environment, fileName, columns: header.filter((name) => name !== ''), locations: [...allowed], state: 'previewed' }, rows);
    this.deps.logger.info('spreadsheet upload prepared', { environment, uploadId: id, rows: rows.length });
    const shown = await this.deps.store.notReady(id, previewRowsShown);
    return { status: await this.status(environment, id), rows: shown.rows.map(rowView), rowsOmitted: shown.total - shown.rows.length };
  }

  private async open(source: UploadSource): Promise<{ format: SheetFormat | 'xls'; parserSource: ParserSource }> {
    try {
      const opened = await openSpreadsheet(source, { maxBytes: maxUploadBytes, acceptXls: true, refuseEmpty: true });
      return { format: opened.format, parserSource: opened.source };
    } catch (error) {
      if (!(error instanceof SpreadsheetOpenProblem)) throw error;
      throw refusedFile(error, maxUploadBytes);
    }
  }

  private checkRow(
    item: Extract<SheetItem, { kind: 'row' }>,
    header: string[],
    columnIndex: Map<UploadColumn, number>,
    locations: ReadonlySet<string>,
    firstSeen: Map<string, { row: number; cells: string }>,
    index: number,
  ): StoredUploadRow {
    const cells: Record<string, string> = {};
    const known: Partial<Record<UploadColumn, string>> = {};
    const cellProblems: UploadRowProblem[] = [];
    header.forEach((name, position) => {
      const cell = item.row.cells[position];
      if (name === '' || cell === null || cell === undefined) return;
      if (typeof cell === 'object') {
        if (isUploadColumn(name)) cellProblems.push({ code: 'cell', column: name, value: cell.error.slice(0, 200) });
        return;
      }
      cells[name] = cell;
    });
    for (const [column, position] of columnIndex) {
      const cell = item.row.cells[position];
      if (typeof cell === 'string') known[column] = cell.trim();
    }
    const checked = checkUploadRow(known, locations);
    const orderRef = known.orderRef?.trim() || null;
    const base: StoredUploadRow = {
      row: item.row.row,
      batch: Math.floor(index / uploadBatchSize) + 1,
      orderRef,
      locationId: known.locationId?.trim() || null,
      cells,
      request: null,
      state: 'invalid',
      problems: [...cellProblems, ...checked.problems],
      skip: null,
      orderId: null,
      barcode: null,
      trackingUrl: null,
      bundleId: null,
    };
    if (orderRef !== null) {
      const signature = JSON.stringify(known);
      // Refs a packer cannot tell apart (case, invisible characters) are one ref.
      const read = readOrderRef(orderRef);
      const key = identifierKey(read.ok ? read.value : orderRef.replace(invisibleCharacters, ''));
      const earlier = firstSeen.get(key);
      if (earlier) {
        if (earlier.cells === signature) return { ...base, problems: [], state: 'skipped', skip: { code: 'repeated-in-file', firstRow: earlier.row } };
        return { ...base, problems: [...base.problems, { code: 'duplicate', column: 'orderRef', firstRow: earlier.row }] };
      }
      firstSeen.set(key, { row: item.row.row, cells: signature });
    }
    if (base.problems.length > 0 || !checked.request) return base;
    return { ...base, state: 'ready', request: checked.request };
  }

  /** Rows the creation ledger already knows (created, unknown, being posted) are skipped, asked in chunks. */
  private async applyLedger(environment: Environment, rows: StoredUploadRow[]): Promise<void> {
    const ready = rows.filter((row) => row.state === 'ready' && row.request !== null);
    const known = await this.deps.ledger.firstParcels(environment, [...new Set(ready.map((row) => row.request!.orderRef ?? ''))]);
    for (const row of ready) {
      const entry = known.get(row.request!.orderRef ?? '');
      if (entry?.state === 'created') Object.assign(row, { state: 'skipped', request: null, skip: { code: 'created-before', orderId: entry.orderId }, orderId: entry.orderId, barcode: entry.barcode, bundleId: entry.bundleId });
      else if (entry?.state === 'unknown') Object.assign(row, { state: 'skipped', request: null, skip: { code: 'unknown-before' } });
      else if (entry?.state === 'posting') Object.assign(row, { state: 'skipped', request: null, skip: { code: 'in-progress' } });
    }
  }

  /**
   * The ledger's key is the orderRef, whatever the location (see docs/shipping.md), so a row whose
   * orderRef was created for another location is skipped like any other; it says where, so a lead
   * who meant a new order for this location sees the clash instead of a plain "already created".
   */
  private async placeEarlierCreations(environment: Environment, rows: StoredUploadRow[]): Promise<void> {
    const created = rows.filter((row) => row.skip?.code === 'created-before' && row.orderRef !== null);
    if (created.length === 0) return;
    const fromUploads = await this.deps.store.createdLocations(environment, [...new Set(created.map((row) => row.orderRef!))]);
    for (const row of created) row.skip = await this.createdBefore(environment, row.orderRef!, row.skip?.orderId ?? null, row.locationId, fromUploads);
  }

  private async createdBefore(
    environment: Environment,
    orderRef: string,
    orderId: string | null,
    rowLocationId: string | null,
    fromUploads?: ReadonlyMap<string, string>,
  ): Promise<UploadSkip> {
    const fromAnUpload = fromUploads ? fromUploads.get(orderRef) : (await this.deps.store.createdLocations(environment, [orderRef])).get(orderRef);
    const locationId = fromAnUpload ?? (await this.deps.shipmentLocation?.(environment, orderRef)) ?? null;
    return { code: 'created-before', orderId, locationId, rowLocationId };
  }

  /** Starts creating the ready rows, or resumes a paused or interrupted upload. */
  async start(environment: Environment, uploadId: string, printerId?: string): Promise<UploadStatus> {
    const record = await this.record(environment, uploadId);
    if (record.state === 'finished' || record.state === 'cancelled') {
      throw uploadStateConflict('start', uploadId, record.state, `Upload ${uploadId} is ${record.state}; there is nothing left to start.`);
    }
    if (printerId !== undefined) await this.deps.store.setPrinting(uploadId, printerId, null);
    const current = this.runners.get(uploadId);
    if (current && current.stop === null) return this.status(environment, uploadId);
    await this.deps.store.setState(uploadId, 'running');
    const runner: Runner = { stop: null, done: Promise.resolve(), settledAt: [], settledCount: 0, lastProgress: 0 };
    // A runner still finishing a pause hands over to this one once its last POSTs are settled.
    const previous = current?.done ?? Promise.resolve();
    runner.done = previous.then(() => this.run(environment, uploadId, runner));
    this.runners.set(uploadId, runner);
    return this.status(environment, uploadId);
  }

  async pause(environment: Environment, uploadId: string): Promise<UploadStatus> {
    const record = await this.record(environment, uploadId);
    if (record.state !== 'running' && record.state !== 'previewed') {
      throw uploadStateConflict('pause', uploadId, record.state, `Upload ${uploadId} is ${record.state}; only a running upload can be paused.`);
    }
    const runner = this.runners.get(uploadId);
    if (runner) runner.stop = 'pause';
    await this.deps.store.setState(uploadId, 'paused');
    await this.emit(environment, uploadId, true);
    return this.status(environment, uploadId);
  }

  /** Stops sending; rows not sent yet are cancelled (the POSTs in flight still settle). */
  async cancel(environment: Environment, uploadId: string): Promise<UploadStatus> {
    const record = await this.record(environment, uploadId);
    if (record.state === 'finished' || record.state === 'cancelled') {
      throw uploadStateConflict('cancel', uploadId, record.state, `Upload ${uploadId} is ${record.state} already.`);
    }
    const runner = this.runners.get(uploadId);
    if (runner) runner.stop = 'cancel';
    await this.deps.store.transaction(async (tx) => {
      await this.deps.store.cancelReady(uploadId, tx);
      await this.deps.store.setState(uploadId, 'cancelled', undefined, tx);
    });
    await this.emit(environment, uploadId, true);
    return this.status(environment, uploadId);
  }

  /** Resolves when this process's runner of the upload has stopped (tests, the CLI). */
  async settled(uploadId: string): Promise<void> {
    for (;;) {
      const runner = this.runners.get(uploadId);
      if (!runner) return;
      await runner.done;
      if (this.runners.get(uploadId) === runner) return;
    }
  }

  /** Stops every runner of this process after its POSTs in flight; their uploads are resumed by starting them again. */
  async close(): Promise<void> {
    const running = [...this.runners.values()];
    for (const runner of running) runner.stop ??= 'halt';
    await Promise.all(running.map((runner) => runner.done));
  }

  async latest(environment: Environment, limit: number): Promise<UploadStatus[]> {
    const statuses: UploadStatus[] = [];
    for (const record of await this.deps.store.latest(environment, limit)) statuses.push(await this.status(environment, record.id));
    return statuses;
  }

  async record(environment: Environment, uploadId: string): Promise<UploadRecord> {
    const record = await this.deps.store.get(uploadId);
    if (!record || record.environment !== environment) throw new StationError('UPLOAD_NOT_FOUND', `There is no upload ${uploadId} in the ${environment} environment.`, [uploadId]);
    return record;
  }

  async status(environment: Environment, uploadId: string): Promise<UploadStatus> {
    const record = await this.record(environment, uploadId);
    const perBatch = await this.deps.store.counts(uploadId);
    const whole = perBatch.get(0) ?? { counts: { total: 0, ready: 0, invalid: 0, skipped: 0, created: 0, failed: 0, unknown: 0, cancelled: 0 }, firstRow: 0, lastRow: 0 };
    const counts = whole.counts;
    const stopped = record.state === 'cancelled';
    const reasons = await this.deps.store.skipReasons(uploadId);
    const runner = this.runners.get(uploadId);
    return {
      uploadId,
      fileName: record.fileName,
      environment,
      locations: record.locations,
      state: record.state,
      result: record.state === 'previewed' ? null : resultOf(counts, stopped),
      counts,
      processed: counts.created + counts.failed + counts.unknown,
      processable: counts.created + counts.failed + counts.unknown + counts.ready,
      successful: counts.created,
      failedTotal: counts.invalid + counts.failed + counts.unknown + counts.cancelled,
      ratePerSecond: runner && runner.stop === null ? this.rate(runner) : 0,
      batches: [...perBatch.entries()]
        .filter(([batch]) => batch > 0)
        .sort(([a], [b]) => a - b)
        .map(([batch, entry]) => ({ batch, firstRow: entry.firstRow, lastRow: entry.lastRow, counts: entry.counts, result: record.state === 'previewed' ? null : resultOf(entry.counts, stopped) })),
      skipReasons: { createdBefore: reasons['created-before'], unknownBefore: reasons['unknown-before'], inProgress: reasons['in-progress'], repeatedInFile: reasons['repeated-in-file'] },
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      printerId: record.printerId,
      printRunId: record.printRunId,
      runnerHere: runner !== undefined && runner.stop === null,
    };
  }

  /** The rows not created, as the screen lists them once the upload is done. */
  async problems(environment: Environment, uploadId: string): Promise<{ rows: UploadRowView[]; rowsOmitted: number }> {
    await this.record(environment, uploadId);
    const shown = await this.deps.store.problems(uploadId, previewRowsShown);
    return { rows: shown.rows.map(rowView), rowsOmitted: shown.total - shown.rows.length };
  }

  async rows(environment: Environment, uploadId: string): Promise<StoredUploadRow[]> {
    await this.record(environment, uploadId);
    return this.deps.store.rows(uploadId);
  }

  private rate(runner: Runner): number {
    const now = this.now();
    const windowMs = 5_000;
    runner.settledAt = runner.settledAt.filter((time) => now - time <= windowMs);
    if (runner.settledAt.length < 2) return 0;
    const span = Math.max(now - runner.settledAt[0]!, 250);
    return Math.round((runner.settledAt.length / span) * 1000 * 10) / 10;
  }

  private async emit(environment: Environment, uploadId: string, force = false): Promise<void> {
    const runner = this.runners.get(uploadId);
    const now = this.now();
    if (!force && runner && now - runner.lastProgress < (this.deps.progressIntervalMs ?? 250)) return;
    if (runner) runner.lastProgress = now;
    this.deps.events.emit('upload.progress', await this.status(environment, uploadId));
  }

  private async run(environment: Environment, uploadId: string, runner: Runner): Promise<void> {
    try {
      const client = await this.deps.clientFor(environment);
      const batches = [...(await this.deps.store.counts(uploadId)).keys()].filter((batch) => batch > 0).sort((a, b) => a - b);
      let backoffMs = 0;
      for (const batch of batches) {
        for (;;) {
          if (runner.stop) break;
          const ready = await this.deps.store.rows(uploadId, { state: 'ready', batch });
          if (ready.length === 0) break;
          const settledBefore = runner.settledCount;
          const pace = await this.sendAll(environment, uploadId, client, ready, runner);
          if (pace === 'stop') {
            runner.stop ??= 'pause';
            await this.deps.store.setState(uploadId, 'paused', ['running']);
            break;
          }
          if (pace === 'slow-down') {
            // The wait grows only while the service refuses everything: a pass that created rows
            // before its 429 shows the pace was nearly right, so it waits the base second again.
            const progressed = runner.settledCount > settledBefore;
            backoffMs = progressed ? 1_000 : Math.min(Math.max(backoffMs * 2, 1_000), 30_000);
            await this.sleep(backoffMs);
          } else backoffMs = 0;
        }
        if (runner.stop) break;
        await this.emit(environment, uploadId, true);
      }
      if (!runner.stop && (await this.deps.store.setState(uploadId, 'finished', ['running']))) {
        this.deps.logger.info('spreadsheet upload finished', { environment, uploadId, ...(await this.status(environment, uploadId)).counts });
        await this.printLabels(environment, uploadId);
      }
    } catch (error) {
      this.deps.logger.error('spreadsheet upload stopped', { environment, uploadId, error: errorText(error) });
      await this.deps.store.setState(uploadId, 'paused', ['running']).catch(() => false);
    } finally {
      if (this.runners.get(uploadId) === runner) this.runners.delete(uploadId);
      await this.emit(environment, uploadId, true).catch(() => undefined);
    }
  }

  /** Sends the rows with a few POSTs in flight; says whether to slow down (429s) or stop (no link). */
  private async sendAll(environment: Environment, uploadId: string, client: DeliveryClient, rows: StoredUploadRow[], runner: Runner): Promise<'ok' | 'slow-down' | 'stop'> {
    let next = 0;
    let verdict: 'ok' | 'slow-down' | 'stop' = 'ok';
    const worker = async () => {
      while (next < rows.length && runner.stop === null && verdict !== 'stop') {
        // Another process (the CLI next to the app) may have paused or cancelled the upload.
        const state = await this.deps.store.stateOf(uploadId);
        if (state !== 'running') {
          runner.stop ??= state === 'cancelled' ? 'cancel' : 'pause';
          break;
        }
        const row = rows[next++]!;
        const outcome = await this.sendRow(environment, uploadId, client, row);
        if (outcome === 'stop') verdict = 'stop';
        else if (outcome === 'slow-down' && verdict === 'ok') {
          verdict = 'slow-down';
          return;
        }
        runner.settledAt.push(this.now());
        runner.settledCount += 1;
        await this.emit(environment, uploadId);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, rows.length) }, worker));
    return verdict;
  }

  private async sendRow(environment: Environment, uploadId: string, client: DeliveryClient, row: StoredUploadRow): Promise<'ok' | 'slow-down' | 'stop'> {
    const { ledger, store } = this.deps;
    const request = row.request!;
    const orderRef = request.orderRef ?? '';
    if (!(await ledger.claim(environment, orderRef, 1, 1))) {
      // Someone else (a ship, another upload, another bench running this one) holds this orderRef: mirror what the ledger knows, never send.
      const entry = await ledger.entry(environment, orderRef, 1);
      if (entry?.state === 'created') {
        const skip = await this.createdBefore(environment, orderRef, entry.orderId, row.locationId);
        await store.settle(uploadId, row.row, { state: 'skipped', skip, orderId: entry.orderId, barcode: entry.barcode, bundleId: entry.bundleId });
      } else if (entry?.state === 'unknown') {
        await store.settle(uploadId, row.row, { state: 'unknown', problems: [{ code: 'outcome-unknown', messages: entry.reason ? [entry.reason.slice(0, 500)] : [] }] });
      } else {
        await store.settle(uploadId, row.row, { state: 'skipped', skip: { code: 'in-progress' } });
      }
      return 'ok';
    }
    let order: Awaited<ReturnType<DeliveryClient['createOrder']>>;
    try {
      order = await client.createOrder(request);
    } catch (error) {
      const code = error instanceof StationError ? error.code : null;
      const message = errorText(error);
      if (code === null || code === 'OUTCOME_UNKNOWN') {
        await store.transaction(async (tx) => {
          await ledger.markUnknown(environment, orderRef, 1, message, tx);
          await store.settle(uploadId, row.row, { state: 'unknown', problems: [{ code: 'outcome-unknown', messages: [message.slice(0, 500)] }] }, true, tx);
        });
        this.deps.logger.error('upload row: order creation outcome unknown', { environment, uploadId, row: row.row, orderRef });
        return 'ok';
      }
      // Nothing was created: the ledger row goes back to claimable, the upload row stays ready.
      if (code === 'RATE_LIMITED') {
        await ledger.markRejected(environment, orderRef, 1, message);
        await store.reopen(uploadId, row.row);
        return 'slow-down';
      }
      if (stopsTheUpload.has(code)) {
        await ledger.markRejected(environment, orderRef, 1, message);
        await store.reopen(uploadId, row.row);
        this.deps.logger.warn('spreadsheet upload paused: the service cannot be reached or the key is not accepted', { environment, uploadId, code });
        return 'stop';
      }
      const details = error instanceof StationError && error.details?.length ? error.details : [message];
      await store.transaction(async (tx) => {
        await ledger.markRejected(environment, orderRef, 1, message, tx);
        await store.settle(uploadId, row.row, { state: 'failed', problems: [{ code: 'refused', errorCode: code, messages: details.slice(0, 20).map((text) => text.slice(0, 500)) }] }, true, tx);
      });
      return 'ok';
    }
    const facts = { orderId: order.orderId, barcode: order.barcode, bundleId: order.orderBundle.bundleId };
    // The ledger and the upload row in one transaction: one outcome, one disk sync. The order index
    // is written after, so a failure to index the order cannot take back the record of its creation.
    await store.transaction(async (tx) => {
      await ledger.markCreated(environment, orderRef, 1, facts, tx);
      await store.settle(uploadId, row.row, { state: 'created', problems: [], ...facts, trackingUrl: order.trackingUrl }, true, tx);
    });
    await this.deps.orders.upsert(environment, { ...facts, orderRef, recipient: request.deliveryName, status: order.status }, 'created');
    await this.deps.weights.record(environment, order.orderId, request.weight).catch((error: unknown) =>
      this.deps.logger.warn('the weight an order was created with is not kept', { environment, orderId: order.orderId, error: errorText(error) }),
    );
    return 'ok';
  }

  private async printLabels(environment: Environment, uploadId: string): Promise<void> {
    const record = await this.record(environment, uploadId);
    if (!record.printerId) return;
    const bundleIds = [...new Set((await this.deps.store.rows(uploadId, { state: 'created' })).flatMap((row) => (row.bundleId ? [row.bundleId] : [])))];
    if (bundleIds.length === 0) return;
    try {
      const runId = await this.deps.printBundles(environment, bundleIds, record.printerId);
      await this.deps.store.setPrinting(uploadId, record.printerId, runId);
    } catch (error) {
      this.deps.logger.error('labels of a spreadsheet upload not printed', { environment, uploadId, error: errorText(error) });
    }
  }
}

function resolveHeader(header: string[]): Map<UploadColumn, number> {
  const map = new Map<UploadColumn, number>();
  header.forEach((name, index) => {
    if (isUploadColumn(name) && !map.has(name)) map.set(name, index);
  });
  const missing = uploadRequiredColumns.filter((column) => !map.has(column));
  if (missing.length > 0) throw columnsMissing(missing);
  return map;
}

export function rowView(row: StoredUploadRow): UploadRowView {
  return { row: row.row, orderRef: row.orderRef, state: row.state, problems: row.problems, skip: row.skip, orderId: row.orderId };
}
