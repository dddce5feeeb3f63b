/**
 * The print journal: a row per label and a row per run, in the station's SQLite file. Every
 * write is one small synchronous statement (WAL), made before the step it records where a crash
 * in between would otherwise resend a label: "sending began" is written before the first byte
 * leaves, so after a crash such a label is uncertain, never sent again by itself.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Environment } from '../../../shared/contract/app';
import { PauseReasonSchema, type LabelState, type PauseReasonData, type RunCounts } from '../../../shared/contract/printing';
import type { StationDatabase } from '../../store/database';
import type { JournalRow, LabelFormat, NewLabel, RunKind, RunOptions, RunRow, RunState } from './journal-types';

const entryColumns = `id, environment, run_id, position, printer_id, operator, order_id, bundle_id, bundle_position, bundle_count,
  format, state, reason, reprint_of, decided_by, document_sha256, queued_at, fetched_at, sent_at, printed_at, failed_at,
  uncertain_at, decided_at, updated_at`;
const runColumns = 'id, environment, kind, printer_id, operator, state, pause_reason, options, created_at, updated_at, finished_at';

type EntryRecord = {
  id: number;
  environment: string;
  run_id: string | null;
  position: number | null;
  printer_id: string;
  operator: string;
  order_id: string | null;
  bundle_id: string | null;
  bundle_position: number | null;
  bundle_count: number | null;
  format: string;
  state: string;
  reason: string | null;
  reprint_of: number | null;
  decided_by: string | null;
  document_sha256: string | null;
  queued_at: string;
  fetched_at: string | null;
  sent_at: string | null;
  printed_at: string | null;
  failed_at: string | null;
  uncertain_at: string | null;
  decided_at: string | null;
  updated_at: string;
};

type RunRecord = {
  id: string;
  environment: string;
  kind: string;
  printer_id: string;
  operator: string;
  state: string;
  pause_reason: string | null;
  options: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
};

const RunOptionsSchema = z.object({
  reverse: z.boolean().catch(false),
  bundles: z
    .array(z.object({ bundleId: z.string(), route: z.enum(['zpl-per-order', 'pdf-raster', 'pdf']), labels: z.number(), note: z.string() }))
    .catch([]),
  skipped: z
    .array(z.object({ orderId: z.string().nullable(), bundleId: z.string().nullable(), code: z.string(), message: z.string() }))
    .catch([]),
  retryOf: z.string().nullable().catch(null),
  scan: z.string().nullable().catch(null),
  reprint: z.object({ operator: z.string(), reason: z.string() }).nullable().catch(null),
  owner: z.object({ pid: z.number(), instance: z.string() }).nullable().catch(null),
});

export const emptyRunOptions = (): RunOptions => ({ reverse: false, bundles: [], skipped: [], retryOf: null, scan: null, reprint: null, owner: null });

/** States in which a label may have reached the printer (the duplicate guard counts these). */
const maybePrinted = `(state IN ('sent', 'printed') OR (state = 'uncertain' AND decided_at IS NULL) OR (state IN ('queued', 'fetched') AND sent_at IS NOT NULL))`;

export interface CreateRunInput {
  environment: Environment;
  kind: RunKind;
  printerId: string;
  operator: string;
  options: RunOptions;
  labels: NewLabel[];
  state?: RunState;
}

export interface RecoveryReport {
  /** Runs left unfinished, now paused for someone to resume. */
  pausedRuns: string[];
  /** Single and test runs closed: their unsent label failed. */
  closedRuns: string[];
  /** Labels that were being sent when the station stopped. */
  uncertain: number[];
}

export class PrintJournal {
  private readonly statements;

