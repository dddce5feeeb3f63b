/**
 * The print journal: a row per label and a row per run, in the station's SQLite file. Every
 * write is one small synchronous statement (WAL), made before the step it records where a crash
 * in between would otherwise resend a label: "sending began" is written before the first byte
 * leaves, so after a crash such a label is uncertain, never sent again by itself.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Environment } from '../../../shared/contract/app';
import { PauseReasonSchema, type PauseReasonData, type RunCounts } from '../../../shared/contract/printing';
import { commitWithoutWaitingForDisk, type StationDatabase } from '../../store/database';
import type { FlushToDisk } from '../../store/wal-flush';
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

// Columns named as the row's fields, so a database row parses with the journal's own schema.
const entryColumns = `id, environment, run_id AS runId, position, printer_id AS printerId, operator, order_id AS orderId, bundle_id AS bundleId,
  bundle_position AS bundlePosition, bundle_count AS bundleCount, format, state, reason, reprint_of AS reprintOf, decided_by AS decidedBy,
  document_sha256 AS documentSha256, queued_at AS queuedAt, fetched_at AS fetchedAt, sent_at AS sentAt, printed_at AS printedAt,
  failed_at AS failedAt, uncertain_at AS uncertainAt, decided_at AS decidedAt, updated_at AS updatedAt,
  voided_at AS voidedAt, voided_by AS voidedBy, void_reason AS voidReason`;
const runInsertColumns = 'id, environment, kind, printer_id, operator, state, pause_reason, options, created_at, updated_at, finished_at';
const runColumns = `id, environment, kind, printer_id AS printerId, operator, state, pause_reason AS pauseReason, options,
  created_at AS createdAt, updated_at AS updatedAt, finished_at AS finishedAt`;

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

export class PrintJournal {
  private readonly statements;

  constructor(
    private readonly db: StationDatabase,
    private readonly clock: () => Date = () => new Date(),
    /** Without it, a run asked to be written without waiting for the disk waits anyway. */
    private readonly flushToDisk?: FlushToDisk,
  ) {
    const prepare = (sql: string) => db.prepare(sql);
    this.statements = {
      insertRun: prepare(`INSERT INTO print_runs (${runInsertColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
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
      unsentRows: prepare(`SELECT id FROM print_journal WHERE run_id = ? AND state IN ('queued', 'fetched') AND sent_at IS NULL`),
      insertIdentifier: prepare('INSERT OR IGNORE INTO print_label_identifiers (environment, entry_id, identifier) VALUES (?, ?, ?)'),
      // The order's own rows, and pages printed before their order was known whose text named it:
      // two indexed lookups (an OR across them would read every row of the environment).
      previousPrint: prepare(
        `SELECT ${entryColumns} FROM print_journal WHERE id = (SELECT max(id) FROM (
           SELECT id FROM print_journal WHERE environment = @environment AND order_id = @orderId AND ${maybePrinted}
           UNION ALL
           SELECT j.id FROM print_label_identifiers i JOIN print_journal j ON j.id = i.entry_id
           WHERE i.environment = @environment AND j.order_id IS NULL AND ${maybePrintedAs('j')} AND i.identifier IN (
             @orderId,
             (SELECT order_ref FROM orders WHERE environment = @environment AND order_id = @orderId),
             (SELECT barcode FROM orders WHERE environment = @environment AND order_id = @orderId))))`,
      ),
      // A page's identifiers (a JSON array) matched against orders printed by any route.
      previousPrintOfPage: prepare(
        `SELECT ${entryColumns} FROM print_journal
         WHERE environment = @environment AND ${maybePrinted} AND order_id IN (
           SELECT value FROM json_each(@identifiers)
           UNION SELECT order_id FROM orders WHERE environment = @environment AND order_ref IN (SELECT value FROM json_each(@identifiers))
           UNION SELECT order_id FROM orders WHERE environment = @environment AND barcode IN (SELECT value FROM json_each(@identifiers)))
         ORDER BY id DESC LIMIT 1`,
      ),
      pagesOfBundle: prepare(
        `SELECT ${entryColumns} FROM print_journal
         WHERE environment = ? AND bundle_id = ? AND order_id IS NULL AND bundle_position IS NOT NULL AND ${maybePrinted} ORDER BY id`,
      ),
      identifiersOfBundlePages: prepare(
        `SELECT i.entry_id, i.identifier FROM print_label_identifiers i JOIN print_journal j ON j.id = i.entry_id
         WHERE j.environment = ? AND j.bundle_id = ? AND j.order_id IS NULL`,
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
  createRun(input: CreateRunInput): { run: RunRow; entries: JournalRow[]; onDisk: Promise<void> } {
    const id = randomUUID();
    const now = this.now();
    const s = this.statements;
    const state = input.state ?? 'running';
    const entries: JournalRow[] = [];
    // Built in memory rather than read back: a scan's hot path should not pay for a second query.
    const write = this.db.transaction(() => {
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
        for (const identifier of new Set(label.identifiers ?? [])) s.insertIdentifier.run(input.environment, result.lastInsertRowid, identifier);
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
    });
    let onDisk = Promise.resolve();
    if (input.waitForDisk === false && this.flushToDisk) {
      commitWithoutWaitingForDisk(this.db, write);
      onDisk = this.flushToDisk();
      // Whoever sends the run's first label waits on it and hears its failure.
      onDisk.catch(() => undefined);
    } else {
      write();
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
    };
    return { run, entries, onDisk };
  }

  run(runId: string): RunRow | null {
    const record = this.statements.run.get(runId);
    return record ? toRun(record) : null;
  }

  requireRun(runId: string): RunRow {
    const run = this.run(runId);
    if (!run) throw new Error(`print run ${runId} is not in the journal`);
    return run;
  }

  entries(runId: string): JournalRow[] {
    return this.statements.entries.all(runId).map(toEntry);
  }

  entry(id: number): JournalRow | null {
    const record = this.statements.entry.get(id);
    return record ? toEntry(record) : null;
  }

  counts(runId: string): RunCounts {
    const counts: RunCounts = { total: 0, queued: 0, fetched: 0, sent: 0, printed: 0, failed: 0, uncertain: 0 };
    for (const record of this.statements.counts.all(runId)) {
      const row = parseRecord(CountRecordSchema, record, 'count');
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

  /**
   * Written before the first byte of the label leaves. `waitForDisk: false` (a scan's label, the
   * one commit between the service's answer and the printer): the mark survives the station's
   * process dying, since the operating system holds the write, but not the computer losing power;
   * recovery reads an unsent label of a scan left by an earlier boot as uncertain for that reason.
   */
  markSending(id: number, options: { waitForDisk?: boolean } = {}): void {
    const now = this.now();
    const write = () => this.statements.sending.run(now, now, id);
    if (options.waitForDisk === false) commitWithoutWaitingForDisk(this.db, write);
    else write();
  }

  /** Nothing of the label reached the printer after all (the connection was never made). */
  clearSending(id: number): void {
    this.statements.notSending.run(this.now(), id);
  }

  /**
   * The printer confirmed it has read the whole label (or the OS queue took the job). `fetched`:
   * the document, when its fetch is not in the journal yet (a scan's, recorded after its answer),
   * written in the same commit.
   */
  markSent(id: number, fetched?: { sha256: string; format: LabelFormat }): void {
    const now = this.now();
    if (!fetched) {
      this.statements.sent.run(now, now, id);
      return;
    }
    this.db.transaction(() => {
      this.statements.fetched.run(now, fetched.sha256, fetched.format, now, id);
      this.statements.sent.run(now, now, id);
    })();
  }

  /** `finish`: these were the run's last labels; it is closed in the same commit. */
  markPrinted(ids: readonly number[], finish?: { runId: string; state: 'finished' | 'cancelled' }): void {
    if (ids.length === 0 && !finish) return;
    const now = this.now();
    this.db.transaction(() => {
      for (const id of ids) this.statements.printed.run(now, now, id);
      if (finish) this.statements.finishRun.run(finish.state, now, now, finish.runId);
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
    return statement.all(environment, options.limit ?? 50).map(toRun);
  }

  hasUnfinishedRuns(environment: Environment, printerId: string): boolean {
    return parseRecord(CountSchema, this.statements.runsUsingPrinter.get(environment, printerId), 'count').n > 0;
  }

  /**
   * After a crash or power loss: every label that was being sent becomes uncertain; bundle and
   * retry runs left running or paused wait for someone to resume them; a single or test run is
   * closed (a parcel scanned minutes ago is not printed out of the blue), its unsent label failed
   * — or uncertain when `powerLost` says the computer may have lost power since the run was
   * written: its "sending began" did not wait for the disk (markSending) and may be gone.
   */
  recoverInterrupted(
    pauseReason: PauseReasonData,
    uncertainReason: string,
    unsentSingleReason: string,
    which: (run: RunRow) => boolean = () => true,
    powerLost?: { since(run: RunRow): boolean; reason: string },
  ): RecoveryReport {
    const report: RecoveryReport = { pausedRuns: [], closedRuns: [], uncertain: [] };
    this.db.transaction(() => {
      for (const run of this.statements.unfinishedRuns.all().map(toRun)) {
        if (!which(run)) continue;
        for (const record of this.statements.sendingRows.all(run.id)) {
          const row = parseRecord(IdRecordSchema, record, 'label id');
          this.markUncertain(row.id, uncertainReason);
          report.uncertain.push(row.id);
        }
        if (run.kind === 'single' || run.kind === 'test') {
          if (powerLost?.since(run)) {
            for (const record of this.statements.unsentRows.all(run.id)) {
              const row = parseRecord(IdRecordSchema, record, 'label id');
              this.markUncertain(row.id, powerLost.reason);
              report.uncertain.push(row.id);
            }
          }
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

  /**
   * The latest label of the order that may have reached a printer, or null, whatever route
   * printed it: the order's own label, or a bundle page whose text named the order (its parcel
   * barcode, order ref or id) printed before the station knew the order.
   */
  previousPrint(environment: Environment, orderId: string): JournalRow | null {
    const record = this.statements.previousPrint.get({ environment, orderId });
    return record ? toEntry(record) : null;
  }

  /** The latest label that may have reached a printer of an order a page's identifiers name (by order id, order ref or parcel barcode). */
  previousPrintOfPage(environment: Environment, identifiers: readonly string[]): JournalRow | null {
    if (identifiers.length === 0) return null;
    const record = this.statements.previousPrintOfPage.get({ environment, identifiers: JSON.stringify(identifiers) });
    return record ? toEntry(record) : null;
  }

  /** Pages of a bundle printed (or maybe printed) without a known order, each with the identifiers read from its text. */
  printedPagesOf(environment: Environment, bundleId: string): { entry: JournalRow; identifiers: string[] }[] {
    const identifiers = new Map<number, string[]>();
    for (const record of this.statements.identifiersOfBundlePages.all(environment, bundleId)) {
      const row = parseRecord(IdentifierRecordSchema, record, 'label identifier');
      identifiers.set(row.entry_id, [...(identifiers.get(row.entry_id) ?? []), row.identifier]);
    }
    return this.statements.pagesOfBundle.all(environment, bundleId).map((record) => {
      const entry = toEntry(record);
      return { entry, identifiers: identifiers.get(entry.id) ?? [] };
    });
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
        .all(environment, ...chunk);
      for (const row of rows) found.add(parseRecord(BundleRecordSchema, row, 'bundle id').bundle_id);
    }
    return found;
  }

  journal(environment: Environment, options: { orderId?: string; limit?: number } = {}): JournalRow[] {
    const limit = options.limit ?? 100;
    const records = options.orderId
      ? this.statements.journalOfOrder.all(environment, options.orderId, limit)
      : this.statements.journalOf.all(environment, limit);
    return records.map(toEntry);
  }
}
