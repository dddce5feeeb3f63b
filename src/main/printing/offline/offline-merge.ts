/**
 * Brings the labels a bench printed while the shared store was offline (its own file's journal,
 * rows marked local_only) into the shared journal, and reads the report of those printed twice.
 *
 * Each local label goes in as a new row (the shared store numbers it) carrying `local_ref`
 * (bench id and local id) under a unique index, so a merge cut short by a crash or by the store
 * leaving again resumes without writing a label twice. A local first print whose order (or bundle
 * page) already has a live print in the shared journal is not an error: it goes in unguarded, with
 * `duplicate_of` naming that print, and is a line of the "printed twice while offline" report.
 * The unique indexes of migration 12 decide against another bench merging or printing the same
 * order at the same moment: the loser's transaction fails and is run again, and then finds it.
 */
import { z } from 'zod';
import type { Environment } from '../../../shared/contract/app';
import type { OfflineDuplicate } from '../../../shared/contract/store';
import { StationError } from '../../../shared/errors';
import { retryLostRace, type SqlValue, type StoreEngine, type StoreSession } from '../../store';
import { columnOf, selectedAsFields } from '../journal/journal-rows';
import { JournalRowSchema, RunRowSchema } from '../journal/journal-types';

/** A label of the bench's file as the journal reads it, with what the merge needs besides. */
const LocalLabelSchema = JournalRowSchema.extend({
  guarded: z.number().int().nullable(),
  localOnly: z.string(),
  localOnlyBy: z.string().nullable(),
});
type LocalLabel = z.infer<typeof LocalLabelSchema>;
const localLabelFields = LocalLabelSchema.keyof().options;

/** Copied as they are; the id, the reprint link, the guard and the merge's own columns are the merge's to set. */
const copiedFields = localLabelFields.filter((field) => field !== 'id' && field !== 'reprintOf' && field !== 'guarded');
const copiedColumns = copiedFields.map(columnOf);
const runColumns = RunRowSchema.keyof().options.map(columnOf);
const RunRecordSchema = z.object(Object.fromEntries(runColumns.map((column) => [column, z.union([z.string(), z.number()]).nullable()])));
const IdSchema = z.object({ id: z.coerce.number().int() });

/** A live print, as the unique indexes count it (printed, on its way, or uncertain and undecided). */
const live = `voided_at IS NULL AND (state IN ('queued', 'fetched', 'sent', 'printed') OR (state = 'uncertain' AND decided_at IS NULL))`;

/** A label that may be on paper: the ones that make a second print a real duplicate. */
function mayBeOnPaper(label: LocalLabel): boolean {
  if (label.voidedAt) return false;
  return label.state === 'sent' || label.state === 'printed' || (label.state === 'uncertain' && label.decidedAt === null) || label.sentAt !== null;
}

export interface MergeResult {
  /** Local labels now in the shared journal (this merge's). */
  labels: number;
  /** Of them, printed twice. */
  duplicates: number;
}

export interface OfflineMergeDeps {
  /** The bench's own file. */
  local: StoreEngine;
  /** The warehouse's shared store. */
  shared: StoreEngine;
  benchId: string;
  clock?: () => Date;
}

/** How many local-only labels this bench has not merged yet. */
export async function unmergedLabels(local: StoreEngine): Promise<number> {
  const rows = await local.query('SELECT count(*) AS n FROM print_journal WHERE local_only IS NOT NULL AND merged_at IS NULL');
  return z.object({ n: z.coerce.number() }).parse(rows[0]).n;
}

export async function mergeLocalLabels(deps: OfflineMergeDeps): Promise<MergeResult> {
  const clock = deps.clock ?? (() => new Date());
  const records = await deps.local.query(`SELECT ${selectedAsFields(localLabelFields)} FROM print_journal WHERE local_only IS NOT NULL AND merged_at IS NULL ORDER BY id`);
  const result: MergeResult = { labels: 0, duplicates: 0 };
  for (const record of records) {
    const label = LocalLabelSchema.parse(record);
    const mergedAt = clock().toISOString();
    const outcome = await retryFirstPrintRace(() => retryLostRace(() => deps.shared.transaction((tx) => mergeOne(tx, deps, label, mergedAt))));
    // Only after the shared store has it: a crash in between leaves it to the next merge, which finds its local_ref.
    await deps.local.execute('UPDATE print_journal SET merged_at = $1 WHERE id = $2', [mergedAt, label.id]);
    if (outcome === 'already') continue;
    result.labels += 1;
    if (outcome === 'duplicate') result.duplicates += 1;
  }
  return result;
}

type MergeOutcome = 'merged' | 'duplicate' | 'already';

