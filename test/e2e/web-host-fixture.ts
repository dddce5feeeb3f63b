import { test as base } from '@playwright/test';
import { removeDataDir, startStationHost, type WebHostProcess } from './station-host';

export type { WebHostProcess } from './station-host';

/**
 * A fresh station on the embedded sandbox, served by the built web host, for one test. A used
 * station closes (and its data folder goes) while the next test starts: closing is mostly waiting
 * for its connections and files, and nothing of it reaches the next test's own station. The
 * worker waits for every one of them to be gone before it ends.
 */
export const test = base.extend<{ webHost: WebHostProcess }, { closingHosts: Promise<void>[] }>({
  closingHosts: [
    // Playwright fixtures must destructure their dependencies; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const closing: Promise<void>[] = [];
      await use(closing);
      await Promise.all(closing);
    },
    { scope: 'worker' },
  ],
  webHost: async ({ closingHosts }, use) => {
    const host = await startStationHost();
    await use(host);
    closingHosts.push(host.stop().then(() => removeDataDir(host.dataDir)));
  },
});

export { expect } from '@playwright/test';
