/**
 * The journal's and runs' types, derived once from the shared contract's schemas. The same
 * schemas parse what the database hands back, so a row this version cannot read is an error
 * with the column that is wrong, never a silently mistyped object.
 */
import { z } from 'zod';
import {
  BundlePlanSchema,
  JournalEntrySchema,
  PauseReasonSchema,
  RunKindSchema,
  RunStateSchema,
  SecondCopySchema,
  SkippedLabelSchema,
  type LabelFormat,
} from '../../../shared/contract/printing';
import { BootMarkSchema } from '../../boot-identity';

export type { LabelFormat };
export type RunKind = z.infer<typeof RunKindSchema>;
export type RunState = z.infer<typeof RunStateSchema>;
export type BundlePlanRecord = z.infer<typeof BundlePlanSchema>;
export type SkippedRecord = z.infer<typeof SkippedLabelSchema>;

/**
 * One row of print_journal: the contract's journal entry without what is looked up for the
 * screen (printer name, order ref, barcode, recipient), plus what only the station keeps.
 */
export const JournalRowSchema = JournalEntrySchema.omit({ printerName: true, orderRef: true, barcode: true, recipient: true, secondCopy: true }).extend({
  /** The columns of the entry's second copy (SecondCopySchema), null when there is none. */
  secondCopyCertainty: SecondCopySchema.shape.certainty.nullable().catch(null).default(null),
  secondCopyFault: SecondCopySchema.shape.fault.nullable().catch(null).default(null),
  documentSha256: z.string().nullable(),
  /** When sending began. A row still 'queued' or 'fetched' with this set was being sent when the station stopped. */
  sentAt: z.string().nullable(),
  updatedAt: z.string(),
  /** The bench that printed it (its id) and its name then; null in rows older than version 12 (this bench's). */
  bench: z.string().nullable().optional(),
  benchName: z.string().nullable().optional(),
});
export type JournalRow = z.infer<typeof JournalRowSchema>;

/**
 * What a run keeps in its options column. Each field falls back on its own: a damaged field
 * leaves its default, the labels themselves are in their own rows.
 */
export const RunOptionsSchema = z.object({
  reverse: z.boolean().catch(false),
  bundles: z.array(BundlePlanSchema).catch([]),
  skipped: z.array(SkippedLabelSchema).catch([]),
  retryOf: z.string().nullable().catch(null),
  /** The scan that started a single print. */
  scan: z.string().nullable().catch(null),
  /** For a reprint or an override: who asked and why. */
  reprint: z.object({ operator: z.string(), reason: z.string() }).nullable().catch(null),
  /**
   * The station process printing the run. The app and the CLI share one database: a run is only
   * recovered (and resumed elsewhere) once the process that owns it is gone.
   */
  owner: z
    .object({
      pid: z.number(),
      instance: z.string(),
      /** The operating system's boot the process ran in (absent in runs of older versions). */
      boot: BootMarkSchema.optional(),
    })
    .nullable()
    .catch(null),
});
export type RunOptions = z.infer<typeof RunOptionsSchema>;

export const RunRowSchema = z.object({
  id: z.string(),
  environment: JournalEntrySchema.shape.environment,
  kind: RunKindSchema,
  printerId: z.string(),
  operator: z.string(),
  state: RunStateSchema,
  pauseReason: PauseReasonSchema.nullable(),
  options: RunOptionsSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** The bench that owns the run and its name; null in runs older than version 12 (this bench's). */
  bench: z.string().nullable().optional(),
  benchName: z.string().nullable().optional(),
  /** The owner's last sign of life (run-ownership.ts); null before version 12. */
  heartbeatAt: z.string().nullable().optional(),
});
export type RunRow = z.infer<typeof RunRowSchema>;

/** A label to put in a new run. */
export interface NewLabel {
  orderId: string | null;
  bundleId: string | null;
  bundlePosition: number | null;
  bundleCount: number | null;
  format: LabelFormat;
  reprintOf?: number | null;
  reason?: string | null;
  /**
   * For a page of a bundle PDF whose order the station does not know yet: the identifiers read
   * from the page's text (parcel barcode, order ref, order id). The journal matches them against
   * the order index whenever it is asked about an order, so a page learnt later is that order's label.
   */
  identifiers?: readonly string[];
}
