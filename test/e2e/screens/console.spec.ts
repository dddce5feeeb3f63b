import type { ConsoleMessage, Page } from '@playwright/test';
import { draftOrder, expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner } from './station-page';

/** Every console error or warning and every uncaught error of the page, from its first request. */
function watchConsole(page: Page): string[] {
  const noise: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') noise.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => noise.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) noise.push(`HTTP ${response.status()}: ${response.url().replace(/token=[^&]+/, 'token=…')}`);
  });
  return noise;
}

test('a normal shift is quiet: no console error or warning while signing in, scanning, printing, reprinting and moving between screens', async ({ page, webHost, sandboxOrders }) => {
  const noise = watchConsole(page);
  await openStation(page, webHost);
  await page.getByTestId('operator-prompt').getByTestId('operator-name').fill('Sam');
  await page.getByTestId('operator-prompt').getByTestId('operator-name').press('Enter');
  await expect(page.getByTestId('operator-badge-name')).toHaveText('Sam');

  const first = draftOrder(sandboxOrders, 0);
  await scanLikeAScanner(page, first.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await scanLikeAScanner(page, first.barcode);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate');
  await scanLikeAScanner(page, 'STATION:REPRINT:DAMAGED');
  await expect(page.getByTestId('scan-result')).toContainText('Reprinted', { timeout: 20_000 });
  await scanLikeAScanner(page, draftOrder(sandboxOrders, 1).orderRef);
  await expect(page.getByTestId('result-order')).toHaveText(draftOrder(sandboxOrders, 1).orderRef, { timeout: 20_000 });
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('3 labels printed', { timeout: 20_000 });

  for (const key of ['F2', 'F3', 'F4', 'F5', 'F1']) {
    await page.keyboard.press(key);
    await expect(page.locator('h1:focus, .screen-title:focus').first()).toBeAttached();
  }
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');
  await expect(page.getByTestId('recent-labels')).toBeVisible();
  expect(noise).toEqual([]);
});
