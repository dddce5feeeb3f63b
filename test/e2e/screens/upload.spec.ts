/**
 * The spreadsheet upload on the Shift start screen, as a lead does it in the browser kiosk: the
 * locations, the file, the preview with the rows that are not ready and why, the creation with its
 * progress, the result, the report downloaded and read back; then the same file again, which the
 * preview shows as already created and which creates nothing.
 */
import ExcelJS from 'exceljs';
import { expect, test } from './bench-fixture';
import { openStation, screenshotDir } from './station-page';

const columns = ['orderRef', 'locationId', 'deliveryName', 'deliveryStreet', 'deliveryNumber', 'deliveryPostalCode', 'deliveryCity', 'deliveryCountry', 'length', 'width', 'height'];

function csv(prefix: string): string {
  const rows = Array.from({ length: 40 }, (_, n) => [`${prefix}-${n}`, '1101', `Klant ${n}`, 'Damrak', String(n + 1), '1012 LH', 'Amsterdam', 'NL', '300', '200', '100']);
  rows[7]![7] = 'NLD';
  rows[19]![8] = '50';
  rows[31]![3] = '';
  return [columns.join(';'), ...rows.map((row) => row.join(';'))].join('\n') + '\n';
}

test('a lead uploads a spreadsheet at shift start: preview, progress, Completed with errors, the report; the same file again creates nothing', async ({ page, webHost }) => {
  test.setTimeout(120_000);
  await openStation(page, webHost);
  await page.keyboard.press('F2');
  const panel = page.getByTestId('upload-panel');
  await expect(panel).toBeVisible();
  const file = { name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(`E2E-${Date.now().toString(36)}`)) };

  await page.getByTestId('upload-locations').fill('1101');
  await page.getByTestId('upload-file').setInputFiles(file);
  await expect(page.getByTestId('upload-counts')).toHaveText('orders.csv: 40 rows — 37 ready, 3 with errors, 0 skipped');
  const notReady = page.getByTestId('upload-rows');
  await expect(notReady).toContainText('deliveryCountry should be a two-letter country code such as NL (got "NLD")');
  await expect(notReady).toContainText('Length should be at least the width, and width at least the height (got 50 × 200 × 100)');
  await expect(notReady).toContainText('deliveryStreet is empty');
  await page.screenshot({ path: `${screenshotDir}/upload-preview-1280x800.png` });

  await page.getByTestId('upload-start').click();
  await expect(page.getByTestId('upload-progress')).toBeVisible();
  await expect(page.getByTestId('upload-result')).toContainText('Completed with errors — 37 created, 3 failed, 0 skipped', { timeout: 60_000 });
  await expect(page.getByTestId('upload-progress')).toContainText('Processed 37 of 37 — 37 created, 0 failed');
  await expect(page.getByTestId('upload-counts')).toHaveText('orders.csv: 40 rows');
  await page.screenshot({ path: `${screenshotDir}/upload-result-1280x800.png` });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('upload-report').click()]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await download.path());
  const successful = book.getWorksheet('Successful Orders')!;
  const failed = book.getWorksheet('Failed Orders')!;
  expect(successful.rowCount - 1).toBe(37);
  expect(failed.rowCount - 1).toBe(3);
  const orderIdColumn = (successful.getRow(1).values as string[]).indexOf('orderId');
  for (let row = 2; row <= successful.rowCount; row += 1) expect(String(successful.getRow(row).getCell(orderIdColumn).value)).not.toBe('');

  // The same file again: every created row is recognised before anything is sent.
  await page.getByTestId('upload-file').setInputFiles(file);
  await expect(page.getByTestId('upload-counts')).toHaveText('orders.csv: 40 rows — 0 ready, 3 with errors, 37 skipped');
  await expect(page.getByTestId('upload-skipped')).toContainText('Skipped: 37 already created');
  await page.getByTestId('upload-start').click();
  await expect(page.getByTestId('upload-result')).toContainText('Completed with errors — 0 created, 3 failed, 37 skipped', { timeout: 30_000 });
});
