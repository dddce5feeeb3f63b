/**
 * A run's records in the journal: the run written with its labels in one transaction, its state,
 * its owner's sign of life and hand-over between benches, and its recovery after a stop.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Environment } from '../../../shared/contract/app';
import type { PauseReasonData, RunCounts } from '../../../shared/contract/printing';
import { StationError } from '../../../shared/errors';
import type { FlushToDisk, StoreEngine, StoreSession } from '../../store';
import { firstRecord, IdRecordSchema, parseRecord, runColumns, toRun } from './journal-rows';
import { failUnsentIn, finishRunIn, markUncertainIn } from './journal-steps';
import { JournalRowSchema, type JournalRow, type NewLabel, type RunKind, type RunOptions, type RunRow, type RunState } from './journal-types';
import { personWaits } from './run-kinds';
import type { PrintHistory } from './print-history';

const CountRecordSchema = z.object({ state: JournalRowSchema.shape.state, n: z.number().int() });
const CountSchema = z.object({ n: z.number().int() });

export interface CreateRunInput {
  environment: Environment;
  kind: RunKind;
  printerId: string;
  operator: string;
  options: RunOptions;
  labels: NewLabel[];
  state?: RunState;
  /**
   * False (a scan's run, written while its label's GET is under way): the rows are committed
   * without waiting for the disk and taken there in the background; `onDisk` resolves once they
   * are, and no label of the run may leave before it does. The wait then overlaps the service's
   * answer instead of delaying the request. Default true: on disk when createRun returns.
   */
  waitForDisk?: boolean;
}

export interface RecoveryReport {
  /** Runs left unfinished, now paused for someone to resume. */
  pausedRuns: string[];
  /** Single and test runs closed: their unsent label failed. */
  closedRuns: string[];
  /** Labels that were being sent when the station stopped (or, after a power loss, may have been). */
  uncertain: number[];
}

/** The bench writing: its id (store/bench-id.ts) and its name as a lead set it. */
export interface JournalBench {
  id: string;
  name(): string;
  /** Why the journal writes to the bench's own file (local-only printing, printing/offline): every label written there says so. */
  localOnly?(): { reason: string; by: string } | null;
}

/**
 * A first print the database refused (migration 12's unique indexes): another live first print
 * of the same order, or of the same page of a bundle whose order is unknown, holds it — printed,
 * being printed or uncertain, perhaps at another bench a moment ago.
 */
export class FirstPrintTaken extends StationError {
  constructor(readonly holder: JournalRow) {
    super('CONFLICT', `This label was printed already${holder.benchName ? ` at ${holder.benchName}` : ''} (journal entry ${holder.id}).`, undefined, {
      facts: { subject: 'first-print', id: holder.id, state: holder.state },
    });
  }
}

/** A first print of an order or page: held by migration 12's unique indexes while it is live (a deliberate reprint is not). */
function guardedLabel(label: NewLabel): number | null {
  return (label.reprintOf ?? null) === null ? 1 : null;
}

export class RunRecords {
  constructor(
    private readonly engine: StoreEngine,
    /** Names the live first print that made the database refuse a new run's label. */
    private readonly history: Pick<PrintHistory, 'liveFirstPrint'>,
    private readonly clock: () => Date = () => new Date(),
    /**
     * Takes the bench's SQLite file to the disk in the background (store/wal-flush.ts). Without it,
     * or on PostgreSQL (whose commits are durable when they return), a run asked to be written
     * without waiting for the disk waits anyway.
     */
    private readonly flushToDisk?: FlushToDisk,
    /** Without it (tests of one bench), rows carry no bench. */
    private readonly bench?: JournalBench,
  ) {}

  private now(): string {
    return this.clock().toISOString();
  }

  /**
   * The live owner's sign of life on its unfinished runs (run-ownership.ts). On the bench's SQLite
   * file it does not wait for the disk: it may fall in the middle of a scan, and a heartbeat lost in
   * a power cut loses nothing (there, a run's owner is judged by its process and boot; the heartbeat
   * speaks to other benches, on a shared store).
   */
  async renewHeartbeat(runIds: readonly string[]): Promise<void> {
    if (runIds.length === 0) return;
    const list = runIds.map((_, index) => `$${index + 2}`).join(', ');
    const sql = `UPDATE print_runs SET heartbeat_at = $1 WHERE id IN (${list}) AND state IN ('running', 'paused')`;
    const params = [this.now(), ...runIds];
    await this.engine.executeWithoutDiskWait(sql, params);
  }

