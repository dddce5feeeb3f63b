import { expect, test } from '../web-host-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

test('a scan is captured with the focus elsewhere, and "-", "/" and "." survive', async ({ page, webHost }) => {
  await openStation(page, webHost, { scannerGapMs: 'default' });
  // Focus wandered to a navigation button: the scanner's Enter must not press it.
  await page.getByTestId('nav-history').focus();
  await scanLikeAScanner(page, 'ORD-2024/0001.5');
  // No such order in the sandbox: red, with the scan exactly as the scanner typed it.
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
  await expect(page.getByTestId('result-error-title')).toHaveText('Order not found');
  await expect(page.getByTestId('result-scan')).toHaveText('Scan: ORD-2024/0001.5');
  await expect(page.getByTestId('nav-scan')).toHaveAttribute('aria-current', 'page');
  await page.screenshot({ path: `${screenshotDir}/scan-focus-elsewhere-1280x800.png` });

  // A Tab suffix works as well, and does not move the focus.
  await page.getByTestId('nav-setup').focus();
  await scanLikeAScanner(page, '3SABC.123-456/7', 'Tab');
  await expect(page.getByTestId('result-scan')).toHaveText('Scan: 3SABC.123-456/7');
  await expect(page.getByTestId('nav-setup')).toBeFocused();
});

test('a scan on another screen brings the scan screen back with its result', async ({ page, webHost }) => {
  await openStation(page, webHost, { scannerGapMs: 'default' });
  await page.keyboard.press('F3');
  await expect(page.getByRole('heading', { level: 1, name: 'Printers' })).toBeFocused();
  await scanLikeAScanner(page, 'REF-7731');
  await expect(page.getByTestId('nav-scan')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('result-scan')).toHaveText('Scan: REF-7731');
});

test('a person typing slowly, then Enter, is not a scan', async ({ page, webHost }) => {
  await openStation(page, webHost, { scannerGapMs: 'default' });
  await page.keyboard.type('ORD-1001', { delay: 150 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'idle');
});

test('typing in a settings field at scanner speed is not taken for a scan', async ({ page, webHost }) => {
  await openStation(page, webHost, { scannerGapMs: 'default' });
  await page.keyboard.press('F4');
  const field = page.getByTestId('setting-scan-gap');
  await field.fill('');
  await field.focus();
  await scanLikeAScanner(page, '0090');
  await expect(page.getByRole('heading', { level: 1, name: 'Setup' })).toBeVisible();
  await expect(field).toHaveValue('90');
  await page.keyboard.press('F1');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'idle');
});

test('the manual entry field is the fallback: typed and looked up with Enter', async ({ page, webHost }) => {
  await openStation(page, webHost, { scannerGapMs: 'default' });
  await page.getByTestId('manual-entry').click();
  await page.keyboard.type('ORD-55/B.2', { delay: 120 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('result-scan')).toHaveText('Scan: ORD-55/B.2');
  await expect(page.getByTestId('manual-entry')).toHaveValue('');
});

test('an unusable scan shows red with what to do', async ({ page, webHost }) => {
  await openStation(page, webHost, { scannerGapMs: 'default' });
  // A command card with nothing to confirm: red, with words and an icon.
  await scanLikeAScanner(page, 'STATION:REPRINT');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'command-unused');
  await expect(page.getByTestId('scan-result')).toContainText('Nothing to confirm');
  await expect(page.getByTestId('scan-result')).toContainText('scan an order first');
  await page.screenshot({ path: `${screenshotDir}/scan-error-1280x800.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'idle');
});
