/**
 * Spreadsheet upload at the station (the service dashboard's bulk creation, done through the API
 * and the creation ledger): a file is read and every row checked locally into a preview, then
 * created in the background in batches of at most 1,000, pausable, cancellable and resumable, with
 * a report XLSX and optionally one PDF of all labels. Problems and outcomes cross as codes with
 * facts; the screen words them.
 */
import { z } from 'zod';
import { PickedFileHandleSchema } from './imports';
import { defineCall, defineEvent } from './define';

export const UploadIdSchema = z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, 'an upload id');

/**
 * Why a file is refused as a whole (IMPORT_FAILED, fact `subject`; facts `file`, and `mb` and
 * `sizeMb` when it is too big). The screen words each one.
 */
export const uploadFileProblems = [
  /** Larger than the station reads (facts: mb, the limit; sizeMb, the file's size). */
  'too-big',
  /** Zero bytes. */
  'empty',
  /** No header row before the first data row, or nothing at all in the worksheet. */
  'no-header',
  /** The reader could not read it (a damaged workbook, a hostile one beyond the limits, a file that cannot be opened). */
  'unreadable',
  /** Neither an XLSX or XLS workbook nor CSV text. */
  'unsupported',
  /** The file chosen in the dialog is no longer valid (each choice is read once, within ten minutes). */
  'choice-expired',
] as const;
export type UploadFileProblem = (typeof uploadFileProblems)[number];

/** Why a row is not created, or was skipped: a stable code and the facts behind it. */
export const UploadRowProblemSchema = z.object({
  code: z.enum([
    /** A required column's cell is empty. */
    'missing',
    /** deliveryCountry is not a two-letter code. */
    'country',
    /** deliveryPostalCode does not look like a postal code of the row's country. */
    'postal-code',
    /** deliveryDate is not a YYYY-MM-DD calendar date. */
    'date',
    /** A number column holds something other than a number above 0. */
    'number',
    /** signature / notAtNeighbour hold something other than yes/no. */
    'flag',
    /** Only some of length, width and height are given. */
    'dimensions-partial',
    /** length ≥ width ≥ height does not hold. */
    'dimensions-order',
    /** locationId is not one of the locations this upload was started for. */
    'location',
    /** The same orderRef is on an earlier row of the file with other contents. */
    'duplicate',
    /** The cell could not be read (a formula error, a value too long). */
    'cell',
    /** The service refused the order (facts: the error code and the service's messages). */
    'refused',
    /** The POST was sent but its outcome is not known; it is never sent again by itself. */
    'outcome-unknown',
    /** The upload was cancelled before this row was sent. */
    'cancelled',
    /** A parcels cell other than 1: a row of this upload is one parcel; several parcels of an order go through the ship flow. */
    'parcels',
  ]),
  column: z.string().max(64).optional(),
  value: z.string().max(200).optional(),
  /** 'duplicate': the file row the orderRef is first on. */
  firstRow: z.number().int().optional(),
  /** 'refused': the station's error code of the refusal. */
  errorCode: z.string().max(64).optional(),
  /** 'refused' / 'outcome-unknown': the service's own messages, as it sent them. */
  messages: z.array(z.string().max(500)).max(20).optional(),
});
export type UploadRowProblem = z.infer<typeof UploadRowProblemSchema>;

/** Why a row is skipped instead of created. */
export const UploadSkipSchema = z.object({
  code: z.enum([
    /** The creation ledger holds this orderRef as created (this upload, an earlier one, or a ship). */
    'created-before',
    /** An earlier POST of this orderRef has an unknown outcome: never sent again blindly. */
    'unknown-before',
    /** Another process is creating this orderRef right now. */
    'in-progress',
    /** The same row (same orderRef, same contents) is on an earlier row of this file. */
    'repeated-in-file',
  ]),
  orderId: z.string().nullable().optional(),
  firstRow: z.number().int().optional(),
  /** 'created-before': the location the order was created for, when the station knows it. */
  locationId: z.string().max(64).nullable().optional(),
  /** 'created-before': the location this row names (differing from locationId: created elsewhere). */
  rowLocationId: z.string().max(64).nullable().optional(),
});
export type UploadSkip = z.infer<typeof UploadSkipSchema>;

export const UploadRowStateSchema = z.enum(['ready', 'invalid', 'skipped', 'created', 'failed', 'unknown', 'cancelled']);
export type UploadRowState = z.infer<typeof UploadRowStateSchema>;

export const UploadRowSchema = z.object({
  /** Row number in the file, the header being row 1. */
  row: z.number().int(),
  orderRef: z.string().nullable(),
  state: UploadRowStateSchema,
  problems: z.array(UploadRowProblemSchema),
  skip: UploadSkipSchema.nullable(),
  orderId: z.string().nullable(),
});
export type UploadRowView = z.infer<typeof UploadRowSchema>;

export const UploadResultSchema = z.enum(['completed', 'completed-with-errors', 'failed']);
export type UploadResult = z.infer<typeof UploadResultSchema>;

