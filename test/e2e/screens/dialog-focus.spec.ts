/**
 * Closing a dialog hands the focus back to what opened it (WCAG 2.4.3), in English and Dutch at
 * 1024×768, one test per dialog: opened from the keyboard (the opener focused, Enter or the keys
 * that open it) and closed with Esc or its own button, the keyboard user carries on from the
 * opener, not from the top of the page (<body>). The virtual printer's label tray scrolls from the
 * keyboard too. The store's and the parcel decision's dialogs are checked where their situations
 * are made (store-local-printing.spec.ts, ship-decide-live.spec.ts).
 */
import type { Locator, Page } from '@playwright/test';
import { startSandbox } from '../../../src/sandbox';
import { removeDataDir, startStationHost, type StationHost } from '../station-host';
import { draftOrder, expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { useTestEnvironment } from './service-sandbox';
import { openStation, scanLikeAScanner } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const openDialog = (page: Page) => page.locator('dialog[open]');

/** Opens the dialog from its opener with the keyboard, closes it with `close`, and expects the opener to have the focus again. */
async function focusComesBack(page: Page, opener: Locator, close: (page: Page) => Promise<void> = (each) => each.keyboard.press('Escape')): Promise<void> {
  await opener.focus();
  await page.keyboard.press('Enter');
  await expect(openDialog(page)).toBeVisible({ timeout: 20_000 });
  await close(page);
  await expect(openDialog(page)).toHaveCount(0);
  await expect(opener).toBeFocused();
}

async function printSample(page: Page): Promise<string> {
  const sample = page.getByTestId('sample-order').first();
  await expect(sample).toBeVisible({ timeout: 20_000 });
  const ref = ((await sample.textContent()) ?? '').trim();
  await sample.click();
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  return ref;
}

async function signIn(page: Page): Promise<void> {
  await page.getByTestId('operator-name').fill('Anna');
  await page.getByTestId('operator-sign-in').click();
  await expect(page.getByTestId('operator-prompt')).toHaveCount(0);
}

/** History with one label printed, its row chosen. */
async function historyRow(page: Page): Promise<void> {
  await signIn(page);
  const ref = await printSample(page);
  await page.keyboard.press('F5');
  const row = page.locator('.history-row').filter({ hasText: ref }).first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  await row.click();
}

for (const language of ['en', 'nl'] as const) {
  test.describe(`in "${language}"`, () => {
    test.beforeEach(async ({ page }) => chooseLanguageBeforeStart(page, language));

    test('the guide, opened on Setup and closed with its button, gives the focus back to its button', async ({ page, webHost }) => {
      await openStation(page, webHost);
      await page.keyboard.press('F4');
      await focusComesBack(page, page.getByTestId('guide-open-setup'), (each) => each.getByTestId('guide-close').click());
    });

    test('the guide, opened from the sandbox panel and closed with Esc, gives the focus back to its button', async ({ page, webHost }) => {
      await openStation(page, webHost);
      await focusComesBack(page, page.getByTestId('guide-open-first-run'));
    });

    test('a new shipment cancelled with Esc gives the focus back to its button', async ({ page, webHost }) => {
      await openStation(page, webHost);
      await focusComesBack(page, page.getByTestId('new-shipment-open'));
    });

    test('the virtual printer’s labels scroll from the keyboard, and closing them gives the focus back', async ({ page, webHost, sandboxOrders }) => {
      test.setTimeout(90_000);
      await openStation(page, webHost);
      const sample = await printSample(page);
      const others = sandboxOrders.filter((order) => order.status === 'draft' && order.zplAvailable && order.orderRef !== sample).slice(0, 7);
      for (const { orderRef } of others) {
        await scanLikeAScanner(page, orderRef);
        await expect(page.getByTestId('scan-result').filter({ hasText: orderRef })).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
      }
      await expect(page.getByTestId('virtual-printer-count')).toContainText('8', { timeout: 30_000 });
      const opener = page.getByTestId('virtual-printer-open');
      await opener.focus();
      await page.keyboard.press('Enter');
      const tray = page.getByTestId('virtual-printer-labels');
      await expect(tray.getByTestId('preview-image')).toHaveCount(8, { timeout: 30_000 });
      expect(await tray.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
      // The tray is the dialog's first stop of the Tab key, and its keys scroll it.
      await expect(tray).toBeFocused();
      await page.keyboard.press('End');
      await expect.poll(() => tray.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
      await page.keyboard.press('Tab');
      await expect(page.getByTestId('preview-close')).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(openDialog(page)).toHaveCount(0);
      await expect(opener).toBeFocused();
    });

    test('a label’s preview from the last labels gives the focus back to its Preview button', async ({ page, webHost }) => {
      await openStation(page, webHost);
      await printSample(page);
      await focusComesBack(page, page.getByTestId('recent-preview-0'), (each) => each.getByTestId('preview-close').click());
    });

    test('"Who is reprinting?" cancelled gives the focus back to the reason that asked it', async ({ page, webHost }) => {
      await openStation(page, webHost);
      await printSample(page);
      await page.keyboard.press('F6');
      await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'reason');
      const reason = page.getByTestId('reason-damaged');
      await expect(reason).toBeFocused();
      await page.keyboard.press('1');
      await expect(page.getByTestId('operator-dialog-form')).toBeVisible();
      await page.getByTestId('operator-dialog-cancel').click();
      await expect(openDialog(page)).toHaveCount(0);
      await expect(reason).toBeFocused();
    });

    test('History’s void cancelled gives the focus back to Cancel order', async ({ page, webHost }) => {
      await openStation(page, webHost);
      await historyRow(page);
      const opener = page.locator('[data-testid^="history-void-"]');
      await opener.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('void-reason')).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(openDialog(page)).toHaveCount(0);
      await expect(opener).toBeFocused();
    });

    test('History’s preview gives the focus back to its Preview button', async ({ page, webHost }) => {
      await openStation(page, webHost);
      await historyRow(page);
      await focusComesBack(page, page.locator('[data-testid^="history-preview-"]'));
    });

    test('History’s reprint question cancelled gives the focus back to Reprint', async ({ page, webHost }) => {
      await openStation(page, webHost);
      await historyRow(page);
      await focusComesBack(page, page.locator('[data-testid^="history-reprint-"]'));
    });

    test('the TEST and LIVE questions, answered "stay", give the focus back to the environment chosen', async ({ page, webHost }) => {
      await openStation(page, webHost);
      await page.keyboard.press('F4');
      await page.getByTestId('environment-sandbox').focus();
      // The arrow keys move along the environments: TEST, not set up, asks first.
      await page.keyboard.press('ArrowDown');
      await expect(openDialog(page)).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(openDialog(page)).toHaveCount(0);
      await expect(page.getByTestId('environment-test')).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(openDialog(page)).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(openDialog(page)).toHaveCount(0);
      await expect(page.getByTestId('environment-live')).toBeFocused();
      await expect(page.getByTestId('environment-sandbox')).toBeChecked();
    });

    test('removing a printer, answered "keep", gives the focus back to Remove', async ({ page, webHost }) => {
      await openStation(page, webHost);
      await page.keyboard.press('F3');
      await focusComesBack(page, page.locator('[data-testid^="printer-remove-"]').first());
    });

    test('cancelling a run, answered "keep", gives the focus back to Cancel the run', async ({ page, webHost, sandboxOrders }) => {
      await openStation(page, webHost);
      await page.keyboard.press('F2');
      await page.getByTestId(`bundle-${draftOrder(sandboxOrders, 0).bundleId}`).locator('input').check({ timeout: 20_000 });
      await page.getByTestId('run-start').click();
      await page.getByTestId('run-pause').click();
      await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'paused', { timeout: 20_000 });
      await focusComesBack(page, page.getByTestId('run-cancel'));
    });

  });
}

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}": removing an API key and moving an address that has one, answered "keep", give the focus back`, async ({ page }) => {
    test.setTimeout(120_000);
    const sandbox = await startSandbox({ printers: 0, seedSize: 'small' });
    let host: StationHost | null = null;
    try {
      host = await startStationHost({ keyring: true });
      await openStation(page, host);
      // Set up in English as the shared steps read it, then worked in the language of the test.
      await useTestEnvironment(page, sandbox.environments.test.baseUrl, sandbox.environments.test.companies[0]!.apiKey);
      await page.getByTestId('setting-language').selectOption(language);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await focusComesBack(page, page.getByTestId('key-remove-test'));
      const address = page.getByTestId('setting-base-url-test');
      await address.fill(`${sandbox.environments.test.baseUrl}/v2`);
      await focusComesBack(page, address);
    } finally {
      if (host) {
        await host.stop();
        removeDataDir(host.dataDir);
      }
      await sandbox.close();
    }
  });
}
