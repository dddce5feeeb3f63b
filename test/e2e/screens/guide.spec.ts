/**
 * The first-hour guide on the screen (issue 23): a lead opens it from Setup or the sandbox panel,
 * reads which file goes where with its columns and units, downloads a template that the station
 * then reads, and finds the data folder, the keychain's needs and the way out of the sandbox.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation, screenshotDir } from './station-page';

test('the guide from Setup: three imports with their columns and units, a template the station reads, the data folder, the keychain, leaving the sandbox', async ({ page, webHost }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openStation(page, webHost);
  await page.keyboard.press('F4');
  await page.getByTestId('guide-open-setup').click();
  const guide = page.getByTestId('guide');
  await expect(guide).toBeVisible();
  await expect(page.getByTestId('guide-manifest')).toContainText('Setup (F4) › Import today’s manifest');
  await expect(page.getByTestId('guide-manifest')).toContainText('orderId');
  await expect(page.getByTestId('guide-to-ship')).toContainText('Scan (F1) › Orders to ship');
  await expect(page.getByTestId('guide-upload')).toContainText('Shift start (F2) › Create orders from a spreadsheet');
  await expect(page.getByTestId('guide-units')).toContainText('weight in grams (2 kg is 2000)');
  await expect(page.getByTestId('guide-units')).toContainText('millimetres');
  await expect(page.getByTestId('guide-data-dir')).toContainText(webHost.dataDir);
  await expect(guide).toContainText(`${webHost.dataDir}/handover`);
  await expect(guide).toContainText('Linux: a Secret Service');
  await expect(guide).toContainText('Setup › Environment: choose TEST');
  await page.screenshot({ path: `${screenshotDir}/guide-1024x768.png` });

  // The orders-to-ship template, downloaded and imported as it is: the station reads its example row.
  const download = page.waitForEvent('download');
  await page.getByTestId('guide-template-to-ship').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('orders-to-ship-template.csv');
  const csv = readFileSync((await file.path())!, 'utf8');
  expect(csv.split('\n')[0]).toContain('orderRef,locationId,deliveryStreet');
  await page.keyboard.press('Escape');
  await expect(guide).toHaveCount(0);
  await page.keyboard.press('F1');
  await page.getByTestId('ship-import-file').setInputFiles({ name: 'orders-to-ship-template.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.replace(/^\uFEFF/, '')) });
  await expect(page.getByTestId('ship-import-report')).toContainText('orders-to-ship-template.csv: 1 new, 0 updated, 0 rejected');
});

test('the guide in Dutch from the sandbox panel', async ({ page, webHost }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await chooseLanguageBeforeStart(page, 'nl');
  await openStation(page, webHost);
  await page.getByTestId('guide-open-first-run').click();
  await expect(page.getByRole('heading', { name: 'Het eerste uur: bestanden, gegevens, sleutelhanger, de sandbox verlaten' })).toBeVisible();
  await expect(page.getByTestId('guide-units')).toContainText('gewicht in grammen');
  await expect(page.getByTestId('guide-upload')).toContainText('Orders aanmaken uit een spreadsheet');
  await page.getByTestId('guide-close').click();
  await expect(page.getByTestId('guide')).toHaveCount(0);
});
