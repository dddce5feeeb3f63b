import { createEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import { addVirtualZebra, draftOrder, expect, test, virtualPrinterName } from './bench-fixture';
import { removeDataDir, startStationHost } from '../station-host';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

test('scan outcomes: printed, duplicate with reprint, not found on the virtual printer; paper out on the bench Zebra', async ({ page, webHost, zebra, sandboxOrders }) => {
  await openStation(page, webHost);
  // The bench is named and the packer says who they are: both go into the journal.
  await page.keyboard.press('F4');
  await page.getByTestId('setting-station-name').fill('Bench 3');
  await page.getByTestId('setting-station-name').press('Enter');
  await expect(page.getByTestId('topbar-station')).toHaveText('Bench 3');
  await page.getByTestId('setting-operator').fill('Sam');
  await page.getByTestId('setting-operator').press('Enter');
  await expect(page.getByTestId('setting-operator')).toHaveValue('Sam');

  // Printed: green, with order ref, recipient and printer, and the label came out of the virtual printer.
  const order = draftOrder(sandboxOrders);
  await page.getByTestId('nav-history').focus();
  await scanLikeAScanner(page, order.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('result-order')).toHaveText(order.orderRef);
  await expect(page.getByTestId('result-recipient')).toHaveText(order.deliveryName);
  await expect(page.getByTestId('result-printer')).toHaveText(virtualPrinterName);
  await expect(page.getByTestId('recent-labels')).toContainText(order.orderRef);
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('1 label printed', { timeout: 20_000 });
  await expect(page.getByTestId('virtual-printer-latest-barcode')).toHaveText(order.barcode);
  await expect(page.getByTestId('virtual-printer').getByTestId('preview-image')).toHaveCount(1, { timeout: 30_000 });
  await page.screenshot({ path: `${screenshotDir}/scan-printed-1280x800.png` });

  // The same order again: amber, who printed it when; Enter asks why, 1 chooses "damaged", it prints again.
  await scanLikeAScanner(page, order.barcode);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate');
  await expect(page.getByTestId('result-duplicate-line')).toContainText(/^Already printed at \d\d:\d\d by Sam on Bench 3 — reprint\?$/);
  await page.screenshot({ path: `${screenshotDir}/scan-duplicate-1280x800.png` });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'reason');
  await page.screenshot({ path: `${screenshotDir}/scan-reprint-reason-1280x800.png` });
  await page.keyboard.press('1');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('scan-result')).toContainText('Reprinted');
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('2 labels printed', { timeout: 20_000 });

  // A reprint card confirms a duplicate in one scan.
  await scanLikeAScanner(page, order.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate');
  await scanLikeAScanner(page, 'STATION:REPRINT:LOST');
  await expect(page.getByTestId('scan-result')).toContainText('Reprinted', { timeout: 20_000 });
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('3 labels printed', { timeout: 20_000 });

  // Not found: red, with what to do.
  await scanLikeAScanner(page, 'NW-000000-9');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
  await expect(page.getByTestId('result-error-title')).toHaveText('Order not found');
  await expect(page.getByTestId('result-error-action')).toHaveText('Check the slip and scan again, or call your lead');
  await page.screenshot({ path: `${screenshotDir}/scan-not-found-1280x800.png` });

  // The lead puts the bench's own Zebra in for single scans; it runs out of labels.
  await addVirtualZebra(page, zebra);
  await expect(page.getByTestId('printer-status')).toContainText('Ready');
  await zebra.setPaperOut(true);
  await page.keyboard.press('F1');
  await scanLikeAScanner(page, draftOrder(sandboxOrders, 1).orderRef);
  // Waiting for the printer, with the reason and what to do; it prints once the roll is in.
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'waiting', { timeout: 20_000 });
  await expect(page.getByTestId('result-waiting-title')).toHaveText('Waiting for the printer');
  await expect(page.getByTestId('scan-result')).toContainText('Printer out of labels');
  await expect(page.getByTestId('scan-result')).toContainText('Load a roll, then press Resume');
  await expect(page.getByTestId('waiting-cancel')).toBeVisible();
  await expect(page.getByTestId('printer-status')).toContainText('Paper out', { timeout: 25_000 });
  await page.screenshot({ path: `${screenshotDir}/scan-paper-out-1280x800.png` });
  expect(zebra.printed()).toHaveLength(0);
  await zebra.setPaperOut(false);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('result-order')).toHaveText(draftOrder(sandboxOrders, 1).orderRef);
  await expect.poll(() => zebra.printed().length, { timeout: 20_000 }).toBe(1);

  // Out of labels again: the packer cancels the waiting scan, and it never comes out.
  await zebra.setPaperOut(true);
  await scanLikeAScanner(page, draftOrder(sandboxOrders, 2).orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'waiting', { timeout: 20_000 });
  await page.getByTestId('waiting-cancel').click();
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
  await zebra.setPaperOut(false);
  await scanLikeAScanner(page, draftOrder(sandboxOrders, 3).orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect.poll(() => zebra.printed().length, { timeout: 20_000 }).toBe(2);
  expect(zebra.printed().map((label) => label.zpl).join('')).not.toContain(draftOrder(sandboxOrders, 2).barcode);
});

