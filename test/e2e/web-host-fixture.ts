import { test as base } from '@playwright/test';
import { removeDataDir, startStationInProcess, type WebHostProcess } from './station-host';

export type { WebHostProcess } from './station-host';

/**
 * A fresh station on the embedded sandbox, served by the web host on the built screen, for one
 * test, in the worker's own process (station-host.ts says why). A used
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
    const host = await startStationInProcess();
    await use(host);
    closingHosts.push(host.stop().then(() => removeDataDir(host.dataDir)));
  },
});

export { expect } from '@playwright/test';
