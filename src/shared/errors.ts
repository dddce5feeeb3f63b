import { z } from 'zod';

/**
 * Stable error codes that cross the contract. The screen maps each code to a message, a colour
 * and a sound, so codes are never renamed; new ones are added at the end of their group.
 */
export const errorCodes = [
  // contract and station
  'INVALID_INPUT',
  'UNKNOWN_CALL',
  'INTERNAL',
  'NOT_CONFIGURED',
  /** Something the call names does not exist (facts: subject, id). */
  'NOT_FOUND',
  /** The thing exists but its current state forbids the call (facts: subject, id, state). */
  'CONFLICT',
  /** Someone at the station cancelled it before it was done (facts: subject, id, by). */
  'CANCELLED',
  /** The call writes who did it into the journal, and nobody is signed in (facts: action). */
  'OPERATOR_REQUIRED',
  /** The screen lost its connection to the station (the web host stopped): made by the screen itself. */
  'STATION_UNREACHABLE',
  // Delivery API
  'VALIDATION',
  'KEY_MISSING',
  'KEY_REJECTED',
  'FORBIDDEN',
  'ORDER_NOT_FOUND',
  'PICKUP_POINT_REJECTED',
  'RATE_LIMITED',
  'SERVER_ERROR',
  'NETWORK',
  'TIMEOUT',
  'MALFORMED_RESPONSE',
  'OUTCOME_UNKNOWN',
  'LABEL_NOT_READY',
  'KEYCHAIN_UNAVAILABLE',
  'NOT_DELIVERABLE',
  // orders and scans
  'SCAN_INVALID',
  'SCAN_AMBIGUOUS',
  'ORDER_TERMINAL',
  'ALREADY_PRINTED',
  'IMPORT_FAILED',
  /** The order was cancelled from this station (details: voided_at, voided_by, reason): keep the parcel off the pallet. */
  'ORDER_VOIDED',
  /** The service would not cancel the order (details: the service's words and the order's last known status). */
  'CANCEL_REFUSED',
  /** A live cancellation needs the word LIVE typed as its confirmation. */
  'CONFIRMATION_REQUIRED',
  /** A spreadsheet upload lacks required columns (details: the missing column names). Nothing was read from it. */
  'UPLOAD_COLUMNS_MISSING',
  /** No spreadsheet upload with that id in this environment (details: the id). */
  'UPLOAD_NOT_FOUND',
  // printers
  'PRINTER_NOT_FOUND',
  'PRINTER_OFFLINE',
  'PAPER_OUT',
  'HEAD_OPEN',
  'PRINTER_PAUSED',
  'RIBBON_OUT',
  'PRINTER_ERROR',
  'PRINT_UNCERTAIN',
  'LABEL_REFUSED',
  /** The printer's head is narrower than an A6 label: refused, with its width and what would be cut off. */
  'PRINTER_TOO_NARROW',
  /** The address answered, but not as a Zebra: nothing but status questions was sent to it. */
  'PRINTER_NOT_ZEBRA',
  /** Another bench of the warehouse is driving this printer: nothing was sent (facts: printerId, printerName, benchName, since). */
  'PRINTER_LEASED',
  // orders and scans, added later (kept apart so earlier codes keep their place)
  /** In the station's order index (the manifest), but the service does not know the order (facts: orderRef, orderId). */
  'ORDER_UNKNOWN_TO_SERVICE',
  /** The service knows no bundle by this id (facts: bundleId). */
  'BUNDLE_NOT_FOUND',
  /** A run was asked for, but every label of it was left out (facts: skipped, and the first one's code). */
  'NOTHING_TO_PRINT',
  // shared store
  /** A row with the same key already exists (details: the table, then its key columns); another bench or call got there first. */
  'STORE_CONFLICT',
  /** The station's store cannot be reached (the shared PostgreSQL server is down or unreachable). */
  'STORE_UNAVAILABLE',
  /** Printing refused: the shared store is offline, so the duplicate guard cannot be asked (facts: since). */
  'STORE_OFFLINE',
  // bench hardware
  /** No scale is set up on this bench (Setup chooses one). */
  'SCALE_NOT_CONFIGURED',
  /** The scale gave no stable weight in time (facts: condition — motion, overload, negative, busy, fault, bad-data, disconnected; detail). */
  'SCALE_NO_WEIGHT',
  // printers
  /**
   * The printer is not 203 dpi, so it needs the order's PDF label drawn at its resolution, and the
   * service offers this order's label only as (203 dpi) ZPL. Nothing was sent (facts: orderId,
   * orderRef, printerName, dpi).
   */
  'LABEL_NEEDS_PDF',
  // shared store and the bench's file
  /**
   * The store was written by a newer station: its schema is at a version this one does not know,
   * so nothing was opened for writing (facts: subject — bench-file or shared; storeVersion; knownVersion).
   */
  'STORE_NEWER_THAN_STATION',
  /**
   * This computer has no print system to offer print queues: CUPS not installed or not running
   * (facts: subject not-installed | not-running, system). Not a printer's fault.
   */
  'NO_PRINT_SYSTEM',
  // the lead's floor
  /** Another lead acted on the same run or label first: this action was not sent (facts: operator, benchName, action, since). */
  'FLOOR_ACTED_FIRST',
  /** The bench an action is for has not reported for the stated time: nothing was sent (facts: benchName, since; subject 'stopped' when it was closed in order). */
  'BENCH_NOT_ANSWERING',
] as const;

export const ErrorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/**
 * One fact about an error, for the screen to word in its own language: an id, a count, a name, an
 * address, a status code or an ISO time. Never a sentence.
 */
export const ErrorFactSchema = z.union([z.string().max(500), z.number(), z.boolean(), z.null()]);
export type ErrorFact = z.infer<typeof ErrorFactSchema>;
export const ErrorFactsSchema = z.record(z.string().max(64), ErrorFactSchema);
export type ErrorFacts = z.infer<typeof ErrorFactsSchema>;

export const StationErrorDataSchema = z.object({
  code: ErrorCodeSchema,
  /** English, for logs and the CLI. The screen never shows it: it words the code and facts itself. */
  message: z.string(),
  /** Lines for logs and the CLI, such as the API's validation messages. Never secrets. */
  details: z.array(z.string()).optional(),
  /** What the screen needs to say what happened: ids, counts, names, statuses, times. */
  facts: ErrorFactsSchema.optional(),
});
export type StationErrorData = z.infer<typeof StationErrorDataSchema>;

/** Thrown by services; the dispatcher turns it into error data with the same code. */
export class StationError extends Error {
  readonly code: ErrorCode;
  readonly details: string[] | undefined;
  readonly facts: ErrorFacts | undefined;

  constructor(code: ErrorCode, message: string, details?: string[], options?: { cause?: unknown; facts?: ErrorFacts }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StationError';
    this.code = code;
    this.details = details;
    this.facts = options?.facts;
  }

  toData(): StationErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
      ...(this.facts ? { facts: this.facts } : {}),
    };
  }
}
