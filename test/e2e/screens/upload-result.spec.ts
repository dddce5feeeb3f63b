/**
 * A lead uploads a day's spreadsheet at 1024×768 and reads the result on screen: which import is
 * for what and the columns (with units) it wants, every row not created listed with why — the
 * local checks and the service's refusals alike —, the pace in rows a second, and a parcels
 * column of 2 refused plainly instead of silently making one label.
 */
import { expect, test } from './bench-fixture';
import { openStation } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const header = ['orderRef', 'locationId', 'deliveryName', 'deliveryStreet', 'deliveryNumber', 'deliveryPostalCode', 'deliveryCity', 'deliveryCountry', 'weight', 'parcels'];

function sheet(prefix: string): string {
  const rows = Array.from({ length: 20 }, (_, n) => [`${prefix}-${n}`, '1101', `Klant ${n}`, 'Damrak', String(n + 1), '1012 LH', 'Amsterdam', 'NL', '1200', '1']);
  rows[3]![7] = 'NLD'; // the local check: not a two-letter country
  rows[9]![9] = '2'; // two parcels: not what a row of this upload is
  rows[14]!.splice(3, 5, 'Gran Via', '1', '28013', 'Madrid', 'ES'); // outside the service's area: refused by the service
  return [header.join(';'), ...rows.map((row) => row.join(';'))].join('\n') + '\n';
}

test('the upload says what it is for and what it reads, and lists every row not created — local and the service’s refusals — with a true pace', async ({ page, webHost }) => {
  test.setTimeout(120_000);
  await openStation(page, webHost);

  // Each import says what it is for.
  await expect(page.getByTestId('ship-import-purpose')).toContainText('For a shop’s orders not yet at the delivery service');
  await page.keyboard.press('F4');
  await expect(page.getByTestId('import-purpose')).toContainText('For orders already created at the delivery service: nothing is created or sent');
  await page.keyboard.press('F2');
  const panel = page.getByTestId('upload-panel');
  await expect(panel.getByTestId('upload-purpose')).toContainText('Creates every row as a new order at the delivery service now, one parcel per row');
  await expect(panel.getByTestId('upload-columns')).toContainText('needed: orderRef, locationId, deliveryName');
  await expect(panel.getByTestId('upload-columns')).toContainText('weight (grams); length, width, height (millimetres');

  const prefix = `LEAD-${Date.now().toString(36)}`;
  await page.getByTestId('upload-locations').fill('1101');
  await page.getByTestId('upload-file').setInputFiles({ name: 'today.csv', mimeType: 'text/csv', buffer: Buffer.from(sheet(prefix)) });
  await expect(page.getByTestId('upload-counts')).toHaveText('today.csv: 20 rows — 18 ready, 2 with errors, 0 skipped', { timeout: 20_000 });
  await expect(page.getByTestId('upload-rows')).toContainText('One row is one parcel here (got 2 parcels)');

  await page.getByTestId('upload-print-none').check();
  await page.getByTestId('upload-start').click();
  const result = page.getByTestId('upload-result');
  await expect(result).toContainText('Completed with errors — 17 created, 3 failed (2 with errors in the file, 1 at the service), 0 skipped', { timeout: 60_000 });
  // Every failed row on screen, the service's refusal too, each once.
  const rows = page.getByTestId('upload-rows').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: `${prefix}-3` })).toContainText('deliveryCountry should be a two-letter country code');
  await expect(rows.filter({ hasText: `${prefix}-9` })).toContainText('One row is one parcel here');
  await expect(rows.filter({ hasText: `${prefix}-14` })).toContainText('The service refused it');
  // The pace of the rows actually sent, not "0.0".
  const rate = ((await page.getByTestId('upload-rate').textContent()) ?? '').match(/([\d.]+) rows\/s/);
  expect(rate).not.toBeNull();
  expect(Number(rate![1])).toBeGreaterThan(0);
  // "200.0 rows/s" is a true pace: only a pace of nothing is wrong.
  await expect(page.getByTestId('upload-progress')).not.toContainText(/(?<![\d.])0\.0 rows\/s/);
});
