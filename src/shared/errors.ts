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
  // shared store
  /** A row with the same key already exists (details: the table, then its key columns); another bench or call got there first. */
  'STORE_CONFLICT',
  /** The station's store cannot be reached (the shared PostgreSQL server is down or unreachable). */
  'STORE_UNAVAILABLE',
] as const;

export const ErrorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const StationErrorDataSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  /** Extra facts for the screen, such as the API's validation messages. Never secrets. */
  details: z.array(z.string()).optional(),
});
export type StationErrorData = z.infer<typeof StationErrorDataSchema>;

/** Thrown by services; the dispatcher turns it into error data with the same code. */
export class StationError extends Error {
  readonly code: ErrorCode;
  readonly details: string[] | undefined;

  constructor(code: ErrorCode, message: string, details?: string[], options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StationError';
    this.code = code;
    this.details = details;
  }

  toData(): StationErrorData {
    return this.details ? { code: this.code, message: this.message, details: this.details } : { code: this.code, message: this.message };
  }
}
