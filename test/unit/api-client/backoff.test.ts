import { describe, expect, it } from 'vitest';
import { fullJitterDelayMs, parseRetryAfterMs } from '../../../src/main/api/backoff';

describe('full-jitter backoff', () => {
  it('draws between zero and a ceiling that doubles per retry', () => {
    expect(fullJitterDelayMs(0, 250, 4000, () => 0.999999)).toBe(249);
    expect(fullJitterDelayMs(1, 250, 4000, () => 0.999999)).toBe(499);
    expect(fullJitterDelayMs(2, 250, 4000, () => 0.5)).toBe(500);
    expect(fullJitterDelayMs(3, 250, 4000, () => 0)).toBe(0);
  });

  it('never exceeds the maximum delay however many retries', () => {
    expect(fullJitterDelayMs(10, 250, 4000, () => 0.999999)).toBe(3999);
    expect(fullJitterDelayMs(60, 250, 4000, () => 0.999999)).toBe(3999);
  });

  it('spreads delays over the whole range with a real random source', () => {
    const draws = Array.from({ length: 2000 }, () => fullJitterDelayMs(2, 250, 4000, Math.random));
    expect(Math.min(...draws)).toBeLessThan(100);
    expect(Math.max(...draws)).toBeGreaterThan(900);
    expect(Math.max(...draws)).toBeLessThan(1000);
  });

  it('clamps a random source that strays outside [0, 1]', () => {
    expect(fullJitterDelayMs(0, 1000, 1000, () => 7)).toBe(1000);
    expect(fullJitterDelayMs(0, 1000, 1000, () => -1)).toBe(0);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2025-03-01T12:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfterMs('3', now)).toBe(3000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
    expect(parseRetryAfterMs('120', now)).toBe(120_000);
  });

  it('tolerates fractional seconds', () => {
    expect(parseRetryAfterMs('1.5', now)).toBe(1500);
  });

  it('reads an HTTP date relative to the clock', () => {
    expect(parseRetryAfterMs('Sat, 01 Mar 2025 12:00:05 GMT', now)).toBe(5000);
  });

  it('treats a date in the past as no wait', () => {
    expect(parseRetryAfterMs('Sat, 01 Mar 2025 11:59:00 GMT', now)).toBe(0);
  });

  it('takes the first value of a repeated header', () => {
    expect(parseRetryAfterMs(['2', '9'], now)).toBe(2000);
  });

  it('ignores what it cannot read', () => {
    for (const value of [undefined, '', '   ', '-1', 'soon', '1e3', '3 seconds', 'Blursday']) {
      expect(parseRetryAfterMs(value, now), String(value)).toBeUndefined();
    }
  });
});
