/**
 * The station's client for the Delivery Service API (spec: ../shared/spec/delivery-api.md).
 * One client per environment: it owns one keep-alive connection pool to that environment's base
 * URL and one concurrency limit. Every request is validated before it is sent, every answer is
 * parsed with the shared zod schemas, and every failure is a DeliveryApiError with a stable code.
 * The API key is read from the caller (the keychain) on every call and only ever placed in the
 * `api-key` header.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import {
  AddressCheckRequestSchema,
  AddressCheckResponseSchema,
  BundleLabelsSchema,
  CoverageSchema,
  CreateOrderRequestSchema,
  CreateOrderResponseSchema,
  LabelSchema,
  OrderRecordSchema,
  OrientationSchema,
  PickupPointSearchResponseSchema,
  PickupPointSearchSchema,
  PostalCodeCheckRequestSchema,
  PostalCodeCheckResponseSchema,
  type AddressCheckResponse,
  type Coverage,
  type CreateOrderResponse,
  type OrderRecord,
  type Orientation,
  type PickupPointSearchResponse,
  type PostalCodeCheckResponse,
} from '../../shared/api/schemas';
import { StationError } from '../../shared/errors';
import { parseRetryAfterMs } from './backoff';
import { DeliveryApiError } from './delivery-api-error';
import { classifyHttpFailure, classifyTransportFailure, type CallContext, type Operation, type Subject } from './error-mapping';
import { checkLabelDocument, checkPdfDocument, type LabelDocument, type PdfDocument } from './label-document';
import { createRecentCreations } from './recent-creations';
import { invalidRequest, validatePathId, validateRequest } from './request-validation';
import {
  defaultConcurrency,
  defaultMaxResponseBytes,
  resolveLabelWaitPolicy,
  resolveRetryPolicy,
  resolveTimeouts,
  type LabelWaitPolicy,
  type RetryPolicy,
  type Timeouts,
} from './retry-policy';
import { runWithRetries, type AttemptOutcome, type RetryEvent } from './retry-runner';
import { createSemaphore } from './semaphore';
import { createTransport, type Transport } from './transport';

export type LogFields = Record<string, unknown>;

/** Receives one line per call outcome and per retry; never the key, never a header. */
export interface DeliveryLogger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface DeliveryClientOptions {
  /** The environment's base URL, e.g. https://api.example.com or http://127.0.0.1:4100/test. */
  baseUrl: string;
  /** Reads the environment's key from the keychain; called once per API call. null means none is set. */
  getApiKey: () => Promise<string | null>;
  /** Name of the environment for log lines ("sandbox", "test", "live"). */
  environment?: string;
  /** Orientation sent on single-label requests that do not name one: the station's pinned setting. Default landscape. */
  orientation?: Orientation | (() => Orientation);
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  labelWait?: Partial<LabelWaitPolicy>;
  /** Requests in flight at once for this environment (and connections in the pool). Default 4. */
  concurrency?: number;
  maxResponseBytes?: number;
  logger?: DeliveryLogger;
  /** Injectable for tests: the clock for budgets and Retry-After dates, the wait between retries, the jitter source. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export type AddressCheckInput = z.input<typeof AddressCheckRequestSchema>;
export type PostalCodeCheckInput = z.input<typeof PostalCodeCheckRequestSchema>;
export type PickupPointSearchInput = z.input<typeof PickupPointSearchSchema>;
export type CreateOrderInput = z.input<typeof CreateOrderRequestSchema>;
export type LocationId = string | number;

export type LabelRequest =
  | { format: 'zpl'; orientation?: Orientation }
  | { format: 'pdf'; orientation?: Orientation; printSize?: string };

/** A checked single-order label: the bytes go to the printer (ZPL) or the PDF queue as they are. */
export type OrderLabel = LabelDocument & { orderId: string; orientation: Orientation; printSize?: string };

/** A checked bundle label document (always PDF: the service merges the bundle's labels). */
export type BundleLabel = PdfDocument & { bundleId: string };

export interface DeliveryClient {
  readonly baseUrl: string;
  checkAddress(locationId: LocationId, request: AddressCheckInput): Promise<AddressCheckResponse>;
  checkPostalCode(locationId: LocationId, request: PostalCodeCheckInput): Promise<PostalCodeCheckResponse>;
  coverage(locationId: LocationId): Promise<Coverage>;
  searchPickupPoints(query: PickupPointSearchInput): Promise<PickupPointSearchResponse>;
  /** Sent exactly once. An ambiguous failure is OUTCOME_UNKNOWN: check before creating again. */
  createOrder(request: CreateOrderInput): Promise<CreateOrderResponse>;
  getLabel(orderId: string, request: LabelRequest): Promise<OrderLabel>;
  getBundleLabels(bundleId: string): Promise<BundleLabel[]>;
  cancelOrder(orderId: string): Promise<OrderRecord>;
  /** Closes the connection pool; later calls fail. */
  close(): Promise<void>;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

interface CallSpec<T> {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  operation: Operation;
  subject: Subject;
  parse(json: unknown): Parsed<T>;
  /** Label calls: whether this error answer means "not generated yet". */
  notReady?(status: number, headers: IncomingHttpHeaders, nowMs: number): { retryAfterMs?: number } | undefined;
  notReadyMessage?: string;
}

const printSizePattern = /^[A-Za-z0-9_-]{1,32}$/;
const unsendableKey = /[^\x21-\x7e]/;

const schemaParser =
  <S extends z.ZodType>(schema: S, what: string) =>
  (json: unknown): Parsed<z.output<S>> => {
    const result = schema.safeParse(json);
    if (result.success) return { ok: true, value: result.data };
    const first = result.error.issues[0];
    const where = first && first.path.length > 0 ? ` at ${first.path.map(String).join('.')}` : '';
    return { ok: false, reason: `${what} does not have the expected shape (${first?.message ?? 'invalid'}${where})` };
  };

const segment = (value: string): string => encodeURIComponent(value);

export function createDeliveryClient(options: DeliveryClientOptions): DeliveryClient {
  let baseUrl: URL;
  try {
    baseUrl = new URL(options.baseUrl);
  } catch {
    throw new DeliveryApiError('NOT_CONFIGURED', `The Delivery API address "${options.baseUrl}" is not a valid URL.`);
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') {
    throw new DeliveryApiError('NOT_CONFIGURED', `The Delivery API address must start with https:// or http:// (got ${baseUrl.protocol}).`);
  }
  // The address as the lead set it up (no query, no trailing slash): what the screen names when nothing answers there.
  const address = `${baseUrl.origin}${baseUrl.pathname}`.replace(/\/+$/, '').slice(0, 300);

  const retryPolicy = resolveRetryPolicy(options.retry);
  const labelWait = resolveLabelWaitPolicy(options.labelWait);
  const timeouts = resolveTimeouts(options.timeouts);
  const concurrency = options.concurrency ?? defaultConcurrency;
  const semaphore = createSemaphore(concurrency);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const logger = options.logger;
  const environment = options.environment;
  const recent = createRecentCreations({ windowMs: labelWait.recentWindowMs, maxEntries: 2_000, now });
  const transport: Transport = createTransport({
    baseUrl,
    connections: concurrency,
    connectTimeoutMs: timeouts.connectMs,
    maxResponseBytes: options.maxResponseBytes ?? defaultMaxResponseBytes,
  });
  let closed = false;

  const pinnedOrientation = (): unknown =>
    typeof options.orientation === 'function' ? options.orientation() : (options.orientation ?? 'landscape');

  const loadKey = async (): Promise<string> => {
    let key: string | null;
    try {
      key = await options.getApiKey();
    } catch (error) {
      if (error instanceof StationError) throw error;
      throw new DeliveryApiError('KEYCHAIN_UNAVAILABLE', 'The API key could not be read from the keychain.', { cause: error });
    }
    const trimmed = key?.trim() ?? '';
    if (trimmed === '') {
      throw new DeliveryApiError('KEY_MISSING', 'No API key is set for this environment. Enter the key in Setup. Nothing was sent.');
    }
    if (unsendableKey.test(trimmed)) {
      throw new DeliveryApiError('KEY_REJECTED', 'The stored API key contains characters that cannot be sent; enter the key again in Setup. Nothing was sent.');
    }
    return trimmed;
  };

  const logFields = (fields: LogFields): LogFields => (environment ? { environment, ...fields } : fields);

  async function execute<T>(spec: CallSpec<T>): Promise<T> {
    if (closed) throw new DeliveryApiError('INTERNAL', 'The Delivery API client has been closed.');
    const apiKey = await loadKey();
    const describe = `${spec.method} ${spec.path}`;
    const queryText = spec.query && [...spec.query.keys()].length > 0 ? `?${spec.query.toString()}` : '';
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const headers: Record<string, string> = { accept: 'application/json', 'api-key': apiKey };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const startedAt = now();
    // Waiting for a free slot is the station's own queue, not the service's slowness: it is kept
    // out of the retry budget so the last of a long bulk run still gets its retries.
    let queuedMs = 0;
    const budgetClock = () => now() - queuedMs;

    const attemptOnce = async (info: { number: number; remainingMs: number; earlierMayHaveReached: boolean }): Promise<AttemptOutcome<T>> => {
      const effective = {
        connectMs: timeouts.connectMs,
        responseMs: Math.min(timeouts.responseMs, info.remainingMs),
        attemptMs: Math.min(timeouts.attemptMs, info.remainingMs),
      };
      const ctx: CallContext = { operation: spec.operation, subject: spec.subject, describe, host: baseUrl.host, address, apiKey, timeouts: effective };
      const queuedAt = now();
      const release = await semaphore.acquire();
      queuedMs += now() - queuedAt;
      let result: Awaited<ReturnType<Transport['send']>>;
      try {
        result = await transport.send({
          method: spec.method,
          path: spec.path + queryText,
          headers,
          body,
          responseTimeoutMs: effective.responseMs,
          bodyIdleTimeoutMs: timeouts.bodyIdleMs,
          attemptTimeoutMs: effective.attemptMs,
        });
      } finally {
        release();
      }
      const facts = { number: info.number, earlierMayHaveReached: info.earlierMayHaveReached, nowMs: now() };
      if (!result.ok) {
        const classified = classifyTransportFailure(result.failure, ctx, facts);
        return { ok: false, ...classified, mayHaveReached: result.failure.kind !== 'connect' };
      }
      if (result.status >= 200 && result.status < 300) {
        const parsed = parseJson(result.bodyText);
        const checked = parsed.ok ? spec.parse(parsed.value) : parsed;
        if (checked.ok) return { ok: true, value: checked.value };
        const error =
          spec.operation === 'create-order'
            ? new DeliveryApiError(
                'OUTCOME_UNKNOWN',
                `The order was probably created, but the Delivery API's answer could not be read (${checked.reason}). Check the order list before creating it again, or it may be created twice.`,
                { status: result.status, attempts: info.number },
              )
            : new DeliveryApiError('MALFORMED_RESPONSE', `The Delivery API's answer to ${describe} could not be used: ${checked.reason}.`, {
                status: result.status,
                attempts: info.number,
              });
        return { ok: false, error, retry: 'none', mayHaveReached: true };
      }
      const notReady = spec.notReady?.(result.status, result.headers, facts.nowMs);
      if (notReady) {
        const error = new DeliveryApiError('LABEL_NOT_READY', spec.notReadyMessage ?? 'The label is not generated yet. Try again in a few seconds.', {
          status: result.status,
          retryAfterMs: notReady.retryAfterMs,
          attempts: info.number,
        });
        return { ok: false, error, retry: 'not-ready', retryAfterMs: notReady.retryAfterMs, mayHaveReached: true };
      }
      const classified = classifyHttpFailure(result.status, result.headers, result.bodyText, ctx, facts);
      return { ok: false, ...classified, mayHaveReached: true };
    };

    const onRetry = (event: RetryEvent) =>
      logger?.warn(
        'Delivery API call will be retried',
        logFields({ call: describe, attempt: event.attempt, reason: event.reason, code: event.error.code, status: event.error.status, delayMs: event.delayMs }),
      );

    try {
      const value = await runWithRetries(attemptOnce, retryPolicy, labelWait, { now: budgetClock, sleep, random, onRetry });
      logger?.info('Delivery API call succeeded', logFields({ call: describe, durationMs: now() - startedAt }));
      return value;
    } catch (error) {
      if (error instanceof DeliveryApiError) {
        const log = error.code === 'OUTCOME_UNKNOWN' ? logger?.error : logger?.warn;
        log?.call(logger, 'Delivery API call failed', logFields({ call: describe, code: error.code, status: error.status, attempts: error.attempts, durationMs: now() - startedAt }));
      }
      throw error;
    }
  }

  const labelNotReady =
    (id: string) =>
    (status: number, headers: IncomingHttpHeaders, nowMs: number): { retryAfterMs?: number } | undefined => {
      const retryAfterMs = parseRetryAfterMs(headers['retry-after'], nowMs);
      if (status === 409 || status === 425) return { retryAfterMs };
      if (status === 503 && retryAfterMs !== undefined) return { retryAfterMs };
      // A plain 404 means "no such order"; with Retry-After, or for an order this client just
      // created, it means the label is still being generated.
      if (status === 404 && (retryAfterMs !== undefined || recent.isRecent(id))) return { retryAfterMs };
      return undefined;
    };

  return {
    baseUrl: baseUrl.toString(),

    checkAddress(locationId, request) {
      return Promise.resolve().then(() => {
        const id = validatePathId(locationId, 'locationId');
        return execute({
          method: 'POST',
          path: `/orders/check/${segment(id)}`,
          body: validateRequest(AddressCheckRequestSchema, request, 'address check'),
          operation: 'read',
          subject: { kind: 'location', id },
          parse: schemaParser(AddressCheckResponseSchema, 'the address check result'),
        });
      });
    },

    checkPostalCode(locationId, request) {
      return Promise.resolve().then(() => {
        const id = validatePathId(locationId, 'locationId');
        return execute({
          method: 'POST',
          path: `/orders/check/postal-code/${segment(id)}`,
          body: validateRequest(PostalCodeCheckRequestSchema, request, 'postal code check'),
          operation: 'read',
          subject: { kind: 'location', id },
          parse: schemaParser(PostalCodeCheckResponseSchema, 'the postal code check result'),
        });
      });
    },

    coverage(locationId) {
      return Promise.resolve().then(() => {
        const id = validatePathId(locationId, 'locationId');
        return execute({
          method: 'GET',
          path: `/coverage/postal-codes/${segment(id)}`,
          operation: 'read',
          subject: { kind: 'location', id },
          parse: schemaParser(CoverageSchema, 'the coverage list'),
        });
      });
    },

    searchPickupPoints(query) {
      return Promise.resolve().then(() => {
        const search = validateRequest(PickupPointSearchSchema, query, 'pickup point search');
        const params = new URLSearchParams();
        for (const [name, value] of Object.entries(search)) {
          if (value === undefined) continue;
          if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
          else params.append(name, String(value));
        }
        return execute({
          method: 'GET',
          path: '/pickup-points',
          query: params,
          operation: 'read',
          subject: { kind: 'pickup-points' },
          parse: schemaParser(PickupPointSearchResponseSchema, 'the pickup point list'),
        });
      });
    },

    createOrder(request) {
      return Promise.resolve().then(async () => {
        const order = validateRequest(CreateOrderRequestSchema, request, 'order');
        const created = await execute({
          method: 'POST',
          path: '/orders',
          body: order,
          operation: 'create-order',
          subject: { kind: 'new-order', orderRef: order.orderRef },
          parse: schemaParser(CreateOrderResponseSchema, 'the created order'),
        });
        recent.remember(`order:${created.orderId}`);
        recent.remember(`bundle:${created.orderBundle.bundleId}`);
        return created;
      });
    },

    getLabel(orderId, request) {
      return Promise.resolve().then(() => {
        const id = validatePathId(orderId, 'orderId');
        const format = request.format;
        if (format !== 'zpl' && format !== 'pdf') throw invalidRequest('label request', ['format should be "zpl" or "pdf"']);
        const requested = request.orientation ?? pinnedOrientation();
        const orientation = OrientationSchema.safeParse(requested);
        if (!orientation.success) throw invalidRequest('label request', ['orientation should be "landscape" or "portrait"']);
        const printSize = 'printSize' in request ? request.printSize : undefined;
        if (printSize !== undefined) {
          if (format === 'zpl') throw invalidRequest('label request', ['printSize applies to PDF labels only; ZPL is always A6']);
          if (!printSizePattern.test(printSize)) throw invalidRequest('label request', ['printSize should be a short name such as A6']);
        }
        const query = new URLSearchParams({ format, orientation: orientation.data });
        if (printSize !== undefined) query.set('printSize', printSize);
        const parseLabel = schemaParser(LabelSchema, 'the label');
        return execute<OrderLabel>({
          method: 'GET',
          path: `/orders/label/${segment(id)}`,
          query,
          operation: 'read',
          subject: { kind: 'order', id },
          parse: (json) => {
            const label = parseLabel(json);
            if (!label.ok) return label;
            const document = checkLabelDocument(label.value.label, format);
            if (!document.ok) return { ok: false, reason: `the ${format.toUpperCase()} label of order ${id} is damaged: ${document.reason}` };
            const value: OrderLabel = { ...document.document, orderId: id, orientation: orientation.data };
            if (printSize !== undefined) value.printSize = printSize;
            return { ok: true, value };
          },
          notReady: labelNotReady(`order:${id}`),
          notReadyMessage: `The label of order ${id} is not generated yet. Try again in a few seconds.`,
        });
      });
    },

    getBundleLabels(bundleId) {
      return Promise.resolve().then(() => {
        const id = validatePathId(bundleId, 'bundleId');
        const parseList = schemaParser(BundleLabelsSchema, 'the bundle labels');
        return execute<BundleLabel[]>({
          method: 'GET',
          path: `/orders/label/bundle/${segment(id)}`,
          query: new URLSearchParams({ format: 'pdf' }),
          operation: 'read',
          subject: { kind: 'bundle', id },
          parse: (json) => {
            const list = parseList(json);
            if (!list.ok) return list;
            if (list.value.length === 0) return { ok: false, reason: `the list of labels of bundle ${id} is empty` };
            const documents: BundleLabel[] = [];
            for (const [index, item] of list.value.entries()) {
              const document = checkPdfDocument(item.label);
              if (!document.ok) return { ok: false, reason: `label ${index + 1} of bundle ${id} is damaged: ${document.reason}` };
              documents.push({ ...document.document, bundleId: id });
            }
            return { ok: true, value: documents };
          },
          notReady: labelNotReady(`bundle:${id}`),
          notReadyMessage: `The labels of bundle ${id} are not generated yet. Try again in a few seconds.`,
        });
      });
    },

    cancelOrder(orderId) {
      return Promise.resolve().then(() => {
        const id = validatePathId(orderId, 'orderId');
        return execute({
          method: 'PATCH',
          path: `/orders/cancel/${segment(id)}`,
          operation: 'cancel-order',
          subject: { kind: 'order', id },
          parse: schemaParser(OrderRecordSchema, 'the cancelled order'),
        });
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      await transport.close();
    },
  };
}

function parseJson(text: string): Parsed<unknown> {
  if (text.trim() === '') return { ok: false, reason: 'the answer is empty' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'the answer is not JSON' };
  }
}
