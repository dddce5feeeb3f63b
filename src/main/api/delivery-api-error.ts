import { StationError, type ErrorCode, type ErrorFacts } from '../../shared/errors';

export interface DeliveryApiErrorFacts {
  /** HTTP status of the answer that decided the error; absent when no answer came (network, timeout, local checks). */
  status?: number;
  /** For 400: the service's validation messages; for 406: its message; for local validation: what is wrong. */
  details?: string[];
  /** The service's own message when it sent one (the 406 rejection text, for example). */
  serviceMessage?: string;
  /** How long the service asked to be left alone (Retry-After), when it said so. */
  retryAfterMs?: number;
  /** HTTP attempts made before giving up; 0 when the request was refused locally. */
  attempts?: number;
  cause?: unknown;
  /** What the screen words the error with (the address that did not answer, for one). */
  facts?: ErrorFacts;
}

/**
 * A failed Delivery API call. The code is one of the station's stable codes (the screen maps it to a
 * message, a colour and a sound); the message is plain language saying what to do. Never carries the
 * API key: messages are built here, and text from the service is scrubbed of the key first.
 */
export class DeliveryApiError extends StationError {
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;

  constructor(code: ErrorCode, message: string, facts: DeliveryApiErrorFacts = {}) {
    super(code, message, facts.details, { ...(facts.cause === undefined ? {} : { cause: facts.cause }), ...(facts.facts ? { facts: facts.facts } : {}) });
    this.name = 'DeliveryApiError';
    this.status = facts.status;
    this.serviceMessage = facts.serviceMessage;
    this.retryAfterMs = facts.retryAfterMs;
    this.attempts = facts.attempts ?? 0;
  }
}
