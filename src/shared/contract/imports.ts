import { z } from 'zod';
import { ErrorFactsSchema } from '../errors';
import { EnvironmentSchema } from './app';
import { defineCall, defineEvent } from './define';
import { manifestColumns } from '../import-columns';

export const manifestFieldNames = [...manifestColumns.required, ...manifestColumns.optional] as const;
export const ManifestFieldSchema = z.enum(manifestFieldNames);

/** Largest file the screen may send as bytes (the web host has no file paths). */
export const maxManifestUploadBytes = 32 * 1024 * 1024;
const maxBase64Length = Math.ceil(maxManifestUploadBytes / 3) * 4;

export const ManifestFileNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[^/\\\0]+$/, 'the file name should be a name, not a path');

/** Why a path from the screen is refused: whoever can call could otherwise read any file the station can. */
export const manifestPathRefusal =
  'The station does not read a file the screen names by its path. Upload the file (its content), or choose it with the desktop app\'s file dialog.';

/** The opaque, single-use handle the desktop app's own file dialog gave for one picked file. */
export const PickedFileHandleSchema = z.string().regex(/^[A-Za-z0-9_-]{32,64}$/, 'the handle should be one the file dialog gave');

export const ManifestSourceSchema = z.discriminatedUnion('kind', [
  /** A file the main process's own file dialog picked (desktop app): only its handle crosses the contract. */
  z.object({ kind: z.literal('picked'), handle: PickedFileHandleSchema }).strict(),
  /** Refused on every host: kept in the schema only so the refusal says why instead of "invalid input". */
  z
    .object({ kind: z.literal('path'), path: z.unknown() })
    .refine(() => false, { message: manifestPathRefusal }),
  /** The file's bytes, base64-encoded (the browser kiosk). */
  z
    .object({
      kind: z.literal('content'),
      fileName: ManifestFileNameSchema,
      base64: z
        .string()
        .max(maxBase64Length, `the file should be at most ${maxManifestUploadBytes / 1024 / 1024} MB`)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'the file content should be base64'),
    })
    .strict(),
]);
export type ManifestSourceInput = z.infer<typeof ManifestSourceSchema>;

export const ColumnMappingSchema = z.partialRecord(ManifestFieldSchema, z.string().trim().min(1).max(200));

/**
 * What was wrong with a manifest row, for the screen's words (facts: field, column, value, reason;
 * barcode-taken: barcode, otherOrder — the ref, else the id, of the order that holds it).
 */
export const rowProblems = ['cell-unreadable', 'empty', 'not-scannable', 'unknown-status', 'barcode-taken'] as const;
export const RowProblemSchema = z.enum(rowProblems);
export type RowProblem = z.infer<typeof RowProblemSchema>;

/** `message` is English for the CLI and logs; the screen words `problem` with `facts`. */
export const RowErrorSchema = z.object({ row: z.number().int(), message: z.string(), problem: RowProblemSchema.optional(), facts: ErrorFactsSchema.optional() });
export type RowErrorData = z.infer<typeof RowErrorSchema>;

export const ImportReportSchema = z.object({
  importId: z.string(),
  environment: EnvironmentSchema,
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx']),
  columns: z.record(ManifestFieldSchema, z.string().nullable()),
  rowsRead: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  failed: z.number().int(),
  errors: z.array(RowErrorSchema),
  errorsTruncated: z.boolean(),
  durationMs: z.number(),
});
export type ImportReportData = z.infer<typeof ImportReportSchema>;

export const ImportProgressSchema = z.object({
  importId: z.string(),
  rowsRead: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  failed: z.number().int(),
  bytesRead: z.number().int(),
  totalBytes: z.number().int(),
  done: z.boolean(),
});

export const PickedManifestSchema = z.object({
  /** Pass it as `{ kind: 'picked', handle }` to imports.manifest; it works once, for a short while. */
  handle: PickedFileHandleSchema,
  fileName: z.string(),
  sizeBytes: z.number().int(),
});

export const importStates = ['running', 'finished', 'failed', 'interrupted'] as const;

export const ImportRecordSchema = z.object({
  importId: z.string(),
  environment: EnvironmentSchema,
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx']),
  /** `interrupted`: the station stopped (a crash, a kill) while the import ran; rows written before that stay. */
  state: z.enum(importStates),
  rowsRead: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  failed: z.number().int(),
  message: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportRecordData = z.infer<typeof ImportRecordSchema>;

export const importsCalls = {
  /**
   * Opens the desktop app's file dialog for a manifest. The path stays in the main process; the
   * screen gets an opaque handle for imports.manifest. Null when the dialog was cancelled. The web
   * host has no dialog (the browser uploads the content instead) and refuses the call.
   */
  'imports.pick': defineCall(z.object({}).strict(), PickedManifestSchema.nullable()),
  /** The latest imports of the current environment, newest first, with their state. */
  'imports.recent': defineCall(z.object({ limit: z.number().int().min(1).max(100).default(20) }).strict(), z.array(ImportRecordSchema)),
  /**
   * Imports a manifest (CSV or XLSX) into the current environment's order index. Progress comes
   * as `imports.progress` events carrying the importId (pass one to match them to this call).
   * An importId already used by an earlier import is refused (IMPORT_FAILED, "already used").
   */
  'imports.manifest': defineCall(
    z
      .object({
        source: ManifestSourceSchema,
        mapping: ColumnMappingSchema.optional(),
        importId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
      })
      .strict(),
    ImportReportSchema,
  ),
};

export const importsEvents = {
  'imports.progress': defineEvent(ImportProgressSchema),
};
