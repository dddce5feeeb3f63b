/**
 * A counting semaphore: at most `limit` tasks hold a slot at once, the rest wait in arrival order.
 * The Delivery API client keeps one per environment so a bulk label run cannot flood the service
 * (or the bench's network) with more requests than the pool has connections.
 */
export interface Semaphore {
  /** Resolves with a release function once a slot is free; calling release more than once is harmless. */
  acquire(): Promise<() => void>;
  /** Runs the task inside a slot and frees the slot however the task ends. */
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly limit: number;
  readonly active: number;
  readonly waiting: number;
}

export function createSemaphore(limit: number): Semaphore {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`A concurrency limit must be a whole number of at least 1 (got ${String(limit)})`);
  }
  let active = 0;
  const queue: Array<(release: () => void) => void> = [];

  const makeRelease = (): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = queue.shift();
      // Handing the slot straight to the next waiter keeps `active` unchanged and the order fair.
      if (next) next(makeRelease());
      else active -= 1;
    };
  };

  const acquire = (): Promise<() => void> => {
    if (active < limit) {
      active += 1;
      return Promise.resolve(makeRelease());
    }
    return new Promise((resolve) => queue.push(resolve));
  };

  return {
    acquire,
    async run<T>(task: () => Promise<T>): Promise<T> {
      const release = await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
    limit,
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
