/**
 * The print journal: a row per label and a row per run, in the station's store (the bench's SQLite
 * file, or a warehouse's shared PostgreSQL). Every write is one small commit made before the step
 * it records where a crash in between would otherwise resend a label: "sending began" is committed
 * before the first byte leaves, so after a crash such a label is uncertain, never sent again by itself.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Environment } from '../../../shared/contract/app';
import { PauseReasonSchema, type PauseReasonData, type RunCounts, type SecondCopyData } from '../../../shared/contract/printing';
import { StationError } from '../../../shared/errors';
import { type StoreEngine, type StoreSession, type SqlValue } from '../../store/engine/store-engine';
import type { FlushToDisk } from '../../store/wal-flush';
import { engineInUse, placeOf, type PrintingPlace } from '../../store/printing-store';
import {
  JournalRowSchema,
  RunOptionsSchema,
  RunRowSchema,
  type JournalRow,
  type LabelFormat,
  type NewLabel,
  type RunKind,
  type RunOptions,
  type RunRow,
  type RunState,
} from './journal-types';
import { personWaits } from './run-kinds';

/**
 * A row field's column: the field's name in snake case, but for the second copy's certainty. Every
 * read of a label or a run, and the offline merge's copy of a label (printing/offline), name the
 * columns from the fields of the journal's own row schemas this way.
 */
export function columnOf(field: string): string {
  return field === 'secondCopyCertainty' ? 'second_copy' : field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** A SELECT list naming each column as its field, so a database row parses with the journal's own schema. */
export function selectedAsFields(fields: readonly string[]): string {
  return fields.map((field) => `${columnOf(field)} AS "${field}"`).join(', ');
}

const entryColumns = selectedAsFields(JournalRowSchema.keyof().options);
const runColumns = selectedAsFields(RunRowSchema.keyof().options);

function jsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A print_runs row: its JSON columns are read leniently (a damaged one leaves its default), the rest strictly. */
const RunRecordSchema = RunRowSchema.extend({
  pauseReason: z
    .string()
    .nullable()
    .transform((text) => {
      const parsed = text === null ? null : PauseReasonSchema.safeParse(jsonText(text));
      return parsed?.success ? parsed.data : null;
    }),
  options: z.string().transform((text) => {
    const parsed = RunOptionsSchema.safeParse(jsonText(text));
    return parsed.success ? parsed.data : emptyRunOptions();
  }),
});

const CountRecordSchema = z.object({ state: JournalRowSchema.shape.state, n: z.number().int() });
const ReasonRecordSchema = z.object({ reason: z.string().nullable() });
const IdRecordSchema = z.object({ id: z.number().int() });
const BundleRecordSchema = z.object({ bundle_id: z.string() });
const IdentifierRecordSchema = z.object({ entry_id: z.number().int(), identifier: z.string() });
const CountSchema = z.object({ n: z.number().int() });

function parseRecord<T>(schema: z.ZodType<T>, record: unknown, what: string): T {
  const parsed = schema.safeParse(record);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`The print journal has a ${what} this version cannot read (${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}).`);
}

const toEntry = (record: unknown): JournalRow => parseRecord(JournalRowSchema, record, 'label row');
const toRun = (record: unknown): RunRow => parseRecord(RunRecordSchema, record, 'run row');

export function emptyRunOptions(): RunOptions {
  return { reverse: false, bundles: [], skipped: [], retryOf: null, scan: null, reprint: null, owner: null };
}

/** States in which a label may have reached the printer (the duplicate guard counts these). */
function maybePrintedAs(table: string): string {
  const column = (name: string) => (table ? `${table}.${name}` : name);
  return `(${column('state')} IN ('sent', 'printed') OR (${column('state')} = 'uncertain' AND ${column('decided_at')} IS NULL) OR (${column('state')} IN ('queued', 'fetched') AND ${column('sent_at')} IS NOT NULL))`;
}
const maybePrinted = maybePrintedAs('');

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
  /** Why the journal writes to the bench's own file (store/printing-store.ts): every label written there says so. */
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

export class PrintJournal {
  // This journal on each store a run began in (see pinned).
  private readonly pins = new Map<StoreEngine, PrintJournal>();

