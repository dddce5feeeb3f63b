import { z } from 'zod';
import { EnvironmentSchema } from './app';
import { defineCall, defineEvent } from './define';

export const manifestFieldNames = ['orderId', 'orderRef', 'barcode', 'bundleId', 'recipient', 'status'] as const;
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

export const ManifestSourceSchema = z.discriminatedUnion('kind', [
  /** A file on this PC (the desktop app's file picker). */
  z.object({ kind: z.literal('path'), path: z.string().min(1).max(4096) }).strict(),
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

export const RowErrorSchema = z.object({ row: z.number().int(), message: z.string() });

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

export const importsCalls = {
  /**
   * Imports a manifest (CSV or XLSX) into the current environment's order index. Progress comes
   * as `imports.progress` events carrying the importId (pass one to match them to this call).
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