  /**
   * Makes this bench the run's owner, only if nobody changed the run's owner or heartbeat since
   * `seen` was read (one conditional UPDATE: of two benches taking a run over at once, one does;
   * an owner that renewed its heartbeat meanwhile keeps it). True when this bench now owns it.
   */
  async takeOver(seen: RunRow, options: RunOptions): Promise<boolean> {
    const now = this.now();
    const result = await this.engine.execute(
      `UPDATE print_runs SET options = $1, bench = $2, bench_name = $3, heartbeat_at = $4, updated_at = $4
       WHERE id = $5 AND state IN ('running', 'paused') AND coalesce(heartbeat_at, '') = $6 AND coalesce(bench, '') = $7`,
      [JSON.stringify(options), this.bench?.id ?? null, this.bench?.name() ?? null, now, seen.id, seen.heartbeatAt ?? '', seen.bench ?? ''],
    );
    return result.changes === 1;
  }

  /** A run and its labels (positions 0…n-1 in the order given), as one transaction. */
  async createRun(input: CreateRunInput): Promise<{ run: RunRow; entries: JournalRow[]; onDisk: Promise<void> }> {
    const id = randomUUID();
    const now = this.now();
    const state = input.state ?? 'running';
    const background = input.waitForDisk === false && this.flushToDisk !== undefined && this.engine.commitCanSkipDiskWait;
    const bench = this.bench?.id ?? null;
    const benchName = this.bench?.name() ?? null;
    const localOnly = this.bench?.localOnly?.() ?? null;
    // Built in memory rather than read back: a scan's hot path should not pay for a second query.
    const write = () =>
      this.engine.transaction(
        async (tx) => {
          const written: JournalRow[] = [];
          await tx.execute(
            `INSERT INTO print_runs (id, environment, kind, printer_id, operator, state, pause_reason, options, created_at, updated_at, finished_at, bench, bench_name, heartbeat_at)
             VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $8, $8, NULL, $9, $10, $8)`,
            [id, input.environment, input.kind, input.printerId, input.operator, state, JSON.stringify(input.options), now, bench, benchName],
          );
          for (const [position, label] of input.labels.entries()) {
            const reason = label.reason ?? null;
            const reprintOf = label.reprintOf ?? null;
            const inserted = await tx.query(
              `INSERT INTO print_journal (environment, run_id, position, printer_id, operator, order_id, bundle_id, bundle_position,
                 bundle_count, format, state, reason, reprint_of, queued_at, updated_at, bench, bench_name, guarded, local_only, local_only_by)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'queued', $11, $12, $13, $13, $14, $15, $16, $17, $18) RETURNING id`,
              [
                input.environment,
                id,
                position,
                input.printerId,
                input.operator,
                label.orderId,
                label.bundleId,
                label.bundlePosition,
                label.bundleCount,
                label.format,
                reason,
                reprintOf,
                now,
                bench,
                benchName,
                guardedLabel(label),
                localOnly?.reason ?? null,
                localOnly?.by ?? null,
              ],
            );
            const entryId = parseRecord(IdRecordSchema, inserted[0], 'label id').id;
            for (const identifier of new Set(label.identifiers ?? [])) {
              await tx.execute(
                'INSERT INTO print_label_identifiers (environment, entry_id, identifier) VALUES ($1, $2, $3) ON CONFLICT (entry_id, identifier) DO NOTHING',
                [input.environment, entryId, identifier],
              );
            }
            written.push({
              id: entryId,
              environment: input.environment,
              runId: id,
              position,
              printerId: input.printerId,
              operator: input.operator,
              orderId: label.orderId,
              bundleId: label.bundleId,
              bundlePosition: label.bundlePosition,
              bundleCount: label.bundleCount,
              format: label.format,
              state: 'queued',
              reason,
              reprintOf,
              decidedBy: null,
              documentSha256: null,
              queuedAt: now,
              fetchedAt: null,
              sentAt: null,
              printedAt: null,
              failedAt: null,
              uncertainAt: null,
              decidedAt: null,
              updatedAt: now,
              bench,
              benchName,
              secondCopyCertainty: null,
              secondCopyFault: null,
            });
          }
          return written;
        },
        background ? { waitForDisk: false } : {},
      );
    let entries: JournalRow[];
    try {
      entries = await write();
    } catch (error) {
      // The database refused a second live first print: say which row holds it.
      const taken = await this.firstPrintTaken(input, error);
      if (taken || !isJournalConflict(error)) throw taken ?? error;
      // The label that held the guard ended (failed, voided) between the refusal and the read:
      // the guard is free now, so the run is written once more (it was rolled back whole).
      try {
        entries = await write();
      } catch (again) {
        throw (await this.firstPrintTaken(input, again)) ?? again;
      }
    }
    let onDisk = Promise.resolve();
    if (background && this.flushToDisk) {
      onDisk = this.flushToDisk();
      // Whoever sends the run's first label waits on it and hears its failure.
      onDisk.catch(() => undefined);
    }
    const run: RunRow = {
      id,
      environment: input.environment,
      kind: input.kind,
      printerId: input.printerId,
      operator: input.operator,
      state,
      pauseReason: null,
      options: input.options,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
      bench,
      benchName,
      heartbeatAt: now,
    };
    return { run, entries, onDisk };
  }

