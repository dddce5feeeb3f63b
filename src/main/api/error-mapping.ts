/**
 * Turns what came back from one attempt (an HTTP error status, or a transport failure) into the
 * station's typed error plus a verdict on whether the same request may simply be sent again.
 * Error bodies other than 400 and 406 are "not shown" in the spec, so bodies are read defensively:
 * only a JSON `message` is ever quoted, HTML or empty bodies are ignored.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ErrorBodySchema } from '../../shared/api/schemas';
import { parseRetryAfterMs } from './backoff';
import { DeliveryApiError } from './delivery-api-error';
import type { TransportFailure } from './transport';

/**
 * read: checks, coverage, searches and label fetches — no effect on the service, safe to repeat.
 * cancel-order: idempotent by intent (the goal state is "cancelled"), so repeated like a read.
 * create-order: never repeated; an answer that may hide a created order is OUTCOME_UNKNOWN.
 */
export type Operation = 'read' | 'cancel-order' | 'create-order';

export type Subject =
  | { kind: 'order'; id: string }
  | { kind: 'bundle'; id: string }
  | { kind: 'location'; id: string }
  | { kind: 'pickup-points' }
  | { kind: 'new-order'; orderRef?: string };

export interface CallContext {
  operation: Operation;
  subject: Subject;
  /** "GET /orders/label/123" — for messages and logs; never carries a query or a header. */
  describe: string;
  host: string;
  /** The service's address as it was set up (origin and path), for the screen to name. */
  address: string;
  apiKey: string;
  timeouts: { connectMs: number; responseMs: number; attemptMs: number };
}

export interface AttemptFacts {
  number: number;
  /** An earlier attempt of this call may have reached the service (relevant to cancel). */
  earlierMayHaveReached: boolean;
  nowMs: number;
}

export type RetryVerdict = 'transient' | 'none';

export interface ClassifiedFailure {
  error: DeliveryApiError;
  retry: RetryVerdict;
  retryAfterMs?: number;
}

const maxQuotedMessages = 20;
const maxQuotedLength = 500;

export function scrubSecret(text: string, secret: string): string {
  return secret.length > 0 ? text.split(secret).join('[redacted]') : text;
}

export interface ServiceErrorBody {
  messages: string[];
  /** True when `message` was a single string (the 406 form) rather than a list. */
  single: boolean;
}

/** Reads the spec's error body, or any JSON object with a string or string-list `message`; anything else gives undefined. */
export function parseServiceErrorBody(bodyText: string, apiKey = ''): ServiceErrorBody | undefined {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  const strict = ErrorBodySchema.safeParse(json);
  const message: unknown = strict.success
    ? strict.data.message
    : typeof json === 'object' && json !== null && 'message' in json
      ? (json as { message: unknown }).message
      : undefined;
  const clean = (text: string) => scrubSecret(text.trim(), apiKey).slice(0, maxQuotedLength);
  if (typeof message === 'string') {
    const text = clean(message);
    return text === '' ? undefined : { messages: [text], single: true };
  }
  if (Array.isArray(message)) {
    const texts = message.filter((item): item is string => typeof item === 'string').map(clean).filter((text) => text !== '');
    return texts.length === 0 ? undefined : { messages: texts.slice(0, maxQuotedMessages), single: false };
  }
  return undefined;
}

function subjectPhrase(subject: Subject): string {
  switch (subject.kind) {
    case 'order':
      return `Order ${subject.id}`;
    case 'bundle':
      return `Bundle ${subject.id}`;
    case 'location':
      return `Location ${subject.id}`;
    case 'pickup-points':
      return 'The pickup point search';
    case 'new-order':
      return subject.orderRef ? `The new order ${subject.orderRef}` : 'The new order';
  }
}

const seconds = (ms: number): string => {
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
};

function checkBeforeCreatingAgain(ctx: CallContext): string {
  const ref = ctx.subject.kind === 'new-order' && ctx.subject.orderRef ? ` (search for order ref ${ctx.subject.orderRef})` : '';
  return `Check the order list${ref} before creating it again, or it may be created twice.`;
}