test('an order the service has as printed, but not by this station: amber, printed again only with a reason', async ({ page, webHost, sandboxOrders }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F4');
  await page.getByTestId('setting-operator').fill('Sam');
  await page.getByTestId('setting-operator').press('Enter');
  await expect(page.getByTestId('setting-operator')).toHaveValue('Sam');
  await page.keyboard.press('F1');

  // The sandbox's seed has orders whose label was already fetched ("expected") by someone else.
  const [order, another] = sandboxOrders.filter((candidate) => candidate.status === 'expected');
  if (!order || !another) throw new Error('the sandbox has fewer than two expected orders today');

  await scanLikeAScanner(page, order.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'elsewhere', { timeout: 20_000 });
  await expect(page.getByTestId('result-title')).toHaveText('Printed elsewhere');
  await expect(page.getByTestId('result-order')).toHaveText(`${order.orderRef} · ${order.deliveryName}`);
  await expect(page.getByTestId('result-elsewhere-line')).toHaveText("The service has this parcel's label as already printed, but not at this station — print it again here?");
  await expect(page.getByTestId('reprint-confirm')).toBeFocused();
  await expect(page.getByTestId('recent-labels')).not.toContainText(order.orderRef);
  await page.screenshot({ path: `${screenshotDir}/scan-printed-elsewhere-1280x800.png` });

  // Enter asks why, 2 chooses "lost"; it prints once, as a reprint.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'reason');
  await page.keyboard.press('2');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('scan-result')).toContainText('Reprinted');
  await expect(page.getByTestId('virtual-printer-latest-barcode')).toHaveText(order.barcode, { timeout: 20_000 });
  // The first scan sent nothing: this is the virtual printer's only label.
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('1 label printed');

  // In Dutch too; scanned again it is now this station's own duplicate.
  await page.keyboard.press('F4');
  await page.getByTestId('setting-language').selectOption('nl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await page.keyboard.press('F1');
  await scanLikeAScanner(page, another.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'elsewhere', { timeout: 20_000 });
  await expect(page.getByTestId('result-title')).toHaveText('Elders geprint');
  await expect(page.getByTestId('result-elsewhere-line')).toHaveText('De dienst heeft het etiket van dit pakket al als geprint, maar niet op dit station — hier opnieuw printen?');
  await scanLikeAScanner(page, order.barcode);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate', { timeout: 20_000 });
});

test('a scan with a rejected API key says so and who to ask', async ({ page, zebra }) => {
  // The delivery service's test environment, played by a sandbox of this test; the station keeps
  // its key in a real keychain.
  const service = createEmbeddedSandbox();
  const api = await service.api();
  const [order] = await service.todaysOrders();
  const station = await startStationHost({ keyring: true });
  try {
    await openStation(page, station);
    await page.keyboard.press('F4');
    await page.getByTestId('environment-test').click();
    // Not set up yet (no address, no key): the screen asks, and the lead switches anyway to set it up.
    await page.getByTestId('confirm-yes').click();
    await expect(page.getByTestId('environment')).toHaveText('TEST');
    await page.getByTestId('setting-base-url-test').fill(api.baseUrl);
    await page.getByTestId('setting-base-url-test').press('Enter');
    await expect(page.getByTestId('setting-base-url-test')).toHaveValue(api.baseUrl);
    await expect(page.getByTestId('keychain-unavailable')).toHaveCount(0);
    await page.getByTestId('key-input-test').fill('sk_test_not-the-companys-key');
    await page.getByTestId('key-test').getByLabel('Check it with the delivery service before saving').uncheck();
    await page.getByTestId('key-save-test').click();
    await expect(page.getByTestId('key-status-test')).toContainText('A key is set');
    await addVirtualZebra(page, zebra, 'Bench Zebra', { first: true });

    await page.keyboard.press('F1');
    await scanLikeAScanner(page, order!.orderId);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    await expect(page.getByTestId('result-error-title')).toHaveText('API key rejected');
    await expect(page.getByTestId('result-error-action')).toHaveText('Ask a supervisor');
    await page.screenshot({ path: `${screenshotDir}/scan-key-rejected-1280x800.png` });
    expect(zebra.printed()).toHaveLength(0);
  } finally {
    await station.stop();
    removeDataDir(station.dataDir);
    await service.close();
  }
});
