import { expect, test, virtualPrinterName } from './bench-fixture';
import { openStation, scanLikeAScanner, screenshotDir, watchCsp } from './station-page';

test('first run with no setup: the sandbox says so, offers sample orders, and one prints on the embedded virtual printer', async ({ page, webHost, sandboxOrders }) => {
  const csp = watchCsp(page);
  await openStation(page, webHost);

  // Nothing was set up: the sandbox's own virtual Zebra is the printer, and it is ready.
  await expect(page.getByTestId('environment')).toHaveText('SANDBOX');
  await expect(page.getByTestId('printer-status')).toContainText(virtualPrinterName);
  await expect(page.getByTestId('printer-status')).toContainText('Ready', { timeout: 25_000 });
  const firstRun = page.getByTestId('first-run');
  await expect(firstRun).toContainText('This is the sandbox');
  await expect(firstRun).toContainText('nothing ships');
  const samples = page.getByTestId('sample-order');
  await expect(samples.first()).toBeVisible({ timeout: 20_000 });
  const offered = (await samples.allTextContents()).map((text) => text.trim());
  expect(offered.length).toBeGreaterThanOrEqual(3);
  // They are today's printable orders of the sandbox.
  for (const ref of offered) expect(sandboxOrders.find((order) => order.orderRef === ref)?.status).toMatch(/draft|expected/);
  await expect(page.getByTestId('virtual-printer-empty')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}/first-run-1280x800.png` });

  // The trainee scans a sample slip, focus anywhere. It is one whose label the service gives as
  // ZPL: an order whose carrier supplies only a PDF prints as an image, with no barcode text to read.
  const nativeZpl = (order: (typeof sandboxOrders)[number]) => order.zplAvailable;
  const first = offered.map((ref) => sandboxOrders.find((order) => order.orderRef === ref)).find((order) => order && nativeZpl(order));
  if (!first) throw new Error(`none of the samples ${offered.join(', ')} prints as native ZPL`);
  await page.getByTestId('nav-setup').focus();
  await scanLikeAScanner(page, first.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('result-order')).toHaveText(first.orderRef);
  await expect(page.getByTestId('result-recipient')).toHaveText(first.deliveryName);
  await expect(page.getByTestId('result-printer')).toHaveText(virtualPrinterName);

  // The virtual printer shows what came out: one label, with the order's barcode, drawn as printed.
  const tray = page.getByTestId('virtual-printer');
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('1 label printed', { timeout: 20_000 });
  await expect(page.getByTestId('virtual-printer-latest-barcode')).toHaveText(first.barcode);
  await expect(tray.getByTestId('preview-image')).toHaveCount(1, { timeout: 30_000 });
  // A printed sample is no longer offered.
  await expect(samples.filter({ hasText: new RegExp(`^${first.orderRef}$`) })).toHaveCount(0);
  await page.screenshot({ path: `${screenshotDir}/first-run-printed-1280x800.png` });

  await page.getByTestId('virtual-printer-open').click();
  const dialog = page.getByTestId('preview-dialog');
  await expect(dialog.getByTestId('preview-image')).toHaveCount(1, { timeout: 30_000 });
  await expect(dialog).toContainText(first.barcode);
  await page.screenshot({ path: `${screenshotDir}/virtual-printer-labels-1280x800.png` });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The last label, as the station sent it: Shift+F6 previews it.
  await page.keyboard.press('Shift+F6');
  const preview = page.getByTestId('preview-dialog');
  await expect(preview.getByTestId('label-preview')).toHaveAttribute('data-format', 'zpl', { timeout: 30_000 });
  await expect(preview.getByTestId('preview-image')).toHaveCount(1);
  await page.screenshot({ path: `${screenshotDir}/scan-recent-preview-1280x800.png` });
  await page.getByTestId('preview-close').click();
  await expect(preview).toBeHidden();
  expect(csp).toEqual([]);
});
