/** A token bucket per client (API key, or address for public pages). */
import type { RateLimitSettings } from '../settings';

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole seconds until a request would be allowed (for Retry-After). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  take(client: string, now: number): RateLimitDecision;
  reset(): void;
}

export function createRateLimiter(settings: () => RateLimitSettings): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(client, now) {
      const { requestsPerSecond, burst } = settings();
      if (requestsPerSecond <= 0) return { allowed: true, retryAfterSeconds: 0 };
      const bucket = buckets.get(client) ?? { tokens: burst, at: now };
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * requestsPerSecond);
      bucket.at = now;
      buckets.set(client, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true, retryAfterSeconds: 0 };
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / requestsPerSecond)) };
    },
    reset: () => buckets.clear(),
  };
}
