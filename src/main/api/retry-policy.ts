/**
 * The numbers that bound every Delivery API call (documented in docs/api-client.md). Each client
 * takes partial overrides; these defaults suit a packing bench where a person waits for the label.
 */

export interface RetryPolicy {
  /** Attempts in total for a request that is safe to repeat, the first one included. */
  maxAttempts: number;
  /** Ceiling of the first retry's jittered delay; it doubles per retry up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry starts, and no attempt runs on, past this much time after the first attempt began. */
  totalBudgetMs: number;
  /** A Retry-After longer than this ends the retries at once (RATE_LIMITED / SERVER_ERROR carries the wait). */
  retryAfterCapMs: number;
}

export interface LabelWaitPolicy {
  /** Attempts in total while a label reports "not generated yet". */
  maxAttempts: number;
  /** Time after the first attempt began beyond which the wait gives up with LABEL_NOT_READY. */
  totalMs: number;
  /** Pause between tries when the service gives no Retry-After. */
  delayMs: number;
  /** How long after creating an order a 404 on its label means "not generated yet" rather than "no such order". */
  recentWindowMs: number;
}

export interface Timeouts {
  /** Establishing the TCP (and TLS) connection. */
  connectMs: number;
  /** From the start of an attempt to the response headers arriving. */
  responseMs: number;
  /** Longest silence while the response body streams in. */
  bodyIdleMs: number;
  /** One attempt from start to the last byte of the body, whatever happens in between. */
  attemptMs: number;
}

export const defaultRetryPolicy: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  totalBudgetMs: 20_000,
  retryAfterCapMs: 10_000,
});

export const defaultLabelWaitPolicy: Readonly<LabelWaitPolicy> = Object.freeze({
  maxAttempts: 6,
  totalMs: 5_000,
  delayMs: 500,
  recentWindowMs: 10 * 60_000,
});

export const defaultTimeouts: Readonly<Timeouts> = Object.freeze({
  connectMs: 3_000,
  responseMs: 10_000,
  bodyIdleMs: 10_000,
  attemptMs: 20_000,
});

export const defaultConcurrency = 4;

/** Bundle PDFs of a long shift can be large; anything beyond this is not a label. */
export const defaultMaxResponseBytes = 64 * 1024 * 1024;

const positive = (value: number, name: string, { integer = false, allowZero = false } = {}): number => {
  const ok = Number.isFinite(value) && (allowZero ? value >= 0 : value > 0) && (!integer || Number.isInteger(value));
  if (!ok) throw new RangeError(`${name} must be a ${integer ? 'whole ' : ''}number ${allowZero ? '>= 0' : '> 0'} (got ${String(value)})`);
  return value;
};

export function resolveRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...defaultRetryPolicy, ...overrides };
  positive(policy.maxAttempts, 'retry.maxAttempts', { integer: true });
  positive(policy.baseDelayMs, 'retry.baseDelayMs', { allowZero: true });
  positive(policy.maxDelayMs, 'retry.maxDelayMs', { allowZero: true });
  positive(policy.totalBudgetMs, 'retry.totalBudgetMs');
  positive(policy.retryAfterCapMs, 'retry.retryAfterCapMs', { allowZero: true });
  return policy;
}

export function resolveLabelWaitPolicy(overrides: Partial<LabelWaitPolicy> = {}): LabelWaitPolicy {
  const policy = { ...defaultLabelWaitPolicy, ...overrides };
  positive(policy.maxAttempts, 'labelWait.maxAttempts', { integer: true });
  positive(policy.totalMs, 'labelWait.totalMs', { allowZero: true });
  positive(policy.delayMs, 'labelWait.delayMs', { allowZero: true });
  positive(policy.recentWindowMs, 'labelWait.recentWindowMs', { allowZero: true });
  return policy;
}

export function resolveTimeouts(overrides: Partial<Timeouts> = {}): Timeouts {
  const timeouts = { ...defaultTimeouts, ...overrides };
  for (const [name, value] of Object.entries(timeouts)) positive(value, `timeouts.${name}`);
  return timeouts;
}