  constructor(
    private readonly db: StationDatabase,
    private readonly clock: () => Date = () => new Date(),
  ) {
    const prepare = (sql: string) => db.prepare(sql);
    this.statements = {
      insertRun: prepare(`INSERT INTO print_runs (${runColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      insertEntry: prepare(
        `INSERT INTO print_journal (environment, run_id, position, printer_id, operator, order_id, bundle_id, bundle_position,
           bundle_count, format, state, reason, reprint_of, queued_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)`,
      ),
      run: prepare(`SELECT ${runColumns} FROM print_runs WHERE id = ?`),
      entry: prepare(`SELECT ${entryColumns} FROM print_journal WHERE id = ?`),
      entries: prepare(`SELECT ${entryColumns} FROM print_journal WHERE run_id = ? ORDER BY position, id`),
      counts: prepare(`SELECT state, count(*) AS n FROM print_journal WHERE run_id = ? GROUP BY state`),
      fetched: prepare(
        `UPDATE print_journal SET state = 'fetched', fetched_at = ?, document_sha256 = ?, format = ?, updated_at = ? WHERE id = ? AND state IN ('queued', 'fetched')`,
      ),
      addNote: prepare(
        `UPDATE print_journal SET reason = CASE WHEN reason IS NULL OR reason = '' THEN ? ELSE reason || ' ' || ? END, updated_at = ? WHERE id = ? AND (reason IS NULL OR instr(reason, ?) = 0)`,
      ),
      sending: prepare(`UPDATE print_journal SET sent_at = ?, updated_at = ? WHERE id = ? AND state IN ('queued', 'fetched')`),
      notSending: prepare(`UPDATE print_journal SET sent_at = NULL, updated_at = ? WHERE id = ? AND state IN ('queued', 'fetched')`),
      sent: prepare(`UPDATE print_journal SET state = 'sent', sent_at = coalesce(sent_at, ?), updated_at = ? WHERE id = ? AND state IN ('queued', 'fetched')`),
      printed: prepare(`UPDATE print_journal SET state = 'printed', printed_at = ?, updated_at = ? WHERE id = ? AND state = 'sent'`),
      failed: prepare(
        `UPDATE print_journal SET state = 'failed', failed_at = ?, reason = ?, updated_at = ? WHERE id = ? AND state IN ('queued', 'fetched')`,
      ),
      uncertain: prepare(
        `UPDATE print_journal SET state = 'uncertain', uncertain_at = ?, reason = ?, updated_at = ? WHERE id = ? AND state IN ('queued', 'fetched', 'sent')`,
      ),
      failUnsent: prepare(
        `UPDATE print_journal SET state = 'failed', failed_at = ?, reason = ?, updated_at = ? WHERE run_id = ? AND state IN ('queued', 'fetched') AND sent_at IS NULL`,
      ),
      decidePrinted: prepare(
        `UPDATE print_journal SET state = 'printed', printed_at = ?, decided_by = ?, decided_at = ?, updated_at = ? WHERE id = ? AND state = 'uncertain' AND decided_at IS NULL`,
      ),
      decideAgain: prepare(
        `UPDATE print_journal SET state = 'failed', failed_at = ?, reason = ?, decided_by = ?, decided_at = ?, updated_at = ? WHERE id = ? AND state = 'uncertain' AND decided_at IS NULL`,
      ),
      runState: prepare(`UPDATE print_runs SET state = ?, pause_reason = ?, updated_at = ? WHERE id = ? AND state IN ('running', 'paused')`),
      finishRun: prepare(`UPDATE print_runs SET state = ?, pause_reason = NULL, updated_at = ?, finished_at = ? WHERE id = ? AND state IN ('running', 'paused')`),
      runOptions: prepare(`UPDATE print_runs SET options = ?, updated_at = ? WHERE id = ?`),
      unfinishedRuns: prepare(`SELECT ${runColumns} FROM print_runs WHERE state IN ('running', 'paused')`),
      runsOf: prepare(`SELECT ${runColumns} FROM print_runs WHERE environment = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`),
      unfinishedOf: prepare(
        `SELECT ${runColumns} FROM print_runs WHERE environment = ? AND state IN ('running', 'paused') ORDER BY created_at DESC, rowid DESC LIMIT ?`,
      ),
      sendingRows: prepare(`SELECT id FROM print_journal WHERE run_id = ? AND state IN ('queued', 'fetched') AND sent_at IS NOT NULL`),
      previousPrint: prepare(
        `SELECT ${entryColumns} FROM print_journal WHERE environment = ? AND order_id = ? AND ${maybePrinted} ORDER BY id DESC LIMIT 1`,
      ),
      journalOf: prepare(`SELECT ${entryColumns} FROM print_journal WHERE environment = ? ORDER BY id DESC LIMIT ?`),
      journalOfOrder: prepare(`SELECT ${entryColumns} FROM print_journal WHERE environment = ? AND order_id = ? ORDER BY id DESC LIMIT ?`),
      runsUsingPrinter: prepare(`SELECT count(*) AS n FROM print_runs WHERE environment = ? AND printer_id = ? AND state IN ('running', 'paused')`),
    };
  }

  private now(): string {
    return this.clock().toISOString();
  }

  /** A run and its labels (positions 0…n-1 in the order given), as one transaction. */
  createRun(input: CreateRunInput): { run: RunRow; entries: JournalRow[] } {
    const id = randomUUID();
    const now = this.now();
    const s = this.statements;
    const state = input.state ?? 'running';
    const entries: JournalRow[] = [];
    // Built in memory rather than read back: a scan's hot path should not pay for a second query.
    this.db.transaction(() => {
      s.insertRun.run(id, input.environment, input.kind, input.printerId, input.operator, state, null, JSON.stringify(input.options), now, now, null);
      input.labels.forEach((label, position) => {
        const reason = label.reason ?? null;
        const reprintOf = label.reprintOf ?? null;
        const result = s.insertEntry.run(
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
          now,
        );
        entries.push({
          id: Number(result.lastInsertRowid),
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
        });
      });
    })();
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
    };
    return { run, entries };
  }

  run(runId: string): RunRow | null {
    const record = this.statements.run.get(runId) as RunRecord | undefined;
    return record ? toRun(record) : null;
  }

  requireRun(runId: string): RunRow {
    const run = this.run(runId);
    if (!run) throw new Error(`print run ${runId} is not in the journal`);
    return run;
  }

  entries(runId: string): JournalRow[] {
    return (this.statements.entries.all(runId) as EntryRecord[]).map(toEntry);
  }

  entry(id: number): JournalRow | null {
    const record = this.statements.entry.get(id) as EntryRecord | undefined;
    return record ? toEntry(record) : null;
  }

  counts(runId: string): RunCounts {
    const counts: RunCounts = { total: 0, queued: 0, fetched: 0, sent: 0, printed: 0, failed: 0, uncertain: 0 };
    for (const row of this.statements.counts.all(runId) as { state: LabelState; n: number }[]) {
      counts[row.state] += row.n;
      counts.total += row.n;
    }
    return counts;
  }

  markFetched(id: number, sha256: string, format: LabelFormat): void {
    const now = this.now();
    this.statements.fetched.run(now, sha256, format, now, id);
  }

  /**
   * Adds a note to the entry's reason (e.g. what the station removed from the label), once: a label
   * fetched again (a resumed run) does not repeat it. Returns the reason now.
   */
  addNote(id: number, note: string): string | null {
    this.statements.addNote.run(note, note, this.now(), id, note);
    return this.entry(id)?.reason ?? null;
  }

  /** Written before the first byte of the label leaves. */
  markSending(id: number): void {
    const now = this.now();
    this.statements.sending.run(now, now, id);
  }

  /** Nothing of the label reached the printer after all (the connection was never made). */
  clearSending(id: number): void {
    this.statements.notSending.run(this.now(), id);
  }

  /** The printer confirmed it has read the whole label (or the OS queue took the job). */
  markSent(id: number): void {
    const now = this.now();
    this.statements.sent.run(now, now, id);
  }

  markPrinted(ids: readonly number[]): void {
    if (ids.length === 0) return;
    const now = this.now();
    this.db.transaction(() => {
      for (const id of ids) this.statements.printed.run(now, now, id);
    })();
  }

  markFailed(id: number, reason: string): void {
    const now = this.now();
    this.statements.failed.run(now, reason, now, id);
  }

  markUncertain(id: number, reason: string): void {
    const now = this.now();
    this.statements.uncertain.run(now, reason, now, id);
  }

  /** Every label of the run not yet sent fails with the reason; returns how many. */
  failUnsent(runId: string, reason: string): number {
    const now = this.now();
    return Number(this.statements.failUnsent.run(now, reason, now, runId).changes);
  }

  /** Settles an uncertain label; null when it is not (or no longer) an undecided uncertain label. */
  decide(id: number, decision: 'printed' | 'print-again', operator: string): JournalRow | null {
    const now = this.now();
    const before = this.entry(id);
    if (!before || before.state !== 'uncertain' || before.decidedAt !== null) return null;
    if (decision === 'printed') {
      this.statements.decidePrinted.run(now, operator, now, now, id);
    } else {
      const reason = `${before.reason ?? 'Uncertain'} ${operator} said it did not print and chose to print it again.`;
      this.statements.decideAgain.run(now, reason, operator, now, now, id);
    }
    return this.entry(id);
  }

  setRunState(runId: string, state: 'running' | 'paused', pauseReason: PauseReasonData | null): void {
    this.statements.runState.run(state, pauseReason ? JSON.stringify(pauseReason) : null, this.now(), runId);
  }

  finishRun(runId: string, state: 'finished' | 'cancelled'): void {
    const now = this.now();
    this.statements.finishRun.run(state, now, now, runId);
  }

  updateRunOptions(runId: string, options: RunOptions): void {
    this.statements.runOptions.run(JSON.stringify(options), this.now(), runId);
  }

  runs(environment: Environment, options: { unfinished?: boolean; limit?: number } = {}): RunRow[] {
    const statement = options.unfinished ? this.statements.unfinishedOf : this.statements.runsOf;
    return (statement.all(environment, options.limit ?? 50) as RunRecord[]).map(toRun);
  }

  hasUnfinishedRuns(environment: Environment, printerId: string): boolean {
    return (this.statements.runsUsingPrinter.get(environment, printerId) as { n: number }).n > 0;
  }

  /**
   * After a crash or power loss: every label that was being sent becomes uncertain; bundle and
   * retry runs left running or paused wait for someone to resume them; a single or test run is
   * closed (a parcel scanned minutes ago is not printed out of the blue), its unsent label failed.
   */
  recoverInterrupted(
    pauseReason: PauseReasonData,
    uncertainReason: string,
    unsentSingleReason: string,
    which: (run: RunRow) => boolean = () => true,
  ): RecoveryReport {
    const report: RecoveryReport = { pausedRuns: [], closedRuns: [], uncertain: [] };
    this.db.transaction(() => {
      for (const run of (this.statements.unfinishedRuns.all() as RunRecord[]).map(toRun)) {
        if (!which(run)) continue;
        for (const row of this.statements.sendingRows.all(run.id) as { id: number }[]) {
          this.markUncertain(row.id, uncertainReason);
          report.uncertain.push(row.id);
        }
        if (run.kind === 'single' || run.kind === 'test') {
          this.failUnsent(run.id, unsentSingleReason);
          this.finishRun(run.id, 'finished');
          report.closedRuns.push(run.id);
        } else {
          this.setRunState(run.id, 'paused', pauseReason);
          report.pausedRuns.push(run.id);
        }
      }
    })();
    return report;
  }

  /** The latest label of the order that may have reached a printer, or null. */
  previousPrint(environment: Environment, orderId: string): JournalRow | null {
    const record = this.statements.previousPrint.get(environment, orderId) as EntryRecord | undefined;
    return record ? toEntry(record) : null;
  }

  /** The bundles among `bundleIds` with a label that may have reached a printer. */
  bundlesPrinted(environment: Environment, bundleIds: readonly string[]): Set<string> {
    const found = new Set<string>();
    // Chunks keep the statement under SQLite's variable limit.
    for (let start = 0; start < bundleIds.length; start += 500) {
      const chunk = bundleIds.slice(start, start + 500);
      const rows = this.db
        .prepare(
          `SELECT DISTINCT bundle_id FROM print_journal WHERE environment = ? AND bundle_id IN (${chunk.map(() => '?').join(', ')}) AND ${maybePrinted}`,
        )
        .all(environment, ...chunk) as { bundle_id: string }[];
      for (const row of rows) found.add(row.bundle_id);
    }
    return found;
  }

  journal(environment: Environment, options: { orderId?: string; limit?: number } = {}): JournalRow[] {
    const limit = options.limit ?? 100;
    const records = options.orderId
      ? this.statements.journalOfOrder.all(environment, options.orderId, limit)
      : this.statements.journalOf.all(environment, limit);
    return (records as EntryRecord[]).map(toEntry);
  }
}

function toEntry(record: EntryRecord): JournalRow {
  return {
    id: record.id,
    environment: record.environment as Environment,
    runId: record.run_id,
    position: record.position,
    printerId: record.printer_id,
    operator: record.operator,
    orderId: record.order_id,
    bundleId: record.bundle_id,
    bundlePosition: record.bundle_position,
    bundleCount: record.bundle_count,
    format: record.format as LabelFormat,
    state: record.state as LabelState,
    reason: record.reason,
    reprintOf: record.reprint_of,
    decidedBy: record.decided_by,
    documentSha256: record.document_sha256,
    queuedAt: record.queued_at,
    fetchedAt: record.fetched_at,
    sentAt: record.sent_at,
    printedAt: record.printed_at,
    failedAt: record.failed_at,
    uncertainAt: record.uncertain_at,
    decidedAt: record.decided_at,
    updatedAt: record.updated_at,
  };
}

function toRun(record: RunRecord): RunRow {
  let options = emptyRunOptions();
  try {
    const parsed = RunOptionsSchema.safeParse(JSON.parse(record.options));
    if (parsed.success) options = parsed.data as RunOptions;
  } catch {
    // A damaged options column leaves the defaults; the labels themselves are in their own rows.
  }
  let pauseReason: PauseReasonData | null = null;
  if (record.pause_reason) {
    try {
      const parsed = PauseReasonSchema.safeParse(JSON.parse(record.pause_reason));
      pauseReason = parsed.success ? parsed.data : null;
    } catch {
      pauseReason = null;
    }
  }
  return {
    id: record.id,
    environment: record.environment as Environment,
    kind: record.kind as RunKind,
    printerId: record.printer_id,
    operator: record.operator,
    state: record.state as RunState,
    pauseReason,
    options,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    finishedAt: record.finished_at,
  };
}
