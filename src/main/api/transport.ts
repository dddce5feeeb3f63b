/**
 * One HTTP exchange with the Delivery API over an undici keep-alive pool, reduced to a plain result:
 * the status, headers and body text, or a classified failure that says whether the request could have
 * reached the service. That last fact decides whether POST /orders may be reported as "not created".
 */
import type { Dispatcher } from 'undici';
// The pool alone: undici's package entry also loads its mock agents, caches, fetch, WebSocket and
// HTTP/2 client, about 0.1 s of CPU at every start of the station for nothing it uses.
import Pool from 'undici/lib/dispatcher/pool.js';
import type { IncomingHttpHeaders } from 'node:http';

export interface TransportOptions {
  baseUrl: URL;
  /** Connections kept to the service; the client's concurrency limit, so none ever waits inside undici. */
  connections: number;
  connectTimeoutMs: number;
  maxResponseBytes: number;
}

export interface TransportRequest {
  method: 'GET' | 'POST' | 'PATCH';
  /** Path below the base URL, starting with '/', query included. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  responseTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  /** The whole attempt, headers and body together. */
  attemptTimeoutMs: number;
}

export type TransportFailure =
  /** Nothing was sent: the connection was never established. */
  | { kind: 'connect'; code: string; timedOut: boolean; permanent: boolean; cause: unknown }
  /** The request went out (or may have) and no complete answer came back in time. */
  | { kind: 'timeout'; stage: 'response' | 'body' | 'attempt'; cause: unknown }
  /** The connection broke after the request may have been sent. */
  | { kind: 'connection-lost'; code: string; cause: unknown }
  /** The answer was larger than any Delivery API document can be. */
  | { kind: 'too-large'; limitBytes: number };

export type TransportResult =
  | { ok: true; status: number; headers: IncomingHttpHeaders; bodyText: string }
  | { ok: false; failure: TransportFailure };

export interface Transport {
  send(request: TransportRequest): Promise<TransportResult>;
  close(): Promise<void>;
}

// Failures that happen while connecting, before a single byte of the request is written.
const connectPhaseCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
// TLS trust problems do not heal by retrying.
const isTlsTrustCode = (code: string): boolean =>
  code.startsWith('ERR_TLS_') || code.startsWith('CERT_') || code.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN';

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'UNKNOWN';
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Happy-eyeballs connects report an AggregateError of the per-address failures.
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner) && inner.length > 0) return errorCode(inner[0]);
  return 'UNKNOWN';
}

/** `timedOutStage` names the client's own timer that aborted the exchange, if one did. */
export function classifyTransportError(error: unknown, timedOutStage?: 'attempt' | 'response' | 'body'): TransportFailure {
  if (timedOutStage) return { kind: 'timeout', stage: timedOutStage, cause: error };
  const code = errorCode(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return { kind: 'timeout', stage: 'response', cause: error };
  if (code === 'UND_ERR_BODY_TIMEOUT') return { kind: 'timeout', stage: 'body', cause: error };
  if (connectPhaseCodes.has(code)) {
    return { kind: 'connect', code, timedOut: code === 'UND_ERR_CONNECT_TIMEOUT', permanent: false, cause: error };
  }
  if (isTlsTrustCode(code)) return { kind: 'connect', code, timedOut: false, permanent: true, cause: error };
  return { kind: 'connection-lost', code, cause: error };
}

export function createTransport(options: TransportOptions): Transport {
  const basePath = options.baseUrl.pathname.replace(/\/+$/, '');
  const pool = new Pool(options.baseUrl.origin, {
    connections: options.connections,
    pipelining: 1,
    connect: { timeout: options.connectTimeoutMs },
  });

  // undici's own header and body timeouts run on a coarse timer (about a second of slack), so the
  // precise limits are enforced here with native timers; undici's stay as a backstop.
  const backstopMs = 1_000;
  const utf8 = new TextDecoder('utf-8');

  // The answer is gathered straight from the pool's callbacks, not through a body stream: after
  // the service's last byte, a label goes on to the printer without the stream's extra turns.
  const send = (request: TransportRequest): Promise<TransportResult> =>
    new Promise((resolve) => {
      let done = false;
      let controller: Dispatcher.DispatchController | null = null;
      let abortBeforeStart: Error | null = null;
      // Which limit ended the request; the abort's reason is made only then (an error per stage on
      // every request would cost the label's GET its stack traces).
      let abortedBy: 'attempt' | 'response' | 'body' | undefined;
      const stop = (reason: Error) => {
        if (controller) controller.abort(reason);
        else abortBeforeStart = reason;
      };
      const abortWith = (stage: 'attempt' | 'response' | 'body') => () => {
        abortedBy ??= stage;
        stop(new Error(`${stage} time limit reached`));
      };
      const attemptTimer = setTimeout(abortWith('attempt'), request.attemptTimeoutMs);
      let stageTimer = setTimeout(abortWith('response'), request.responseTimeoutMs);
      const finish = (result: TransportResult) => {
        if (done) return;
        done = true;
        clearTimeout(attemptTimer);
        clearTimeout(stageTimer);
        resolve(result);
      };
      let status = 0;
      let headers: IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      let received = 0;
      try {
        pool.dispatch(
          {
            method: request.method,
            path: basePath + request.path,
            headers: request.headers,
            body: request.body ?? null,
            headersTimeout: request.responseTimeoutMs + backstopMs,
            bodyTimeout: request.bodyIdleTimeoutMs + backstopMs,
          },
          {
            onRequestStart(started) {
              controller = started;
              if (abortBeforeStart) started.abort(abortBeforeStart);
            },
            onResponseStart(_controller, statusCode, responseHeaders) {
              // A 1xx answer is followed by the real one.
              if (statusCode < 200) return;
              status = statusCode;
              headers = responseHeaders as IncomingHttpHeaders;
              clearTimeout(stageTimer);
              stageTimer = setTimeout(abortWith('body'), request.bodyIdleTimeoutMs);
            },
            onResponseData(dataController, chunk) {
              stageTimer.refresh();
              received += chunk.length;
              if (received > options.maxResponseBytes) {
                finish({ ok: false, failure: { kind: 'too-large', limitBytes: options.maxResponseBytes } });
                dataController.abort(new Error('answer too large'));
                return;
              }
              chunks.push(chunk);
            },
            onResponseEnd() {
              finish({ ok: true, status, headers, bodyText: utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) });
            },
            onResponseError(_controller, error) {
              finish({ ok: false, failure: classifyTransportError(error, abortedBy) });
            },
          },
        );
      } catch (error) {
        finish({ ok: false, failure: classifyTransportError(error, abortedBy) });
      }
    });

  return {
    send,
    close: () => pool.close(),
  };
}
