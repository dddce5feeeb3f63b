import { removeDataDir, startStationHost } from '../station-host';
import { draftOrder, expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

/**
 * Operator sign-in (issue 15): asked at first run and at each start, by typing or by scanning a
 * badge anywhere; shown on every screen; a reprint with nobody signed in asks there and then.
 */

test('asked at first run, typed in, shown on every screen, kept for the shift, asked again after a restart', async ({ page }) => {
  const host = await startStationHost();
  try {
    await openStation(page, host);
    await expect(page.getByTestId('operator-prompt')).toBeVisible();
    await expect(page.getByTestId('operator-badge-name')).toHaveText('Nobody signed in');
    await page.screenshot({ path: `${screenshotDir}/operator-asked-1280x800.png` });
    await page.getByTestId('operator-prompt').getByTestId('operator-name').fill('Anna de Vries');
    await page.getByTestId('operator-prompt').getByTestId('operator-name').press('Enter');
    await expect(page.getByTestId('operator-badge-name')).toHaveText('Anna de Vries');
    await expect(page.getByTestId('operator-prompt')).toHaveCount(0);

    for (const key of ['F2', 'F3', 'F4', 'F5']) {
      await page.keyboard.press(key);
      await expect(page.getByTestId('operator-badge-name')).toHaveText('Anna de Vries');
    }
    // Setup edits the same name.
    await page.keyboard.press('F4');
    await expect(page.getByTestId('setting-operator')).toHaveValue('Anna de Vries');

    // A page reload is the same shift.
    await page.reload();
    await expect(page.getByTestId('operator-badge-name')).toHaveText('Anna de Vries');
    await expect(page.getByTestId('operator-prompt')).toHaveCount(0);

    // The station restarted: a new shift asks again.
    await host.stop();
    const again = await startStationHost({ dataDir: host.dataDir });
    try {
      await openStation(page, again);
      await expect(page.getByTestId('operator-prompt')).toBeVisible();
      await expect(page.getByTestId('operator-badge-name')).toHaveText('Nobody signed in');
    } finally {
      await again.stop();
    }
  } finally {
    await host.stop().catch(() => undefined);
    removeDataDir(host.dataDir);
  }
});

test('an operator badge scanned on any screen signs in without being looked up; sign out ends the shift', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F3');
  await scanLikeAScanner(page, 'STATION:OPERATOR:Piet Jansen');
  await expect(page.getByTestId('operator-badge-name')).toHaveText('Piet Jansen');
  await expect(page.getByTestId('operator-prompt')).toHaveCount(0);
  // It stayed where it was scanned, and nothing was looked up.
  await expect(page.getByTestId('nav-printers')).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('F1');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'idle');

  // Another packer takes over the bench by scanning theirs.
  await scanLikeAScanner(page, 'station:operator:Sam');
  await expect(page.getByTestId('operator-badge-name')).toHaveText('Sam');

  await page.getByTestId('operator-sign-out').click();
  await expect(page.getByTestId('operator-badge-name')).toHaveText('Nobody signed in');
  await expect(page.getByTestId('operator-prompt')).toBeVisible();
});

test('a badge scanned into the sign-in field or the scan entry field signs in with the name on it', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.getByTestId('operator-prompt').getByTestId('operator-name').focus();
  await scanLikeAScanner(page, 'STATION:OPERATOR:Kees');
  await expect(page.getByTestId('operator-badge-name')).toHaveText('Kees');

  await page.getByTestId('manual-entry').focus();
  await scanLikeAScanner(page, 'STATION:OPERATOR:Fatima El Amrani');
  await expect(page.getByTestId('operator-badge-name')).toHaveText('Fatima El Amrani');
  // Not taken for a command with nothing to answer.
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'idle');
});

test('a reprint with nobody signed in asks for the name there and then, and goes ahead', async ({ page, webHost, sandboxOrders }) => {
  await openStation(page, webHost);
  await page.getByTestId('operator-later').click();
  await expect(page.getByTestId('operator-prompt')).toHaveCount(0);
  const order = draftOrder(sandboxOrders);
  await scanLikeAScanner(page, order.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });

  await scanLikeAScanner(page, order.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate');
  await page.keyboard.press('Enter');
  await page.keyboard.press('1');
  const name = page.getByTestId('operator-name');
  await expect(name).toBeFocused();
  await page.screenshot({ path: `${screenshotDir}/operator-asked-for-reprint-1280x800.png` });
  await name.fill('Joost');
  await name.press('Enter');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('scan-result')).toContainText('Reprinted');
  await expect(page.getByTestId('operator-badge-name')).toHaveText('Joost');

  // The journal says who reprinted.
  await page.keyboard.press('F5');
  await expect(page.getByRole('table')).toContainText('Joost');
});
