import { addVirtualZebra, expect, draftOrder, test } from './bench-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

test('scan outcomes on a bench with the virtual Zebra: printed, duplicate with reprint, not found, paper out', async ({ page, webHost, zebra, sandboxOrders }) => {
  await openStation(page, webHost);
  // The bench is named and the packer says who they are: both go into the journal.
  await page.keyboard.press('F4');
  await page.getByTestId('setting-station-name').fill('Bench 3');
  await page.getByTestId('setting-station-name').press('Enter');
  await expect(page.getByTestId('topbar-station')).toHaveText('Bench 3');
  await page.getByTestId('setting-operator').fill('Sam');
  await page.getByTestId('setting-operator').press('Enter');
  await expect(page.getByTestId('setting-operator')).toHaveValue('Sam');
  await addVirtualZebra(page, zebra);
  await expect(page.getByTestId('printer-status')).toContainText('Ready');

  // Printed: green, with order ref, recipient and printer, and the label reached the printer.
  const order = draftOrder(sandboxOrders);
  await page.getByTestId('nav-history').focus();
  await scanLikeAScanner(page, order.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('result-order')).toHaveText(order.orderRef);
  await expect(page.getByTestId('result-recipient')).toHaveText(order.deliveryName);
  await expect(page.getByTestId('result-printer')).toHaveText('Bench Zebra');
  const [label] = await zebra.waitForLabels(1);
  expect(label?.zpl).toContain(order.barcode);
  await expect(page.getByTestId('recent-labels')).toContainText(order.orderRef);
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
  await zebra.waitForLabels(2);

  // A reprint card confirms a duplicate in one scan.
  await scanLikeAScanner(page, order.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate');
  await scanLikeAScanner(page, 'STATION:REPRINT:LOST');
  await expect(page.getByTestId('scan-result')).toContainText('Reprinted', { timeout: 20_000 });
  await zebra.waitForLabels(3);

  // Not found: red, with what to do.
  await scanLikeAScanner(page, 'NW-000000-9');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
  await expect(page.getByTestId('result-error-title')).toHaveText('Order not found');
  await expect(page.getByTestId('result-error-action')).toHaveText("Check the slip or import today's manifest");
  await page.screenshot({ path: `${screenshotDir}/scan-not-found-1280x800.png` });

  // Paper out: red, "load a roll, then press Resume", and the status area says so too.
  await zebra.setPaperOut(true);
  await scanLikeAScanner(page, draftOrder(sandboxOrders, 1).orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', /failed|printed/, { timeout: 20_000 });
  await expect(page.getByTestId('scan-result')).toContainText('Printer out of labels');
  await expect(page.getByTestId('scan-result')).toContainText('Load a roll, then press Resume');
  await expect(page.getByTestId('printer-status')).toContainText('Paper out', { timeout: 25_000 });
  await page.screenshot({ path: `${screenshotDir}/scan-paper-out-1280x800.png` });
});
