/**
 * Time as the print queue and runs see it, injected so tests can drive it without real waiting.
 * `now` is wall-clock milliseconds: it is compared with times kept in the journal and with the
 * printer's own time since power-on.
 */
export interface QueueClock {
  now(): number;
  /** Resolves after `ms`, or at once when the signal aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: QueueClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    }),
};
