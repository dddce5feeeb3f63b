import { expect, test } from '../web-host-fixture';
import { removeDataDir, startStationHost } from '../station-host';
import { openStation, screenshotDir } from './station-page';

const typedKey = 'sk_live_Zq93mV7xP2bL8wT4';

test('switching to LIVE asks first, then the whole screen says LIVE with a red frame', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F4');

  // Cancel keeps the sandbox.
  await page.getByTestId('environment-live').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('Switch to LIVE?');
  // LIVE has no address or key on this bench: the dialog says so too, and staying is the default.
  await expect(page.getByTestId('environment-missing')).toContainText('LIVE is not set up: no delivery service address and no API key');
  await expect(dialog.getByRole('button', { name: 'Stay on SANDBOX' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('environment')).toHaveText('SANDBOX');
  await expect(page.getByTestId('environment-sandbox')).toBeChecked();

  // Confirmed: LIVE in the badge, in words, and a red frame around everything.
  await page.getByTestId('environment-live').click();
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('environment')).toHaveText('LIVE');
  await expect(page.getByTestId('environment-badge')).toContainText('Real couriers');
  const frame = String(await page.evaluate("getComputedStyle(document.querySelector('[data-testid=app]')).borderTopColor"));
  expect(frame).toBe('rgb(179, 38, 30)');
  // No sandbox panel once live.
  await page.keyboard.press('F1');
  await expect(page.getByTestId('first-run')).toHaveCount(0);
  await page.screenshot({ path: `${screenshotDir}/scan-live-1280x800.png` });

  // Back to test: no frame.
  await page.keyboard.press('F4');
  await page.getByTestId('environment-test').click();
  // TEST has no address and no key here: the screen says so and switches only when told to.
  await expect(page.getByTestId('environment-missing')).toContainText('no delivery service address and no API key');
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('environment')).toHaveText('TEST');
  expect(String(await page.evaluate("getComputedStyle(document.querySelector('[data-testid=app]')).borderTopColor"))).not.toBe('rgb(179, 38, 30)');
});

test('an API key typed into Setup is kept in the keychain and never shown back', async ({ page }) => {
  const station = await startStationHost({ keyring: true });
  try {
    await openStation(page, station);
    await page.keyboard.press('F4');
    const keys = page.getByTestId('keys-section');
    await expect(keys).toBeVisible();
    await expect(page.getByTestId('keychain-unavailable')).toHaveCount(0);
    await expect(page.getByTestId('key-status-live')).toContainText('No key set');
    // A key is kept for one address, so the address comes first.
    await page.getByTestId('setting-base-url-live').fill('https://api.delivery.example');
    await page.getByTestId('setting-base-url-live').press('Enter');
    await expect(page.getByTestId('base-urls-saved')).toContainText('Saved');

    const field = page.getByTestId('key-input-live');
    await expect(field).toHaveAttribute('type', 'password');
    await field.fill(typedKey);
    await page.getByTestId('key-live').getByLabel('Check it with the delivery service before saving').uncheck();
    await page.getByTestId('key-save-live').click();

    // The field is emptied at once; the screen only says a key is set, also after a reload.
    await expect(field).toHaveValue('');
    await expect(page.getByTestId('key-status-live')).toContainText('A key is set');
    expect(await page.content()).not.toContain(typedKey);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');
    await page.keyboard.press('F4');
    await expect(page.getByTestId('key-status-live')).toContainText('A key is set');
    await expect(page.getByTestId('key-input-live')).toHaveValue('');
    expect(await page.content()).not.toContain(typedKey);
    expect(await page.evaluate('document.body.innerText')).not.toContain(typedKey);
    await page.screenshot({ path: `${screenshotDir}/setup-keys-1280x800.png` });

    // Removed after a question: no key any more.
    await page.getByTestId('key-live').getByRole('button', { name: 'Remove the key' }).click();
    await page.getByTestId('confirm-yes').click();
    await expect(page.getByTestId('key-status-live')).toContainText('No key set');
  } finally {
    await station.stop();
    removeDataDir(station.dataDir);
  }
});

test('a new address for an environment with a key asks first, then removes the key', async ({ page }) => {
  const station = await startStationHost({ keyring: true });
  try {
    await openStation(page, station);
    await page.keyboard.press('F4');
    await page.getByTestId('setting-base-url-live').fill('https://api.delivery.example');
    await page.getByTestId('setting-base-url-live').press('Enter');
    await expect(page.getByTestId('base-urls-saved')).toContainText('Saved');
    await page.getByTestId('key-input-live').fill(typedKey);
    await page.getByTestId('key-live').getByLabel('Check it with the delivery service before saving').uncheck();
    await page.getByTestId('key-save-live').click();
    await expect(page.getByTestId('key-status-live')).toContainText('A key is set');

    // Another address: the screen says what happens to the key before anything changes.
    await page.getByTestId('setting-base-url-live').fill('https://elsewhere.example');
    await page.getByTestId('setting-base-url-live').press('Enter');
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog).toContainText('Change the LIVE address?');
    await expect(dialog).toContainText('removes the key');
    await page.screenshot({ path: `${screenshotDir}/setup-address-change-1280x800.png` });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-scan-ready', 'true');
    await page.keyboard.press('F4');
    await expect(page.getByTestId('setting-base-url-live')).toHaveValue('https://api.delivery.example');
    await expect(page.getByTestId('key-status-live')).toContainText('A key is set');

    await page.getByTestId('setting-base-url-live').fill('https://elsewhere.example');
    await page.getByTestId('setting-base-url-live').press('Enter');
    await page.getByTestId('confirm-yes').click();
    await expect(page.getByTestId('base-urls-saved')).toContainText('key was removed');
    await expect(page.getByTestId('key-status-live')).toContainText('No key set');
  } finally {
    await station.stop();
    removeDataDir(station.dataDir);
  }
});