  /** The live first print that made the database refuse a new run's label, when that is what happened. */
  private async firstPrintTaken(input: CreateRunInput, error: unknown): Promise<FirstPrintTaken | null> {
    if (!isJournalConflict(error)) return null;
    for (const label of input.labels) {
      if (guardedLabel(label) === null) continue;
      const holder = await this.history.liveFirstPrint(input.environment, label);
      if (holder) return new FirstPrintTaken(holder);
    }
    return null;
  }

  async run(runId: string): Promise<RunRow | null> {
    const record = await firstRecord(this.engine, `SELECT ${runColumns} FROM print_runs WHERE id = $1`, [runId]);
    return record ? toRun(record) : null;
  }

  async requireRun(runId: string): Promise<RunRow> {
    const run = await this.run(runId);
    if (!run) throw new Error(`print run ${runId} is not in the journal`);
    return run;
  }

  async counts(runId: string): Promise<RunCounts> {
    const counts: RunCounts = { total: 0, queued: 0, fetched: 0, sent: 0, printed: 0, failed: 0, uncertain: 0 };
    for (const record of await this.engine.query('SELECT state, count(*) AS n FROM print_journal WHERE run_id = $1 GROUP BY state', [runId])) {
      const row = parseRecord(CountRecordSchema, record, 'count');
      counts[row.state] += row.n;
      counts.total += row.n;
    }
    return counts;
  }

  async setRunState(runId: string, state: 'running' | 'paused', pauseReason: PauseReasonData | null): Promise<void> {
    await this.runStateIn(this.engine, runId, state, pauseReason, this.now());
  }

  private async runStateIn(session: StoreSession, runId: string, state: 'running' | 'paused', pauseReason: PauseReasonData | null, now: string): Promise<void> {
    await session.execute(`UPDATE print_runs SET state = $1, pause_reason = $2, updated_at = $3 WHERE id = $4 AND state IN ('running', 'paused')`, [
      state,
      pauseReason ? JSON.stringify(pauseReason) : null,
      now,
      runId,
    ]);
  }

  async finishRun(runId: string, state: 'finished' | 'cancelled'): Promise<void> {
    await finishRunIn(this.engine, runId, state, this.now());
  }

  async updateRunOptions(runId: string, options: RunOptions): Promise<void> {
    await this.engine.execute('UPDATE print_runs SET options = $1, updated_at = $2 WHERE id = $3', [JSON.stringify(options), this.now(), runId]);
  }