  constructor(
    private readonly engine: StoreEngine,
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

  /** Where it writes now: entry ids are each place's own. */
  get place(): PrintingPlace {
    return placeOf(this.engine);
  }

  /** The store this journal writes to (for what is kept beside it: the labels' marks). */
  get store(): StoreEngine {
    return this.engine;
  }

  /**
   * This journal on the store it writes to now, for a run to keep writing there whatever happens
   * meanwhile (store/printing-store.ts: label ids are each store's own). Itself where it does not move.
   */
  pinned(): PrintJournal {
    const engine = engineInUse(this.engine);
    if (engine === this.engine) return this;
    let pinned = this.pins.get(engine);
    if (!pinned) {
      pinned = new PrintJournal(engine, this.clock, this.flushToDisk, this.bench);
      this.pins.set(engine, pinned);
    }
    return pinned;
  }

  /** The bench writing (null: a journal of one bench that carries no bench id, as in tests). */
  get benchId(): string | null {
    return this.bench?.id ?? null;
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

  private async one(session: StoreSession, sql: string, params: readonly SqlValue[]): Promise<unknown> {
    return (await session.query(sql, params))[0];
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
      const holder = await this.liveFirstPrint(input.environment, label);
      if (holder) return new FirstPrintTaken(holder);
    }
    return null;
  }

  /** The live first print holding this label's order (or bundle page), if any: the row the unique indexes compare against. */
  async liveFirstPrint(environment: Environment, label: Pick<NewLabel, 'orderId' | 'bundleId' | 'bundlePosition' | 'format'>): Promise<JournalRow | null> {
    const live = `guarded = 1 AND voided_at IS NULL AND (state IN ('queued', 'fetched', 'sent', 'printed') OR (state = 'uncertain' AND decided_at IS NULL))`;
    const record =
      label.orderId !== null
        ? await this.one(this.engine, `SELECT ${entryColumns} FROM print_journal WHERE environment = $1 AND order_id = $2 AND ${live}`, [environment, label.orderId])
        : label.bundleId !== null && label.bundlePosition !== null
          ? await this.one(
              this.engine,
              `SELECT ${entryColumns} FROM print_journal WHERE environment = $1 AND order_id IS NULL AND bundle_id = $2 AND format = $3 AND bundle_position = $4 AND ${live}`,
              [environment, label.bundleId, label.format, label.bundlePosition],
            )
          : undefined;
    return record ? toEntry(record) : null;
  }

  async run(runId: string): Promise<RunRow | null> {
    const record = await this.one(this.engine, `SELECT ${runColumns} FROM print_runs WHERE id = $1`, [runId]);
    return record ? toRun(record) : null;
  }

  async requireRun(runId: string): Promise<RunRow> {
    const run = await this.run(runId);
    if (!run) throw new Error(`print run ${runId} is not in the journal`);
    return run;
  }

  async entries(runId: string): Promise<JournalRow[]> {
    return (await this.engine.query(`SELECT ${entryColumns} FROM print_journal WHERE run_id = $1 ORDER BY position, id`, [runId])).map(toEntry);
  }

  async entry(id: number): Promise<JournalRow | null> {
    return this.entryIn(this.engine, id);
  }

  private async entryIn(session: StoreSession, id: number): Promise<JournalRow | null> {
    const record = await this.one(session, `SELECT ${entryColumns} FROM print_journal WHERE id = $1`, [id]);
    return record ? toEntry(record) : null;
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

  async markFetched(id: number, sha256: string, format: LabelFormat): Promise<void> {
    await this.fetchedIn(this.engine, id, sha256, format, this.now());
  }

  private async fetchedIn(session: StoreSession, id: number, sha256: string, format: LabelFormat, now: string): Promise<void> {
    await session.execute(
      `UPDATE print_journal SET state = 'fetched', fetched_at = $1, document_sha256 = $2, format = $3, updated_at = $1 WHERE id = $4 AND state IN ('queued', 'fetched')`,
      [now, sha256, format, id],
    );
  }

  /**
   * Adds a note to the entry's reason (e.g. what the station removed from the label), once: a label
   * fetched again (a resumed run) does not repeat it. Returns the reason now.
   */
  async addNote(id: number, note: string): Promise<string | null> {
    return this.engine.transaction(async (tx) => {
      const record = (await tx.queryForUpdate('SELECT reason FROM print_journal WHERE id = $1', [id]))[0];
      if (!record) return null;
      const { reason } = parseRecord(ReasonRecordSchema, record, 'label reason');
      if (reason !== null && reason.includes(note)) return reason;
      const noted = reason === null || reason === '' ? note : `${reason} ${note}`;
      await tx.execute('UPDATE print_journal SET reason = $1, updated_at = $2 WHERE id = $3', [noted, this.now(), id]);
      return noted;
    });
  }

  /**
   * Committed before the first byte of the label leaves. `waitForDisk: false` (a scan's label, the
   * one commit between the service's answer and the printer; SQLite only): the mark survives the
   * station's process dying, since the operating system holds the write, but not the computer losing
   * power; recovery reads an unsent label of a scan left by an earlier boot as uncertain for that reason.
   */
  async markSending(id: number, options: { waitForDisk?: boolean } = {}): Promise<void> {
    const now = this.now();
    const sql = `UPDATE print_journal SET sent_at = $1, updated_at = $1 WHERE id = $2 AND state IN ('queued', 'fetched')`;
    if (options.waitForDisk === false) await this.engine.executeWithoutDiskWait(sql, [now, id]);
    else await this.engine.execute(sql, [now, id]);
  }

  /** Nothing of the label reached the printer after all (the connection was never made). */
  async clearSending(id: number): Promise<void> {
    await this.engine.execute(`UPDATE print_journal SET sent_at = NULL, updated_at = $1 WHERE id = $2 AND state IN ('queued', 'fetched')`, [this.now(), id]);
  }

  /**
   * The printer confirmed it has read the whole label (or the OS queue took the job). `fetched`:
   * the document, when its fetch is not in the journal yet (a scan's, recorded after its answer),
   * written in the same commit.
   */
  async markSent(id: number, fetched?: { sha256: string; format: LabelFormat }): Promise<void> {
    const now = this.now();
    const sent = `UPDATE print_journal SET state = 'sent', sent_at = coalesce(sent_at, $1), updated_at = $1 WHERE id = $2 AND state IN ('queued', 'fetched')`;
    if (!fetched) {
      await this.engine.execute(sent, [now, id]);
      return;
    }
    await this.engine.transaction(async (tx) => {
      await this.fetchedIn(tx, id, fetched.sha256, fetched.format, now);
      await tx.execute(sent, [now, id]);
    });
  }

  /** `finish`: these were the run's last labels; it is closed in the same commit. */
  async markPrinted(ids: readonly number[], finish?: { runId: string; state: 'finished' | 'cancelled' }): Promise<void> {
    if (ids.length === 0 && !finish) return;
    const now = this.now();
    await this.engine.transaction(async (tx) => {
      for (const id of ids) {
        await tx.execute(`UPDATE print_journal SET state = 'printed', printed_at = $1, updated_at = $1 WHERE id = $2 AND state = 'sent'`, [now, id]);
      }
      if (finish) await this.finishIn(tx, finish.runId, finish.state, now);
    });
  }

  /**
   * The printer may have put the label out twice (see SecondCopySchema). A certain verdict is never
   * weakened to a possible one by a later look.
   */
  async markSecondCopy(id: number, secondCopy: SecondCopyData): Promise<void> {
    await this.engine.execute(
      `UPDATE print_journal SET second_copy = $1, second_copy_fault = $2, updated_at = $3 WHERE id = $4 AND (second_copy IS NULL OR second_copy <> 'certain')`,
      [secondCopy.certainty, secondCopy.fault, this.now(), id],
    );
  }

  async markFailed(id: number, reason: string): Promise<void> {
    await this.engine.execute(
      `UPDATE print_journal SET state = 'failed', failed_at = $1, reason = $2, updated_at = $1 WHERE id = $3 AND state IN ('queued', 'fetched')`,
      [this.now(), reason, id],
    );
  }

  async markUncertain(id: number, reason: string): Promise<void> {
    await this.uncertainIn(this.engine, id, reason, this.now());
  }

  private async uncertainIn(session: StoreSession, id: number, reason: string, now: string): Promise<void> {
    await session.execute(
      `UPDATE print_journal SET state = 'uncertain', uncertain_at = $1, reason = $2, updated_at = $1 WHERE id = $3 AND state IN ('queued', 'fetched', 'sent')`,
      [now, reason, id],
    );
  }

  /** Every label of the run not yet sent fails with the reason; returns how many. */
  async failUnsent(runId: string, reason: string): Promise<number> {
    return this.failUnsentIn(this.engine, runId, reason, this.now());
  }

  private async failUnsentIn(session: StoreSession, runId: string, reason: string, now: string): Promise<number> {
    const result = await session.execute(
      `UPDATE print_journal SET state = 'failed', failed_at = $1, reason = $2, updated_at = $1 WHERE run_id = $3 AND state IN ('queued', 'fetched') AND sent_at IS NULL`,
      [now, reason, runId],
    );
    return result.changes;
  }

  /** Settles an uncertain label; null when it is not (or no longer) an undecided uncertain label. */
  async decide(id: number, decision: 'printed' | 'print-again', operator: string): Promise<JournalRow | null> {
    const now = this.now();
    return this.engine.transaction(async (tx) => {
      const record = (await tx.queryForUpdate(`SELECT ${entryColumns} FROM print_journal WHERE id = $1`, [id]))[0];
      const before = record ? toEntry(record) : null;
      if (!before || before.state !== 'uncertain' || before.decidedAt !== null) return null;
      if (decision === 'printed') {
        await tx.execute(
          `UPDATE print_journal SET state = 'printed', printed_at = $1, decided_by = $2, decided_at = $1, updated_at = $1 WHERE id = $3 AND state = 'uncertain' AND decided_at IS NULL`,
          [now, operator, id],
        );
      } else {
        const reason = `${before.reason ?? 'Uncertain'} ${operator} said it did not print and chose to print it again.`;
        await tx.execute(
          `UPDATE print_journal SET state = 'failed', failed_at = $1, reason = $2, decided_by = $3, decided_at = $1, updated_at = $1 WHERE id = $4 AND state = 'uncertain' AND decided_at IS NULL`,
          [now, reason, operator, id],
        );
      }
      return this.entryIn(tx, id);
    });
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
    await this.finishIn(this.engine, runId, state, this.now());
  }

  private async finishIn(session: StoreSession, runId: string, state: 'finished' | 'cancelled', now: string): Promise<void> {
    await session.execute(
      `UPDATE print_runs SET state = $1, pause_reason = NULL, updated_at = $2, finished_at = $2 WHERE id = $3 AND state IN ('running', 'paused')`,
      [state, now, runId],
    );
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
    const record = await this.one(
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
          await this.uncertainIn(tx, id, uncertainReason, now);
          report.uncertain.push(id);
        }
        if (personWaits(run)) {
          if (powerLost?.since(run)) {
            for (const id of await ids(`SELECT id FROM print_journal WHERE run_id = $1 AND state IN ('queued', 'fetched') AND sent_at IS NULL`, run.id)) {
              await this.uncertainIn(tx, id, powerLost.reason, now);
              report.uncertain.push(id);
            }
          }
          await this.failUnsentIn(tx, run.id, unsentSingleReason, now);
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
          await this.finishIn(tx, run.id, 'finished', now);
          report.closedRuns.push(run.id);
        } else {
          await this.runStateIn(tx, run.id, 'paused', pauseReason, now);
          report.pausedRuns.push(run.id);
        }
      }
      return report;
    });
  }

  /**
   * The latest label of the order that may have reached a printer, or null, whatever route
   * printed it: the order's own label, or a bundle page whose text named the order (its parcel
   * barcode, order ref or id) printed before the station knew the order.
   */
  async previousPrint(environment: Environment, orderId: string): Promise<JournalRow | null> {
    return this.previousPrintIn(this.engine, environment, orderId);
  }

  private async previousPrintIn(session: StoreSession, environment: Environment, orderId: string): Promise<JournalRow | null> {
    // The order's own rows, and pages printed before their order was known whose text named it:
    // two indexed lookups (an OR across them would read every row of the environment).
    const record = await this.one(
      session,
      `SELECT ${entryColumns} FROM print_journal WHERE id = (SELECT max(id) FROM (
         SELECT id FROM print_journal WHERE environment = $1 AND order_id = $2 AND ${maybePrinted}
         UNION ALL
         SELECT j.id FROM print_label_identifiers i JOIN print_journal j ON j.id = i.entry_id
         WHERE i.environment = $1 AND j.order_id IS NULL AND ${maybePrintedAs('j')} AND i.identifier IN (
           $2,
           (SELECT order_ref FROM orders WHERE environment = $1 AND order_id = $2),
           (SELECT barcode FROM orders WHERE environment = $1 AND order_id = $2))) AS candidates)`,
      [environment, orderId],
    );
    return record ? toEntry(record) : null;
  }

  /** The latest label that may have reached a printer of an order a page's identifiers name (by order id, order ref or parcel barcode). */
  async previousPrintOfPage(environment: Environment, identifiers: readonly string[]): Promise<JournalRow | null> {
    const names = [...new Set(identifiers)];
    if (names.length === 0) return null;
    const list = names.map((_, index) => `$${index + 2}`).join(', ');
    const record = await this.one(
      this.engine,
      `SELECT ${entryColumns} FROM print_journal
       WHERE environment = $1 AND ${maybePrinted} AND order_id IN (
         SELECT order_id FROM orders WHERE environment = $1 AND (order_id IN (${list}) OR order_ref IN (${list}) OR barcode IN (${list}))
         UNION SELECT j.order_id FROM print_journal j WHERE j.environment = $1 AND j.order_id IN (${list}))
       ORDER BY id DESC LIMIT 1`,
      [environment, ...names],
    );
    return record ? toEntry(record) : null;
  }

  /** Pages of a bundle printed (or maybe printed) without a known order, each with the identifiers read from its text. */
  async printedPagesOf(environment: Environment, bundleId: string): Promise<{ entry: JournalRow; identifiers: string[] }[]> {
    const identifiers = new Map<number, string[]>();
    const identifierRecords = await this.engine.query(
      `SELECT i.entry_id, i.identifier FROM print_label_identifiers i JOIN print_journal j ON j.id = i.entry_id
       WHERE j.environment = $1 AND j.bundle_id = $2 AND j.order_id IS NULL`,
      [environment, bundleId],
    );
    for (const record of identifierRecords) {
      const row = parseRecord(IdentifierRecordSchema, record, 'label identifier');
      identifiers.set(row.entry_id, [...(identifiers.get(row.entry_id) ?? []), row.identifier]);
    }
    const pages = await this.engine.query(
      `SELECT ${entryColumns} FROM print_journal
       WHERE environment = $1 AND bundle_id = $2 AND order_id IS NULL AND bundle_position IS NOT NULL AND ${maybePrinted} ORDER BY id`,
      [environment, bundleId],
    );
    return pages.map((record) => {
      const entry = toEntry(record);
      return { entry, identifiers: identifiers.get(entry.id) ?? [] };
    });
  }

  /** The bundles among `bundleIds` with a label that may have reached a printer. */
  async bundlesPrinted(environment: Environment, bundleIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    // Chunks keep the statement under both engines' parameter limits.
    for (let start = 0; start < bundleIds.length; start += 500) {
      const chunk = bundleIds.slice(start, start + 500);
      const rows = await this.engine.query(
        `SELECT DISTINCT bundle_id FROM print_journal WHERE environment = $1 AND bundle_id IN (${chunk.map((_, index) => `$${index + 2}`).join(', ')}) AND ${maybePrinted}`,
        [environment, ...chunk],
      );
      for (const row of rows) found.add(parseRecord(BundleRecordSchema, row, 'bundle id').bundle_id);
    }
    return found;
  }

  async journal(environment: Environment, options: { orderId?: string; limit?: number } = {}): Promise<JournalRow[]> {
    const limit = options.limit ?? 100;
    const records = options.orderId
      ? await this.engine.query(`SELECT ${entryColumns} FROM print_journal WHERE environment = $1 AND order_id = $2 ORDER BY id DESC LIMIT $3`, [
          environment,
          options.orderId,
          limit,
        ])
      : await this.engine.query(`SELECT ${entryColumns} FROM print_journal WHERE environment = $1 ORDER BY id DESC LIMIT $2`, [environment, limit]);
    return records.map(toEntry);
  }
}

/** The database refused a journal row for one of its unique keys (the first-print guard). */
function isJournalConflict(error: unknown): boolean {
  return error instanceof StationError && error.code === 'STORE_CONFLICT' && error.details?.[0] === 'print_journal';
}
