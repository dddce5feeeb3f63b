import { expect, test } from '../web-host-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

test('switching to Dutch changes every text at once and survives a reload', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.keyboard.press('F4');
  await page.getByTestId('setting-language').selectOption('nl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await expect(page.getByRole('heading', { level: 1, name: 'Instellingen' })).toBeVisible();
  await expect(page.getByTestId('nav-scan')).toContainText('Scannen');
  await expect(page.getByTestId('nav-shift')).toContainText('Dienststart');
  await expect(page.getByTestId('host')).toHaveText('Browser (webhost)');
  // The longer Dutch words still fit 1280 px.
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  await page.screenshot({ path: `${screenshotDir}/setup-dutch-1280x800.png` });

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');
  await expect(page.getByTestId('scan-result')).toContainText('Klaar om te scannen');
  await expect(page.getByTestId('first-run')).toContainText('Dit is de sandbox');
  await scanLikeAScanner(page, 'STATION:CANCEL');
  await expect(page.getByTestId('scan-result')).toContainText('Niets te bevestigen');
  await page.screenshot({ path: `${screenshotDir}/scan-dutch-1280x800.png` });
});

test('German and Polish can be chosen in Setup and change the screen', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F4');
  await page.getByTestId('setting-language').selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { level: 1, name: 'Einstellungen' })).toBeVisible();
  await expect(page.getByTestId('nav-shift')).toContainText('Schichtbeginn');
  await page.getByTestId('setting-language').selectOption('pl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await expect(page.getByRole('heading', { level: 1, name: 'Ustawienia' })).toBeVisible();
  await expect(page.getByTestId('nav-shift')).toContainText('Początek zmiany');
  await page.keyboard.press('F1');
  await scanLikeAScanner(page, 'STATION:CANCEL');
  await expect(page.getByTestId('scan-result')).toContainText('Nie ma czego potwierdzić');
});
