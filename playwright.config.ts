import { defineConfig } from '@playwright/test';

/**
 * The features Playwright switches off in Chromium (playwright-core's chromiumSwitches.ts, 1.65).
 * Chromium keeps only the last --disable-features it is given, so ours must repeat them;
 * test/unit/e2e-browser/launch-options.test.ts fails when Playwright's list changes.
 */
export const playwrightDisabledFeatures = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/**
 * Every new window of headless Chromium builds its address bar's suggestion popups as web pages
 * (chrome://omnibox-popup.top-chrome/) in a renderer of their own: about 1.5 s of CPU for each
 * test's browser context, for an address bar nobody types in.
 */
const unusedBrowserFeatures = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'] as const;

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
    `--disable-features=${[...playwrightDisabledFeatures, ...unusedBrowserFeatures].join(',')}`,
  ],
};

/**
 * The tests drive Debian's Chromium headless shell (package chromium-headless-shell: the same
 * Blink, without the browser's window stack), about 0.7 CPU-s less per test than the full browser
 * on a machine whose end-to-end stage is bound by the CPU. The benches time a packer's scan in the
 * full browser (chromiumLaunch).
 */
const testBrowserLaunch = { ...chromiumLaunch, executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell' };

const browser = { browserName: 'chromium', launchOptions: testBrowserLaunch, viewport: { width: 1280, height: 800 } } as const;
const typedInRealTime = ['**/scanner.spec.ts', '**/scan-capture.spec.ts'];

export default defineConfig({
  outputDir: 'test-results/artifacts',
  reporter: [['list']],
  timeout: 60_000,
  // Two stations at a time: a test mostly waits for its station, its printer and its page. The
  // scans carry a scanner's key times (station-page.ts), so a busy machine does not split them.
  workers: 2,
  projects: [
    {
      name: 'e2e',
      testDir: 'test/e2e',
      testIgnore: typedInRealTime,
      use: browser,
    },
    {
      // The tests of scan detection itself type key by key in real time (a person's pace, the
      // separator keys of a scanner): one at a time, and `npm test` runs them on their own.
      name: 'e2e-typing',
      testDir: 'test/e2e',
      testMatch: typedInRealTime,
      workers: 1,
      use: browser,
    },
    {
      // Keys pressed by keycode on an X server of the worker's own (Xvfb), with the bench PC's
      // keyboard layout, into the full Chromium in a window (test/e2e-keys/x-bench-fixture.ts):
      // scanners and people as a layout meets them. One at a time: they type in real time.
      name: 'e2e-keys',
      testDir: 'test/e2e-keys',
      workers: 1,
      use: { browserName: 'chromium', viewport: { width: 1024, height: 768 } },
    },
    { name: 'electron', testDir: 'test/electron' },
  ],
});