function outcomeUnknown(ctx: CallContext, what: string, facts: { status?: number; attempts: number; cause?: unknown }): DeliveryApiError {
  return new DeliveryApiError('OUTCOME_UNKNOWN', `The order may or may not have been created: ${what}. ${checkBeforeCreatingAgain(ctx)}`, facts);
}

/** A non-2xx answer. Label-specific "not generated yet" handling is layered on by the client. */
export function classifyHttpFailure(
  status: number,
  headers: IncomingHttpHeaders,
  bodyText: string,
  ctx: CallContext,
  attempt: AttemptFacts,
): ClassifiedFailure {
  const attempts = attempt.number;
  const body = parseServiceErrorBody(bodyText, ctx.apiKey);
  const retryAfterMs = status === 429 || status >= 500 ? parseRetryAfterMs(headers['retry-after'], attempt.nowMs) : undefined;
  const creating = ctx.operation === 'create-order';
  const cancelNote =
    ctx.operation === 'cancel-order' && attempt.earlierMayHaveReached
      ? ' An earlier attempt may already have cancelled it; check the order\'s status.'
      : '';

  if (creating && (status < 400 || status === 408 || status >= 500)) {
    const what =
      status >= 500
        ? `the Delivery API had an internal error (HTTP ${status}) while handling it`
        : `the Delivery API gave an unexpected answer (HTTP ${status})`;
    return { error: outcomeUnknown(ctx, what, { status, attempts }), retry: 'none' };
  }

  switch (status) {
    case 400: {
      const details = body?.messages;
      const summary = details && details.length > 0 ? details.join('; ') : 'no reason given';
      return {
        error: new DeliveryApiError('VALIDATION', `The Delivery API rejected the request as invalid: ${summary}.${cancelNote}`, {
          status,
          details,
          attempts,
        }),
        retry: 'none',
      };
    }
    case 401:
      return {
        error: new DeliveryApiError(
          'KEY_REJECTED',
          `The Delivery API did not accept the API key (HTTP 401). Check the key for this environment in Setup: it may be revoked, mistyped or meant for the other environment.`,
          { status, attempts },
        ),
        retry: 'none',
      };
    case 403:
      return {
        error: new DeliveryApiError(
          'FORBIDDEN',
          `${subjectPhrase(ctx.subject)} belongs to a company this API key was not issued for (HTTP 403).`,
          { status, attempts },
        ),
        retry: 'none',
      };
    case 404:
      return {
        error: new DeliveryApiError('ORDER_NOT_FOUND', `${subjectPhrase(ctx.subject)} was not found (HTTP 404).${cancelNote}`, { status, attempts }),
        retry: 'none',
      };
    case 406: {
      const serviceMessage = body?.messages.join('; ');
      return {
        error: new DeliveryApiError(
          'PICKUP_POINT_REJECTED',
          serviceMessage
            ? `The pickup point cannot be used for this address: ${serviceMessage}. Choose home delivery or another point.`
            : 'The pickup point cannot be used for this address. Choose home delivery or another point.',
          { status, details: serviceMessage ? [serviceMessage] : undefined, serviceMessage, attempts },
        ),
        retry: 'none',
      };
    }
    case 408:
      return {
        error: new DeliveryApiError('TIMEOUT', `The Delivery API timed out waiting for the request (HTTP 408). Try again.`, { status, attempts }),
        retry: 'transient',
      };
    case 429: {
      const wait = retryAfterMs !== undefined ? ` Try again in ${seconds(Math.max(retryAfterMs, 1000))}.` : ' Try again shortly.';
      const notCreated = creating ? ' The order was not created.' : '';
      return {
        error: new DeliveryApiError('RATE_LIMITED', `The Delivery API is limiting requests (HTTP 429).${notCreated}${wait}`, {
          status,
          retryAfterMs,
          attempts,
        }),
        retry: creating ? 'none' : 'transient',
        retryAfterMs,
      };
    }
  }

  if (status >= 500) {
    return {
      error: new DeliveryApiError('SERVER_ERROR', `The Delivery API had an internal error (HTTP ${status}). Try again shortly.`, {
        status,
        retryAfterMs,
        attempts,
      }),
      retry: 'transient',
      retryAfterMs,
    };
  }
  if (status >= 400) {
    const said = body ? `: ${body.messages.join('; ')}` : '';
    return {
      error: new DeliveryApiError('VALIDATION', `The Delivery API refused the request (HTTP ${status})${said}.${cancelNote}`, {
        status,
        details: body?.messages,
        serviceMessage: body?.single ? body.messages[0] : undefined,
        attempts,
      }),
      retry: 'none',
    };
  }
  return {
    error: new DeliveryApiError('MALFORMED_RESPONSE', `The Delivery API gave an unexpected answer to ${ctx.describe} (HTTP ${status}).`, {
      status,
      attempts,
    }),
    retry: 'none',
  };
}

