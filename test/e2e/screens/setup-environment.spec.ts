/**
 * Setup as IT and the supervisor meet it (issue 23, item 8): a keychain that is not there says
 * what each system needs; a rejected key is worded for the supervisor who typed it; TEST with no
 * address and no key is never chosen silently; and after a switch the Scan screen holds nothing
 * of the environment left.
 */
import { createEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import { draftOrder, expect, test } from './bench-fixture';
import { removeDataDir, startStationHost } from '../station-host';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

test('with no keychain on this computer, Setup tells IT what Windows, macOS and Linux need', async ({ page, webHost }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  // The test's station runs with no Secret Service in its session, as a bare Linux kiosk would.
  await openStation(page, webHost);
  await page.keyboard.press('F4');
  const needs = page.getByTestId('keychain-unavailable');
  await expect(needs).toBeVisible({ timeout: 20_000 });
  await expect(needs).toContainText('Windows: Credential Manager');
  await expect(needs).toContainText('macOS: the login keychain');
  await expect(needs).toContainText('Linux: a Secret Service (GNOME Keyring or KWallet)');
  await expect(needs).not.toContainText('Ask IT');
  await needs.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screenshotDir}/setup-keychain-needs-1024x768.png` });
});

test('a key the delivery service refuses is worded for the supervisor entering it, never "ask a supervisor"', async ({ page }) => {
  test.setTimeout(90_000);
  // A delivery service of the test's own on loopback: it knows its seeded keys, not this one.
  const service = createEmbeddedSandbox({ printers: 0 });
  const api = await service.api();
  const station = await startStationHost({ keyring: true });
  try {
    await openStation(page, station);
    await page.keyboard.press('F4');
    await page.getByTestId('setting-base-url-test').fill(api.baseUrl);
    await page.getByTestId('setting-base-url-test').press('Enter');
    await expect(page.getByTestId('base-urls-saved')).toContainText('Saved');
    await page.getByTestId('key-input-test').fill('sk_test_NotAKeyOfThisService1');
    await page.getByTestId('key-save-test').click();
    const error = page.getByTestId('key-error-test');
    await expect(error).toHaveAttribute('data-code', 'KEY_REJECTED', { timeout: 30_000 });
    await expect(page.getByTestId('key-error-test-action')).toContainText('copy the whole key for this environment');
    await expect(error).not.toContainText(/ask a supervisor/i);
    await expect(page.getByTestId('key-status-test')).toContainText('No key set');
  } finally {
    await station.stop();
    removeDataDir(station.dataDir);
    await service.close();
  }
});

test('TEST with no address and no key: choosing it says so, Esc stays on the sandbox, switching anyway leaves a warning', async ({ page, webHost }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openStation(page, webHost);
  await page.keyboard.press('F4');
  await page.getByTestId('environment-test').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('TEST is not set up');
  await expect(dialog).toContainText('TEST is not set up: no delivery service address and no API key');
  // The safe choice has the focus: the bench keeps printing where it does.
  await expect(dialog.getByRole('button', { name: 'Stay on SANDBOX' })).toBeFocused();
  await page.screenshot({ path: `${screenshotDir}/setup-test-not-set-up-1024x768.png` });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('environment')).toHaveText('SANDBOX');
  await expect(page.getByTestId('environment-sandbox')).toBeChecked();

  await page.getByTestId('environment-test').click();
  await dialog.getByRole('button', { name: 'Switch to TEST anyway' }).click();
  await expect(page.getByTestId('environment')).toHaveText('TEST');
  await expect(page.getByTestId('environment-not-set-up')).toContainText('TEST is not set up: no delivery service address and no API key');
});

test('after switching from the sandbox to TEST the Scan screen shows none of the sandbox results or last labels', async ({ page, webHost, sandboxOrders }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openStation(page, webHost);
  const order = draftOrder(sandboxOrders, 0);
  await scanLikeAScanner(page, order.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('recent-0')).toContainText(order.orderRef);

  await page.keyboard.press('F4');
  await page.getByTestId('environment-test').click();
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('environment')).toHaveText('TEST');
  await page.keyboard.press('F1');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'idle');
  await expect(page.getByTestId('recent-labels')).not.toContainText(order.orderRef);
  await expect(page.getByTestId('recent-0')).toHaveCount(0);
  // F6 has nothing of the sandbox to reprint in TEST.
  await page.keyboard.press('F6');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'idle');
});
