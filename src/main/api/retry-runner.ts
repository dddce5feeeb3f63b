/**
 * The retry loop shared by every endpoint. Each attempt reports success or a classified failure;
 * the loop decides whether to wait and try again, bounded by attempt counts and by elapsed time,
 * with separate allowances for transient trouble (429, 5xx, resets, timeouts) and for labels that
 * are not generated yet.
 */
import { fullJitterDelayMs } from './backoff';
import type { DeliveryApiError } from './delivery-api-error';
import type { LabelWaitPolicy, RetryPolicy } from './retry-policy';

export type RetryKind = 'transient' | 'not-ready' | 'none';

export type AttemptOutcome<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      error: DeliveryApiError;
      retry: RetryKind;
      retryAfterMs?: number;
      /** Whether this attempt's request may have reached the service (it got an answer, or the connection broke after sending). */
      mayHaveReached: boolean;
    };

export interface AttemptInfo {
  /** 1 for the first attempt. */
  number: number;
  /** Time left in the call's budget; the attempt's own timeout is clipped to it. */
  remainingMs: number;
  earlierMayHaveReached: boolean;
}

export interface RetryEvent {
  attempt: number;
  delayMs: number;
  reason: Exclude<RetryKind, 'none'>;
  error: DeliveryApiError;
}

export interface RetryRunnerDeps {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  onRetry?: (event: RetryEvent) => void;
}

export async function runWithRetries<T>(
  attempt: (info: AttemptInfo) => Promise<AttemptOutcome<T>>,
  policy: RetryPolicy,
  labelWait: LabelWaitPolicy,
  deps: RetryRunnerDeps,
): Promise<T> {
  const startedAt = deps.now();
  let transientFailures = 0;
  let notReadyAnswers = 0;
  let earlierMayHaveReached = false;

  for (let number = 1; ; number += 1) {
    const elapsedBefore = deps.now() - startedAt;
    const outcome = await attempt({ number, remainingMs: Math.max(1, policy.totalBudgetMs - elapsedBefore), earlierMayHaveReached });
    if (outcome.ok) return outcome.value;
    earlierMayHaveReached ||= outcome.mayHaveReached;
    if (outcome.retry === 'none') throw outcome.error;

    const elapsed = deps.now() - startedAt;
    let delayMs: number;
    if (outcome.retry === 'transient') {
      transientFailures += 1;
      if (transientFailures >= policy.maxAttempts) throw outcome.error;
      if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > policy.retryAfterCapMs) throw outcome.error;
      const jittered = fullJitterDelayMs(transientFailures - 1, policy.baseDelayMs, policy.maxDelayMs, deps.random);
      delayMs = Math.max(outcome.retryAfterMs ?? 0, jittered);
      if (elapsed + delayMs >= policy.totalBudgetMs) throw outcome.error;
    } else {
      notReadyAnswers += 1;
      if (notReadyAnswers >= labelWait.maxAttempts) throw outcome.error;
      delayMs = outcome.retryAfterMs ?? labelWait.delayMs;
      if (elapsed + delayMs > labelWait.totalMs || elapsed + delayMs >= policy.totalBudgetMs) throw outcome.error;
    }
    deps.onRetry?.({ attempt: number, delayMs, reason: outcome.retry, error: outcome.error });
    await deps.sleep(delayMs);
  }
}
