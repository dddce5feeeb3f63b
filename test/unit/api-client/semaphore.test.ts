import { describe, expect, it } from 'vitest';
import { createSemaphore } from '../../../src/main/api/semaphore';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('semaphore', () => {
  it('lets at most `limit` tasks run at once', async () => {
    const semaphore = createSemaphore(3);
    let running = 0;
    let peak = 0;
    const task = async () => {
      running += 1;
      peak = Math.max(peak, running);
      await tick();
      await tick();
      running -= 1;
    };
    await Promise.all(Array.from({ length: 20 }, () => semaphore.run(task)));
    expect(peak).toBe(3);
    expect(semaphore.active).toBe(0);
    expect(semaphore.waiting).toBe(0);
  });

  it('serves waiters in arrival order', async () => {
    const semaphore = createSemaphore(1);
    const first = await semaphore.acquire();
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) => semaphore.acquire().then((release) => (order.push(n), release())));
    expect(semaphore.waiting).toBe(3);
    first();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
  });

  it('frees the slot when a task fails', async () => {
    const semaphore = createSemaphore(1);
    await expect(semaphore.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(semaphore.active).toBe(0);
    await expect(semaphore.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });

  it('ignores a second release of the same slot', async () => {
    const semaphore = createSemaphore(2);
    const release = await semaphore.acquire();
    await semaphore.acquire();
    release();
    release();
    expect(semaphore.active).toBe(1);
  });

  it('refuses a limit that is not a positive whole number', () => {
    for (const limit of [0, -1, 1.5, Number.NaN]) expect(() => createSemaphore(limit)).toThrow(RangeError);
  });
});
