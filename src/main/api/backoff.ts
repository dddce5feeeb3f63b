/**
 * Delay arithmetic for retries: exponential backoff with full jitter (a random delay between zero
 * and the exponential ceiling, so many stations retrying at once spread out instead of hitting the
 * service in waves) and the HTTP Retry-After header in both of its forms.
 */

/** Full-jitter delay before retry number `retryIndex` (0 for the first retry). */
export function fullJitterDelayMs(retryIndex: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, retryIndex));
  const draw = Math.min(Math.max(random(), 0), 1);
  return Math.floor(draw * ceiling);
}

const delaySeconds = /^\d+(?:\.\d+)?$/;
// An HTTP date always names a weekday or month in letters; bare numbers never count as dates here,
// because Date.parse would read "1" as the year 2001.
const looksLikeHttpDate = /[A-Za-z]{3}/;

/**
 * Milliseconds to wait according to a Retry-After header, or undefined when there is none or it
 * cannot be read. A date in the past means "now" (0). The result is not capped here: the caller
 * decides what an excessive wait means.
 */
export function parseRetryAfterMs(value: string | readonly string[] | undefined, nowMs: number): number | undefined {
  const raw = typeof value === 'string' ? value : value?.[0];
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  if (delaySeconds.test(text)) {
    const ms = Math.ceil(Number(text) * 1000);
    return Number.isFinite(ms) ? ms : undefined;
  }
  if (!looksLikeHttpDate.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