async function mergeOne(tx: StoreSession, deps: OfflineMergeDeps, label: LocalLabel, mergedAt: string): Promise<MergeOutcome> {
  const localRef = `${deps.benchId}:${label.id}`;
  if ((await tx.query('SELECT id FROM print_journal WHERE local_ref = $1', [localRef])).length > 0) return 'already';
  if (label.runId !== null) await copyRun(tx, deps.local, label.runId);
  const guarded = label.guarded === 1 && !label.voidedAt;
  const holder = guarded ? await liveFirstPrint(tx, label) : null;
  // A local reprint of a label merged before points at its shared row; of anything else, at nothing.
  const reprintOf = label.reprintOf === null ? null : await sharedIdOf(tx, `${deps.benchId}:${label.reprintOf}`);
  const duplicate = holder !== null && mayBeOnPaper(label);
  const values: SqlValue[] = [...copiedFields.map((field) => label[field] ?? null), holder ? null : label.guarded, reprintOf, localRef, duplicate ? holder : null, mergedAt];
  const placeholders = values.map((_, index) => `$${index + 1}`).join(', ');
  await tx.execute(`INSERT INTO print_journal (${copiedColumns.join(', ')}, guarded, reprint_of, local_ref, duplicate_of, merged_at) VALUES (${placeholders})`, values);
  return duplicate ? 'duplicate' : 'merged';
}

async function copyRun(tx: StoreSession, local: StoreEngine, runId: string): Promise<void> {
  const [record] = await local.query(`SELECT ${runColumns.join(', ')} FROM print_runs WHERE id = $1`, [runId]);
  if (!record) throw new StationError('INTERNAL', `A local-only label's run ${runId} is missing from this bench's file.`);
  const run = RunRecordSchema.parse(record);
  const values = runColumns.map((column) => run[column] ?? null);
  const placeholders = values.map((_, index) => `$${index + 1}`).join(', ');
  await tx.execute(`INSERT INTO print_runs (${runColumns.join(', ')}) VALUES (${placeholders}) ON CONFLICT (id) DO NOTHING`, values);
}

async function liveFirstPrint(tx: StoreSession, label: LocalLabel): Promise<number | null> {
  const rows =
    label.orderId !== null
      ? await tx.query(`SELECT id FROM print_journal WHERE environment = $1 AND order_id = $2 AND guarded = 1 AND ${live}`, [label.environment, label.orderId])
      : label.bundleId !== null && label.bundlePosition !== null
        ? await tx.query(`SELECT id FROM print_journal WHERE environment = $1 AND order_id IS NULL AND bundle_id = $2 AND format = $3 AND bundle_position = $4 AND guarded = 1 AND ${live}`, [
            label.environment,
            label.bundleId,
            label.format,
            label.bundlePosition,
          ])
        : [];
  return rows[0] ? IdSchema.parse(rows[0]).id : null;
}

async function sharedIdOf(tx: StoreSession, localRef: string): Promise<number | null> {
  const [row] = await tx.query('SELECT id FROM print_journal WHERE local_ref = $1', [localRef]);
  return row ? IdSchema.parse(row).id : null;
}

/**
 * Another bench wrote a live first print of the same order between this merge's look and its
 * insert: the unique index refused the insert and rolled the transaction back whole. Run again,
 * the look finds that print, and the label goes in as printed twice.
 */
async function retryFirstPrintRace<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StationError && error.code === 'STORE_CONFLICT' && error.details?.[0] === 'print_journal') return work();
    throw error;
  }
}

const text = z.string().nullable();
const int = z.coerce.number().int().nullable();
const DuplicateRecordSchema = z.object({
  entryId: z.coerce.number().int(),
  orderId: text,
  bundleId: text,
  bundlePosition: int,
  printedAt: z.string(),
  benchName: text,
  operator: z.string(),
  localReason: z.string(),
  localAllowedBy: text,
  mergedAt: z.string(),
  otherId: z.coerce.number().int(),
  otherBench: text,
  otherAt: z.string(),
  otherState: z.string(),
});

/** The "printed twice while offline" report, newest first. */
export async function offlineDuplicates(shared: StoreEngine, environment: Environment, limit: number): Promise<OfflineDuplicate[]> {
  const rows = await shared.query(
    `SELECT j.id AS "entryId", j.order_id AS "orderId", j.bundle_id AS "bundleId", j.bundle_position AS "bundlePosition",
       coalesce(j.printed_at, j.sent_at, j.queued_at) AS "printedAt", j.bench_name AS "benchName", j.operator,
       j.local_only AS "localReason", j.local_only_by AS "localAllowedBy", j.merged_at AS "mergedAt",
       h.id AS "otherId", h.bench_name AS "otherBench", coalesce(h.printed_at, h.sent_at, h.queued_at) AS "otherAt", h.state AS "otherState"
     FROM print_journal j JOIN print_journal h ON h.id = j.duplicate_of
     WHERE j.environment = $1 AND j.duplicate_of IS NOT NULL
     ORDER BY j.id DESC LIMIT $2`,
    [environment, limit],
  );
  return rows.map((row) => {
    const record = DuplicateRecordSchema.parse(row);
    return {
      entryId: record.entryId,
      orderId: record.orderId,
      bundleId: record.bundleId,
      bundlePosition: record.bundlePosition,
      printedAt: record.printedAt,
      benchName: record.benchName,
      operator: record.operator,
      localReason: record.localReason,
      localAllowedBy: record.localAllowedBy,
      mergedAt: record.mergedAt,
      other: { entryId: record.otherId, benchName: record.otherBench, at: record.otherAt, state: record.otherState },
    };
  });
}
