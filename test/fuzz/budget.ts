/**
 * How much each property runs. In `npm test` every property runs a fixed number of times from a
 * fixed seed, so the stage takes the same inputs and about the same time on every run (well under
 * a minute on a 2-core machine); `npm run fuzz:long` raises the runs (FUZZ_SCALE, 20 by default)
 * and draws a new seed each time, printed with any failure so it can be replayed with FUZZ_SEED.
 */
import type fc from 'fast-check';

// Read through globalThis: the screen's properties are type-checked without Node's types.
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const scale = Number(env.FUZZ_SCALE ?? '1');
const seedText = env.FUZZ_SEED;
/** The fixed seed of the stage in `npm test`; any other run (fuzz:long) gets a fresh one unless FUZZ_SEED names it. */
const ciSeed = 20_260_301;
const seed = seedText !== undefined ? Number(seedText) : scale === 1 ? ciSeed : Date.now() % 2_147_483_647;

/**
 * The bound on one call with a small input (a scan, a reply, a frame, a few KiB): calls take
 * microseconds, but the machine running the tests is shared and a garbage collection can take tens
 * of milliseconds; a path that backtracks or loops super-linearly takes seconds on the same input.
 */
export const quickMs = 250;

/** The parameters of one property: `runs` inputs in `npm test`, times FUZZ_SCALE in a long run. */
export function fuzz(runs: number): fc.Parameters<unknown> {
  return { numRuns: Math.max(1, Math.round(runs * scale)), seed, endOnFailure: true };
}

/**
 * Milliseconds one call took: its fastest of up to three tries when the first is over `bound`. A path that is slow for its input is slow every time; a pause of a shared machine (another
 * process, a garbage collection) is not. Only for calls that change nothing.
 */
export function timed<T>(work: () => T, bound = quickMs): { value: T; ms: number } {
  let fastest = Number.POSITIVE_INFINITY;
  let value: T;
  let attempt = 0;
  do {
    const started = performance.now();
    value = work();
    fastest = Math.min(fastest, performance.now() - started);
    attempt += 1;
  } while (fastest >= bound && attempt < 3);
  return { value, ms: fastest };
}

/** Milliseconds one asynchronous call took. */
export async function timedAsync<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}