  async runs(environment: Environment, options: { unfinished?: boolean; limit?: number } = {}): Promise<RunRow[]> {
    const unfinished = options.unfinished ? "AND state IN ('running', 'paused')" : '';
    const records = await this.engine.query(
      `SELECT ${runColumns} FROM print_runs WHERE environment = $1 ${unfinished} ORDER BY created_at DESC, id DESC LIMIT $2`,
      [environment, options.limit ?? 50],
    );
    return records.map(toRun);
  }

  async hasUnfinishedRuns(environment: Environment, printerId: string): Promise<boolean> {
    const record = await firstRecord(
      this.engine,
      `SELECT count(*) AS n FROM print_runs WHERE environment = $1 AND printer_id = $2 AND state IN ('running', 'paused')`,
      [environment, printerId],
    );
    return parseRecord(CountSchema, record, 'count').n > 0;
  }

  /**
   * After a crash or power loss: every label that was being sent becomes uncertain; bundle and
   * retry runs left running or paused wait for someone to resume them; a single or test run is
   * closed (a parcel scanned minutes ago is not printed out of the blue), its unsent label failed
   * — or uncertain when `powerLost` says the computer may have lost power since the run was
   * written: its "sending began" did not wait for the disk (markSending) and may be gone.
   */
  async recoverInterrupted(
    pauseReason: PauseReasonData,
    uncertainReason: string,
    unsentSingleReason: string,
    unprovenSingleReason: string,
    which: (run: RunRow) => boolean = () => true,
    powerLost?: { since(run: RunRow): boolean; reason: string },
  ): Promise<RecoveryReport> {
    return this.engine.transaction(async (tx) => {
      const report: RecoveryReport = { pausedRuns: [], closedRuns: [], uncertain: [] };
      const now = this.now();
      const ids = async (sql: string, runId: string) =>
        (await tx.query(sql, [runId])).map((record) => parseRecord(IdRecordSchema, record, 'label id').id);
      const unfinished = (await tx.queryForUpdate(`SELECT ${runColumns} FROM print_runs WHERE state IN ('running', 'paused')`)).map(toRun);
      for (const run of unfinished) {
        if (!which(run)) continue;
        for (const id of await ids(`SELECT id FROM print_journal WHERE run_id = $1 AND state IN ('queued', 'fetched') AND sent_at IS NOT NULL`, run.id)) {
          await markUncertainIn(tx, id, uncertainReason, now);
          report.uncertain.push(id);
        }
        if (personWaits(run)) {
          if (powerLost?.since(run)) {
            for (const id of await ids(`SELECT id FROM print_journal WHERE run_id = $1 AND state IN ('queued', 'fetched') AND sent_at IS NULL`, run.id)) {
              await markUncertainIn(tx, id, powerLost.reason, now);
              report.uncertain.push(id);
            }
          }
          await failUnsentIn(tx, run.id, unsentSingleReason, now);
          // In a Zebra that reports its printing (a label mark was kept when it took the label), not
          // yet proven printed: the closed run never asks again. An OS queue's job stays "sent".
          for (const id of await ids(
            `SELECT j.id FROM print_journal j JOIN print_label_marks m ON m.entry_id = j.id WHERE j.run_id = $1 AND j.state = 'sent'`,
            run.id,
          )) {
            // Appended: a reprint's or an override's reason stays in the record.
            await tx.execute(
              `UPDATE print_journal SET state = 'uncertain', uncertain_at = $1, reason = CASE WHEN reason IS NULL OR reason = '' THEN $2 ELSE reason || ' ' || $2 END, updated_at = $1 WHERE id = $3 AND state = 'sent'`,
              [now, unprovenSingleReason, id],
            );
            report.uncertain.push(id);
          }
          await finishRunIn(tx, run.id, 'finished', now);
          report.closedRuns.push(run.id);
        } else {
          await this.runStateIn(tx, run.id, 'paused', pauseReason, now);
          report.pausedRuns.push(run.id);
        }
      }
      return report;
    });
  }
}

/** The database refused a journal row for one of its unique keys (the first-print guard). */
function isJournalConflict(error: unknown): boolean {
  return error instanceof StationError && error.code === 'STORE_CONFLICT' && error.details?.[0] === 'print_journal';
}
