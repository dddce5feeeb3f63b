import { readFileSync } from 'node:fs';
import { draftOrder, expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

test('history lists printed labels, finds them by ref, barcode or operator, previews and reprints with a reason, and exports CSV', async ({ page, webHost, sandboxOrders }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F4');
  await page.getByTestId('setting-operator').fill('Priya');
  await page.getByTestId('setting-operator').press('Enter');
  await expect(page.getByTestId('setting-operator')).toHaveValue('Priya');

  const first = draftOrder(sandboxOrders, 2);
  const second = draftOrder(sandboxOrders, 3);
  await page.keyboard.press('F1');
  for (const order of [first, second]) {
    await scanLikeAScanner(page, order.orderRef);
    await expect(page.getByTestId('result-order')).toHaveText(order.orderRef, { timeout: 20_000 });
  }
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('2 labels printed', { timeout: 20_000 });

  await page.keyboard.press('F5');
  const table = page.getByTestId('history-table');
  await expect(table).toContainText(first.orderRef);
  await expect(table).toContainText(second.orderRef);
  await expect(table).toContainText('Priya');
  await page.screenshot({ path: `${screenshotDir}/history-1280x800.png` });

  // Search by the parcel barcode: only that label is left.
  await page.getByTestId('history-search').fill(second.barcode);
  await expect(page.getByTestId('history-count')).toContainText('1 of 2 labels');
  await expect(table).not.toContainText(first.orderRef);
  // Search by operator: both.
  await page.getByTestId('history-search').fill('priya');
  await expect(page.getByTestId('history-count')).toContainText('2 of 2 labels');
  await page.getByTestId('history-search').fill(second.orderRef);
  await expect(page.getByTestId('history-count')).toContainText('1 of 2 labels');

  // The label as it printed.
  await table.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByTestId('preview-dialog');
  await expect(page.getByTestId('confirm-dialog')).toContainText(`Label for ${second.orderRef}`);
  await expect(preview.getByTestId('preview-image')).toHaveCount(1, { timeout: 30_000 });
  await page.screenshot({ path: `${screenshotDir}/history-preview-1280x800.png` });
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();

  // Reprint it with a reason: the printer gets a third label, the journal says why.
  await table.getByRole('button', { name: 'Reprint' }).click();
  await page.getByTestId('dialog-reason-damaged').click();
  await expect(page.getByTestId('history-reprinted')).toContainText(`${second.orderRef} was printed again`, { timeout: 20_000 });
  await expect(page.getByTestId('history-count')).toContainText('2 of 3 labels');
  await expect(table).toContainText('Label damaged');

  // The export holds what the screen shows.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('history-export').click();
  const download = await downloading;
  const csv = readFileSync(await download.path(), 'utf8');
  const lines = csv.trim().split('\r\n');
  expect(lines).toHaveLength(3);
  expect(lines[0]).toContain('orderRef');
  expect(csv).toContain(second.barcode);
  // The journal keeps the reason's code; the screen shows it translated.
  expect(csv).toContain('Reprint by Priya: damaged');
  expect(csv).not.toContain(first.barcode);

  // The reprint came out of the virtual printer with the same barcode.
  await page.keyboard.press('F1');
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('3 labels printed', { timeout: 20_000 });
  await expect(page.getByTestId('virtual-printer-latest-barcode')).toHaveText(second.barcode);
});
