/**
 * How the journal's parts read their rows: columns selected under the row schemas' field names,
 * each record parsed with the journal's own schemas, so a row this version cannot read is an error
 * naming the column, never a silently mistyped object.
 */
import { z } from 'zod';
import { PauseReasonSchema } from '../../../shared/contract/printing';
import type { SqlValue, StoreSession } from '../../store';
import { JournalRowSchema, RunOptionsSchema, RunRowSchema, type JournalRow, type RunOptions, type RunRow } from './journal-types';

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

export const entryColumns = selectedAsFields(JournalRowSchema.keyof().options);
export const runColumns = selectedAsFields(RunRowSchema.keyof().options);

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

export const IdRecordSchema = z.object({ id: z.number().int() });

export function parseRecord<T>(schema: z.ZodType<T>, record: unknown, what: string): T {
  const parsed = schema.safeParse(record);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`The print journal has a ${what} this version cannot read (${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}).`);
}

export const toEntry = (record: unknown): JournalRow => parseRecord(JournalRowSchema, record, 'label row');
export const toRun = (record: unknown): RunRow => parseRecord(RunRecordSchema, record, 'run row');

/** The first record a query returns (undefined when there is none). */
export async function firstRecord(session: StoreSession, sql: string, params: readonly SqlValue[]): Promise<unknown> {
  return (await session.query(sql, params))[0];
}

export function emptyRunOptions(): RunOptions {
  return { reverse: false, bundles: [], skipped: [], retryOf: null, scan: null, reprint: null, owner: null };
}
