/**
 * Printers found without typing an address: on the Printers screen a lead searches the network,
 * the virtual Zebra answers Zebra's discovery (on loopback, on a port of its own), it is listed
 * with its name, model, resolution and address, and one button adds it (identity checked).
 */
import { expect, test } from './bench-fixture';
import { openStation, screenshotDir } from './station-page';

test('discovery lists the virtual Zebra with its model, resolution and address, and adds it with one button', async ({ page, webHost, zebra }) => {
  const discoveryPort = await zebra.answerDiscovery({ host: '127.0.0.1', port: 0 });
  await page.setViewportSize({ width: 1024, height: 768 });
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  await page.getByTestId('discover-subnet').fill('127.0.0.1/32');
  await page.getByTestId('discover-port').fill(String(discoveryPort));
  await page.getByTestId('discover-search').click();
  const row = page.getByTestId('discover-row').filter({ hasText: 'Bench Zebra' });
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(row).toContainText('Network Zebra');
  await expect(row).toContainText('ZD421-203dpi');
  await expect(row).toContainText('203 dpi');
  await expect(row).toContainText(`127.0.0.1:${zebra.boundPort}`);
  await page.getByTestId('discover-printers').screenshot({ path: `${screenshotDir}/discover-printers-1024x768.png` });

  await row.getByTestId('discover-add').click();
  await expect(row.getByTestId('discover-added')).toContainText('Added as Bench Zebra', { timeout: 20_000 });
  await expect(row.getByTestId('printer-check')).toBeVisible();
  await expect(page.getByTestId('printer-list')).toContainText('Bench Zebra');

  // Searched again, it is known.
  await page.getByTestId('discover-search').click();
  await expect(page.getByTestId('discover-row').filter({ hasText: 'Bench Zebra' })).toContainText('Already added', { timeout: 20_000 });
});

test('a network wider than a /16 is refused before anything is sent', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  await page.getByTestId('discover-subnet').fill('10.0.0.0/8');
  await page.getByTestId('discover-search').click();
  await expect(page.getByTestId('discover-error')).toHaveAttribute('data-code', 'INVALID_INPUT');
  await expect(page.getByTestId('discover-error-title')).toHaveText('That network is too wide to search');
});
