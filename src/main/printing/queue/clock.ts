/**
 * Time as the print queue and runs see it, injected so tests can drive it without real waiting.
 * `now` is wall-clock milliseconds: it is compared with times kept in the journal and with the
 * printer's own time since power-on.
 */
export interface QueueClock {
  now(): number;
  /** Resolves after `ms` (Infinity: only when the signal aborts), or at once when the signal aborts; never rejects. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: QueueClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = (): void => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      // An endless wait holds no timer: it must not keep the process alive on its own.
      const timer = Number.isFinite(ms) ? setTimeout(done, ms) : null;
      signal?.addEventListener('abort', done, { once: true });
    }),
};
