import { describe, expect, it } from 'vitest';
import { DeliveryApiError } from '../../../src/main/api/delivery-api-error';
import { defaultLabelWaitPolicy, defaultRetryPolicy, type LabelWaitPolicy, type RetryPolicy } from '../../../src/main/api/retry-policy';
import { runWithRetries, type AttemptOutcome, type RetryEvent } from '../../../src/main/api/retry-runner';

/** A fake clock: sleeping advances it, attempts take `attemptMs` each. */
function harness(script: Array<AttemptOutcome<string>>, options: { attemptMs?: number; random?: number } = {}) {
  let clock = 0;
  const sleeps: number[] = [];
  const events: RetryEvent[] = [];
  const attempts: Array<{ number: number; remainingMs: number; earlierMayHaveReached: boolean }> = [];
  const deps = {
    now: () => clock,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      clock += ms;
    },
    random: () => options.random ?? 0.5,
    onRetry: (event: RetryEvent) => events.push(event),
  };
  const attempt = async (info: { number: number; remainingMs: number; earlierMayHaveReached: boolean }) => {
    attempts.push(info);
    clock += options.attemptMs ?? 10;
    const next = script[Math.min(info.number - 1, script.length - 1)];
    if (!next) throw new Error('script exhausted');
    return next;
  };
  const run = (policy: Partial<RetryPolicy> = {}, labelWait: Partial<LabelWaitPolicy> = {}) =>
    runWithRetries(attempt, { ...defaultRetryPolicy, ...policy }, { ...defaultLabelWaitPolicy, ...labelWait }, deps);
  return { run, sleeps, events, attempts, elapsed: () => clock };
}

const fail = (code: 'SERVER_ERROR' | 'RATE_LIMITED' | 'VALIDATION' | 'LABEL_NOT_READY', retry: 'transient' | 'none' | 'not-ready', retryAfterMs?: number): AttemptOutcome<string> => ({
  ok: false,
  error: new DeliveryApiError(code, code),
  retry,
  retryAfterMs,
  mayHaveReached: true,
});
const ok: AttemptOutcome<string> = { ok: true, value: 'label' };

describe('retry loop', () => {
  it('returns the first success after transient failures', async () => {
    const h = harness([fail('SERVER_ERROR', 'transient'), fail('SERVER_ERROR', 'transient'), ok]);
    await expect(h.run()).resolves.toBe('label');
    expect(h.attempts).toHaveLength(3);
    expect(h.events.map((e) => e.reason)).toEqual(['transient', 'transient']);
  });

  it('uses full jitter with a doubling ceiling between retries', async () => {
    const h = harness([fail('SERVER_ERROR', 'transient')], { random: 0.5 });
    await expect(h.run({ maxAttempts: 4, baseDelayMs: 200, maxDelayMs: 10_000 })).rejects.toMatchObject({ code: 'SERVER_ERROR' });
    expect(h.sleeps).toEqual([100, 200, 400]);
  });

  it('stops after maxAttempts and throws the last error', async () => {
    const h = harness([fail('SERVER_ERROR', 'transient')]);
    await expect(h.run({ maxAttempts: 3 })).rejects.toMatchObject({ code: 'SERVER_ERROR' });
    expect(h.attempts).toHaveLength(3);
  });

  it('never retries a failure marked none', async () => {
    const h = harness([fail('VALIDATION', 'none'), ok]);
    await expect(h.run()).rejects.toMatchObject({ code: 'VALIDATION' });
    expect(h.attempts).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
  });

  it('waits at least the Retry-After the service asked for', async () => {
    const h = harness([fail('RATE_LIMITED', 'transient', 3000), ok], { random: 0 });
    await h.run();
    expect(h.sleeps).toEqual([3000]);
  });

  it('gives up at once when Retry-After exceeds the cap', async () => {
    const h = harness([fail('RATE_LIMITED', 'transient', 60_000), ok]);
    await expect(h.run({ retryAfterCapMs: 10_000 })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(h.attempts).toHaveLength(1);
  });

  it('never starts a retry that would end past the total budget', async () => {
    const h = harness([fail('RATE_LIMITED', 'transient', 4000)], { attemptMs: 500 });
    await expect(h.run({ maxAttempts: 100, totalBudgetMs: 10_000, retryAfterCapMs: 5000 })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    // 500 ms attempt, 4 s wait, 500 ms, 4 s, 500 ms: a fourth would start at 13.5 s.
    expect(h.attempts).toHaveLength(3);
    expect(h.elapsed()).toBe(9500);
    expect(h.attempts[2]?.remainingMs).toBe(1000);
  });

  it('hands each attempt the time left in the budget', async () => {
    const h = harness([fail('SERVER_ERROR', 'transient'), ok], { attemptMs: 1000, random: 0 });
    await h.run({ totalBudgetMs: 5000 });
    expect(h.attempts.map((a) => a.remainingMs)).toEqual([5000, 4000]);
  });

  it('tells later attempts that an earlier one may have reached the service', async () => {
    const h = harness([fail('SERVER_ERROR', 'transient'), ok]);
    await h.run();
    expect(h.attempts.map((a) => a.earlierMayHaveReached)).toEqual([false, true]);
  });

  it('waits for a label that is not generated yet, then returns it', async () => {
    const h = harness([fail('LABEL_NOT_READY', 'not-ready'), fail('LABEL_NOT_READY', 'not-ready'), ok]);
    await expect(h.run({}, { delayMs: 400 })).resolves.toBe('label');
    expect(h.sleeps).toEqual([400, 400]);
  });

  it('gives up with LABEL_NOT_READY after the label wait allowance', async () => {
    const h = harness([fail('LABEL_NOT_READY', 'not-ready')]);
    await expect(h.run({}, { maxAttempts: 50, totalMs: 2000, delayMs: 500 })).rejects.toMatchObject({ code: 'LABEL_NOT_READY' });
    expect(h.elapsed()).toBeLessThanOrEqual(2000);
    expect(h.attempts.length).toBeLessThanOrEqual(5);
  });

  it('limits label waits by count too', async () => {
    const h = harness([fail('LABEL_NOT_READY', 'not-ready')]);
    await expect(h.run({}, { maxAttempts: 3, totalMs: 60_000, delayMs: 1 })).rejects.toMatchObject({ code: 'LABEL_NOT_READY' });
    expect(h.attempts).toHaveLength(3);
  });

  it("honours a not-ready Retry-After, but not beyond the label wait's end", async () => {
    const h = harness([fail('LABEL_NOT_READY', 'not-ready', 1500), fail('LABEL_NOT_READY', 'not-ready', 9000), ok]);
    await expect(h.run({}, { totalMs: 5000 })).rejects.toMatchObject({ code: 'LABEL_NOT_READY' });
    expect(h.sleeps).toEqual([1500]);
  });
});