export const UploadStateSchema = z.enum(['previewed', 'running', 'paused', 'cancelled', 'finished']);
export type UploadState = z.infer<typeof UploadStateSchema>;

export const UploadCountsSchema = z.object({
  total: z.number().int(),
  ready: z.number().int(),
  invalid: z.number().int(),
  skipped: z.number().int(),
  created: z.number().int(),
  failed: z.number().int(),
  unknown: z.number().int(),
  cancelled: z.number().int(),
});
export type UploadCounts = z.infer<typeof UploadCountsSchema>;

export const UploadBatchSchema = z.object({
  batch: z.number().int(),
  firstRow: z.number().int(),
  lastRow: z.number().int(),
  counts: UploadCountsSchema,
  /** Null while rows of the batch are still to be sent. */
  result: UploadResultSchema.nullable(),
});

export const UploadStatusSchema = z.object({
  uploadId: UploadIdSchema,
  fileName: z.string(),
  environment: z.enum(['sandbox', 'test', 'live']),
  locations: z.array(z.string()),
  state: UploadStateSchema,
  /** Null until no row is left to send (or the upload was cancelled). */
  result: UploadResultSchema.nullable(),
  counts: UploadCountsSchema,
  /** Rows sent (created, failed or unknown) over rows that can be sent; skipped and invalid rows are not processed. */
  processed: z.number().int(),
  processable: z.number().int(),
  successful: z.number().int(),
  /** Invalid, refused, unknown and cancelled rows. */
  failedTotal: z.number().int(),
  /** Rows created per second over the last few seconds of this process's run (0 when not running). */
  ratePerSecond: z.number(),
  batches: z.array(UploadBatchSchema),
  skipReasons: z.object({ createdBefore: z.number().int(), unknownBefore: z.number().int(), inProgress: z.number().int(), repeatedInFile: z.number().int() }),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The printer the labels print on once every row is sent, when one was chosen at the start. */
  printerId: z.string().nullable(),
  /** The print run of the labels, when they were sent to a printer. */
  printRunId: z.string().nullable(),
  /** Whether this station process is sending its rows; 'running' without it means interrupted (a restart): start it again to resume. */
  runnerHere: z.boolean(),
});
export type UploadStatus = z.infer<typeof UploadStatusSchema>;

export const UploadPreviewSchema = z.object({
  status: UploadStatusSchema,
  /** Rows that are not ready (invalid or skipped), at most `shownLimit` of them, file order. */
  rows: z.array(UploadRowSchema),
  rowsOmitted: z.number().int(),
});
export type UploadPreview = z.infer<typeof UploadPreviewSchema>;

const UploadSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('picked'), handle: PickedFileHandleSchema }).strict(),
  z
    .object({
      kind: z.literal('content'),
      fileName: z.string().trim().min(1).max(255),
      base64: z.string().max(28 * 1024 * 1024),
    })
    .strict(),
]);

const LocationSchema = z.string().trim().regex(/^\d{1,12}$/, 'the location is a number');
const ById = z.object({ uploadId: UploadIdSchema }).strict();

export const uploadCalls = {
  /** Reads the file (first worksheet), checks every row and stores the preview. Nothing is sent. */
  'upload.prepare': defineCall(z.object({ source: UploadSourceSchema, locations: z.array(LocationSchema).min(1).max(50) }).strict(), UploadPreviewSchema),
  /** Starts (or resumes) creating the ready rows in the background; labels optionally printed once all are created. */
  'upload.start': defineCall(z.object({ uploadId: UploadIdSchema, printerId: z.string().min(1).max(100).optional() }).strict(), UploadStatusSchema),
  'upload.pause': defineCall(ById, UploadStatusSchema),
  'upload.cancel': defineCall(ById, UploadStatusSchema),
  /** One upload, or the latest of the current environment when no id is given (null when there is none). */
  'upload.status': defineCall(z.object({ uploadId: UploadIdSchema.optional() }).strict(), UploadStatusSchema.nullable()),
  /** Uploads of the current environment, newest first. */
  'upload.list': defineCall(z.object({ limit: z.number().int().min(1).max(100).default(20) }).strict(), z.array(UploadStatusSchema)),
  /** Rows that were not created (invalid, refused, outcome unknown, cancelled), file order, at most 500: the result on screen. */
  'upload.problems': defineCall(ById, z.object({ rows: z.array(UploadRowSchema), rowsOmitted: z.number().int() })),
  /** The report workbook (Successful Orders, Failed Orders), base64. */
  'upload.report': defineCall(ById, z.object({ fileName: z.string(), base64: z.string() })),
  /** One PDF of the labels of every created order of the upload, base64. */
  'upload.labels': defineCall(ById, z.object({ fileName: z.string(), base64: z.string(), labels: z.number().int() })),
};

export const uploadEvents = {
  'upload.progress': defineEvent(UploadStatusSchema),
};
