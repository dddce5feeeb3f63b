import { defineConfig } from '@playwright/test';
import { chromiumLaunch } from '../../playwright.config';

// `npm run screens`: the lead's and the IT admin's screens at 1024×768, in Dutch and English,
// written to docs/screens/ for the README and docs/screen.md. Not a test: run it to refresh them.
export default defineConfig({
  testDir: '.',
  outputDir: '../../test-results/screens-artifacts',
  reporter: [['list']],
  timeout: 120_000,
  workers: 1,
  use: { browserName: 'chromium', launchOptions: chromiumLaunch, viewport: { width: 1024, height: 768 } },
});
