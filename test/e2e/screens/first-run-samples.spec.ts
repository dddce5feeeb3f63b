/**
 * The sandbox's first-run panel after the first hour (issue 23, item 11): an order the lead
 * cancels leaves the samples at once, and once every sample is printed the panel says what to do
 * next instead of "scan any sample slip" (the sandbox has no slips).
 */
import { addVirtualZebra, expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

test('a sample order the lead cancels with the void card leaves the samples', async ({ page, webHost }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await openStation(page, webHost);
  const samples = page.getByTestId('sample-order');
  await expect(samples.first()).toBeVisible({ timeout: 20_000 });
  const sample = (await samples.first().textContent())!.trim();

  await scanLikeAScanner(page, 'STATION:VOID');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'void-armed');
  await scanLikeAScanner(page, sample);
  await page.getByTestId('void-reason').fill('customer called');
  await page.getByTestId('void-operator').fill('Anna');
  await page.getByTestId('void-submit').click();
  await expect(page.getByTestId('scan-void-result')).toContainText(sample, { timeout: 20_000 });
  await expect(samples.filter({ hasText: new RegExp(`^${sample}$`) })).toHaveCount(0, { timeout: 10_000 });
  await expect(samples.first()).toBeVisible();
});

test('once every sample is printed, the panel says what to do next, not "scan any sample slip"', async ({ page, webHost, zebra }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openStation(page, webHost);
  await expect(page.getByTestId('sample-order').first()).toBeVisible({ timeout: 20_000 });

  // The lead prints all of today's bundles at shift start on the bench's fast Zebra (the
  // sandbox's own virtual Zebra prints a label a second, as a real one does).
  await addVirtualZebra(page, zebra);
  await page.keyboard.press('F2');
  await expect(page.getByTestId('bundle-choices').locator('li').first()).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('bundles-select-all').click();
  await page.getByTestId('run-start').click();
  await expect(page.getByTestId('run-panel')).toHaveAttribute('data-state', 'finished', { timeout: 90_000 });

  await page.keyboard.press('F1');
  const firstRun = page.getByTestId('first-run');
  await expect(page.getByTestId('sample-order')).toHaveCount(0, { timeout: 20_000 });
  await expect(firstRun).toContainText('Every sample order of today is printed');
  await expect(firstRun).toContainText('Shift start (F2)');
  await expect(firstRun).not.toContainText('sample slip');
  await page.screenshot({ path: `${screenshotDir}/first-run-samples-used-1280x800.png` });
});
