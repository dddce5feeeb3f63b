/**
 * The side column of the Scan screen on the sandbox (issue 23, item 9): "Last labels" is in view
 * at the bench sizes without scrolling, and a label printed and then reprinted holds one F-key,
 * not two of the four.
 */
import { draftOrder, expect, test } from './bench-fixture';
import { benchSizes } from './layout-support';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

test('on the sandbox, Last labels and its reprint button are in view at 1024×768 and 1280×800', async ({ page, webHost, sandboxOrders }) => {
  await openStation(page, webHost);
  await expect(page.getByTestId('first-run')).toBeVisible();
  await scanLikeAScanner(page, draftOrder(sandboxOrders, 0).orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  for (const size of benchSizes) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${screenshotDir}/last-labels-sandbox-${size.width}x${size.height}.png` });
    await expect(page.getByRole('heading', { name: 'Last labels' })).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('recent-reprint-0')).toBeInViewport({ ratio: 1 });
    // In view as it stands, not after someone scrolled the column.
    expect(await page.locator('.scan-side').evaluate((side) => side.scrollTop)).toBe(0);
  }
});

test('a label and its reprint take one F-key: F7 stays free for the next label', async ({ page, webHost, sandboxOrders }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await openStation(page, webHost);
  await page.getByTestId('operator-name').fill('Sam');
  await page.getByTestId('operator-sign-in').click();
  const first = draftOrder(sandboxOrders, 0);
  const second = draftOrder(sandboxOrders, 1);
  await scanLikeAScanner(page, first.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });

  // Reprinted with F6 (reason: damaged).
  await page.keyboard.press('F6');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'reason');
  await page.keyboard.press('1');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('2 labels printed', { timeout: 20_000 });
  const items = page.getByTestId('recent-labels').locator('.recent-item');
  await expect(items).toHaveCount(1);
  await expect(page.getByTestId('recent-0')).toContainText(first.orderRef);

  // The next order is F6, the first one F7: two labels, two keys.
  await scanLikeAScanner(page, second.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(items).toHaveCount(2);
  await expect(page.getByTestId('recent-0')).toContainText(second.orderRef);
  await expect(page.getByTestId('recent-1')).toContainText(first.orderRef);
  await expect(page.getByTestId('recent-reprint-1')).toHaveAttribute('aria-keyshortcuts', 'F7');
});
