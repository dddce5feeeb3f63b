import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../../src/sandbox/api/rate-limit';

describe('the token bucket rate limiter', () => {
  it('allows a burst, then refills at the set rate, per client', () => {
    const limiter = createRateLimiter(() => ({ requestsPerSecond: 2, burst: 3 }));
    const at = 1_000_000;
    expect([1, 2, 3, 4].map(() => limiter.take('a', at).allowed)).toEqual([true, true, true, false]);
    expect(limiter.take('a', at)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('b', at).allowed).toBe(true);
    expect(limiter.take('a', at + 499).allowed).toBe(false);
    expect(limiter.take('a', at + 1000).allowed).toBe(true);
  });

  it('asks for longer waits when the rate is slow, and is off at rate 0', () => {
    const slow = createRateLimiter(() => ({ requestsPerSecond: 0.2, burst: 1 }));
    expect(slow.take('a', 0).allowed).toBe(true);
    expect(slow.take('a', 0)).toEqual({ allowed: false, retryAfterSeconds: 5 });
    const off = createRateLimiter(() => ({ requestsPerSecond: 0, burst: 1 }));
    for (let i = 0; i < 1000; i++) expect(off.take('a', 0).allowed).toBe(true);
  });

  it('forgets every bucket on reset', () => {
    const limiter = createRateLimiter(() => ({ requestsPerSecond: 1, burst: 1 }));
    limiter.take('a', 0);
    expect(limiter.take('a', 0).allowed).toBe(false);
    limiter.reset();
    expect(limiter.take('a', 0).allowed).toBe(true);
  });
});
