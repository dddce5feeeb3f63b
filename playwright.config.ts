import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser. The flags keep it quiet on a machine
// without network and let it run as root in CI.
export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--disable-quic',
  ],
};

export default defineConfig({
  outputDir: 'test-results/artifacts',
  reporter: [['list']],
  timeout: 60_000,
  workers: 1,
  projects: [
    {
      name: 'e2e',
      testDir: 'test/e2e',
      use: { browserName: 'chromium', launchOptions: chromiumLaunch, viewport: { width: 1280, height: 800 } },
    },
    { name: 'electron', testDir: 'test/electron' },
  ],
});