/** No usable answer arrived. */
export function classifyTransportFailure(failure: TransportFailure, ctx: CallContext, attempt: AttemptFacts): ClassifiedFailure {
  const attempts = attempt.number;
  const creating = ctx.operation === 'create-order';
  switch (failure.kind) {
    case 'connect': {
      const notCreated = creating ? ' The order was not created (nothing was sent).' : '';
      if (failure.timedOut) {
        return {
          error: new DeliveryApiError(
            'TIMEOUT',
            `Could not connect to the Delivery API at ${ctx.host} within ${seconds(ctx.timeouts.connectMs)}. Check the network.${notCreated}`,
            { attempts, cause: failure.cause, facts: { address: ctx.address } },
          ),
          retry: creating ? 'none' : 'transient',
        };
      }
      const why = failure.permanent ? `its certificate is not trusted (${failure.code})` : `connection failed (${failure.code})`;
      return {
        error: new DeliveryApiError('NETWORK', `Cannot reach the Delivery API at ${ctx.host}: ${why}. Check the network.${notCreated}`, {
          attempts,
          cause: failure.cause,
          facts: { address: ctx.address },
        }),
        retry: creating || failure.permanent ? 'none' : 'transient',
      };
    }
    case 'timeout': {
      if (creating) {
        return { error: outcomeUnknown(ctx, 'the Delivery API did not answer in time', { attempts, cause: failure.cause }), retry: 'none' };
      }
      const limit = failure.stage === 'attempt' ? ctx.timeouts.attemptMs : ctx.timeouts.responseMs;
      const what = failure.stage === 'body' ? 'stopped sending its answer' : `did not answer within ${seconds(limit)}`;
      return {
        error: new DeliveryApiError('TIMEOUT', `The Delivery API ${what} (${ctx.describe}). Try again.`, { attempts, cause: failure.cause, facts: { address: ctx.address } }),
        retry: 'transient',
      };
    }
    case 'connection-lost': {
      if (creating) {
        return {
          error: outcomeUnknown(ctx, `the connection broke before the answer arrived (${failure.code})`, { attempts, cause: failure.cause }),
          retry: 'none',
        };
      }
      return {
        error: new DeliveryApiError('NETWORK', `The connection to the Delivery API at ${ctx.host} broke (${failure.code}). Check the network.`, {
          attempts,
          cause: failure.cause,
          facts: { address: ctx.address },
        }),
        retry: 'transient',
      };
    }
    case 'too-large': {
      if (creating) return { error: outcomeUnknown(ctx, 'its answer was too large to be an order', { attempts }), retry: 'none' };
      return {
        error: new DeliveryApiError(
          'MALFORMED_RESPONSE',
          `The Delivery API's answer to ${ctx.describe} was larger than ${Math.round(failure.limitBytes / 1024 / 1024)} MB; it is not a document the station expects.`,
          { attempts },
        ),
        retry: 'none',
      };
    }
  }
}
