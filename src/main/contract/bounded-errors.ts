/**
 * Error data leaves the station with a bounded size, whatever caused it: a request with a million
 * unknown keys once came back as a 12.9 MB error (zod names every key). A caller gets the first
 * details, each cut to a readable length, and a last line saying how many more there were.
 */
import type { StationErrorData } from '../../shared/errors';

export const errorLimits = {
  /** Details kept before "…and N more". */
  maxDetails: 20,
  /** Characters of one detail, or of the message, before it is cut. */
  maxDetailChars: 300,
  maxMessageChars: 1_000,
  /** The whole error as JSON, in UTF-8 bytes. */
  maxBytes: 16 * 1024,
} as const;

const cut = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;

const bytesOf = (error: StationErrorData) => Buffer.byteLength(JSON.stringify(error), 'utf8');

/** `omitted`: details the caller already left out (counted in the "more" line). */
export function boundErrorData(error: StationErrorData, omitted = 0, limits: typeof errorLimits = errorLimits): StationErrorData {
  const message = cut(error.message, limits.maxMessageChars);
  // Facts are few and each bounded by its schema; they are what the screen words, so they stay whole.
  const facts = error.facts === undefined ? {} : { facts: error.facts };
  if (error.details === undefined) return { code: error.code, message, ...facts };
  const all = error.details;
  let kept = Math.min(all.length, limits.maxDetails);
  const build = (count: number): StationErrorData => {
    const details = all.slice(0, count).map((detail) => cut(detail, limits.maxDetailChars));
    const more = all.length - count + omitted;
    if (more > 0) details.push(`…and ${more} more ${more === 1 ? 'problem' : 'problems'} not listed.`);
    return { code: error.code, message, details, ...facts };
  };
  let bounded = build(kept);
  // Cut details are at most a few hundred characters, but many multi-byte ones can still add up.
  while (kept > 0 && bytesOf(bounded) > limits.maxBytes) bounded = build(--kept);
  return bounded;
}
