/**
 * The clock and timers of the floor, injected so tests and benchmarks can run it on a clock of
 * their own; the system's by default (unref'd: the floor never keeps a process alive).
 */
export interface FloorTimers {
  now(): number;
  after(ms: number, run: () => void): () => void;
  every(ms: number, tick: () => void): () => void;
}

export const systemTimers: FloorTimers = {
  now: () => Date.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** A JSON notification payload read with its schema; null for anything else. */
export function parseJsonWith<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, text: string): T | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
