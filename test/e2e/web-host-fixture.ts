import { test as base } from '@playwright/test';
import { removeDataDir, startStationHost, type WebHostProcess } from './station-host';

export type { WebHostProcess } from './station-host';

/** A fresh station on the embedded sandbox, served by the built web host, for one test. */
export const test = base.extend<{ webHost: WebHostProcess }>({
  // Playwright fixtures must destructure their dependencies; this one has none.
  // eslint-disable-next-line no-empty-pattern
  webHost: async ({}, use) => {
    const host = await startStationHost();
    await use(host);
    await host.stop();
    removeDataDir(host.dataDir);
  },
});

export { expect } from '@playwright/test';
