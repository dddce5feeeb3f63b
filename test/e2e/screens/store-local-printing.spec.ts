/**
 * A bench on the warehouse's shared store loses its database mid-shift. The banner says printing
 * would skip the duplicate guard; a lead allows local-only printing with a reason, and the banner
 * says who allowed it, when and why. Scans print on the sandbox's virtual Zebra (one of them an
 * order printed before the outage: the bench's own journal does not know the shared one), a
 * bundle run stays refused. The database comes back: the bench merges its local labels, says so,
 * the banner goes, and Setup › Store lists the order printed twice. The PostgreSQL server is the
 * test's own, on loopback; the store password is in the real OS keychain of the station's session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { removeDataDir, startStationHost, type StationHost } from '../station-host';
import { ownPostgres, type TestDatabase } from '../../support/postgres-server';
import { draftOrder, expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

const postgres = ownPostgres(test);

/** Setup › Store as the IT admin fills it in; used from the station's next start. */
async function chooseSharedStore(page: Page, { user, port, database: name, password }: TestDatabase['info']): Promise<void> {
  await page.keyboard.press('F4');
  const section = page.getByTestId('store-section');
  await section.getByLabel('Shared warehouse store (PostgreSQL)').check();
  await section.getByLabel('Address').fill(`postgres://${user}@127.0.0.1:${port}/${name}`);
  await section.getByLabel('Encryption (TLS)').selectOption('disable');
  // A test server on loopback has no certificate: the admin accepts that its identity is not checked.
  await page.getByTestId('store-accept-unverified').check();
  await page.getByTestId('store-password').fill(password);
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('store-saved')).toBeVisible();
}

async function nameBenchAndOperator(page: Page, bench: string, operator: string): Promise<void> {
  await page.keyboard.press('F4');
  await page.getByTestId('setting-station-name').fill(bench);
  await page.getByTestId('setting-station-name').press('Enter');
  await expect(page.getByTestId('topbar-station')).toHaveText(bench);
  await page.getByTestId('setting-operator').fill(operator);
  await page.getByTestId('setting-operator').press('Enter');
  await expect(page.getByTestId('operator-badge-name')).toHaveText(operator);
}

const clock = /\d\d:\d\d/.source;

test('a lead allows local-only printing while the shared store is offline; the labels are merged back and the one printed twice is listed', async ({ page, sandboxOrders }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  const keyringHome = mkdtempSync(join(tmpdir(), 'station-e2e-keyring-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'station-e2e-'));
  let station: StationHost | null = await startStationHost({ keyring: true, keyringHome, dataDir });
  const printedBefore = draftOrder(sandboxOrders, 0);
  const printedOffline = draftOrder(sandboxOrders, 1);
  try {
    await openStation(page, station);
    await chooseSharedStore(page, postgres.database().info);
    await station.stop();
    station = await startStationHost({ keyring: true, keyringHome, dataDir });
    await openStation(page, station);
    await nameBenchAndOperator(page, 'Bench 3', 'Sam');
    await expect(page.getByTestId('store-in-use')).toContainText('reachable');
    await expect(page.getByTestId('offline-twice-empty')).toHaveText('No label was printed twice while offline.');

    // Before the outage: one order printed through the shared journal, and a bundle chosen for a run.
    await page.keyboard.press('F1');
    await scanLikeAScanner(page, printedBefore.orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await expect(page.getByTestId('virtual-printer-count')).toHaveText('1 label printed', { timeout: 20_000 });
    await page.keyboard.press('F2');
    const bundle = page.getByTestId('bundle-choices').locator('li').first();
    await expect(bundle).toBeVisible({ timeout: 20_000 });
    await bundle.click();
    await expect(page.getByTestId('bundles-count')).toContainText('1 bundle chosen');

    // The database stops: nothing prints, and a lead may allow local-only printing.
    await page.keyboard.press('F1');
    await postgres.server().stop();
    const banner = page.getByTestId('store-offline');
    await expect(banner).toHaveAttribute('data-state', 'offline', { timeout: 20_000 });
    await expect(banner).toContainText('Shared store offline — printing would skip the duplicate guard');
    await scanLikeAScanner(page, printedOffline.orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    await expect(page.getByTestId('result-error-title')).toHaveText('Shared store offline: nothing was printed');

    // The form: keyboard reachable, the reason first, the lead's name prefilled with the operator's.
    // From the scan screen's title, one Shift+Tab back reaches the banner's button.
    await page.locator('#main h1').focus();
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByTestId('store-local-allow')).toBeFocused();
    await page.keyboard.press('Enter');
    const reason = page.getByTestId('allow-local-reason');
    await expect(reason).toBeFocused();
    await expect(page.getByTestId('allow-local-by')).toHaveValue('Sam');
    await expect(page.getByTestId('allow-local-submit')).toBeDisabled();
    await reason.fill('Database server replaced');
    await page.getByTestId('allow-local-by').fill('Lee');
    const scanAreaTop = (await page.locator('#main').boundingBox())?.y;
    await page.getByTestId('allow-local-submit').click();
    await expect(page.getByTestId('allow-local-form')).toHaveCount(0);
    await expect(banner).toHaveAttribute('data-state', 'local');
    await expect(page.getByTestId('store-offline-text')).toHaveText(
      new RegExp(
        `^Local-only printing on this bench — allowed by Lee at ${clock}: Database server replaced\\. Labels are journalled here and merged when the store is back; the duplicate guard only knows this bench meanwhile\\.$`,
      ),
    );
    // The scan screen has the focus back, and its scan area did not move.
    await expect(page.locator('#main h1')).toBeFocused();
    expect((await page.locator('#main').boundingBox())?.y).toBe(scanAreaTop);
    await page.screenshot({ path: `${screenshotDir}/store-local-printing-1024x768.png` });

    // Scans print locally on the virtual Zebra: a new order, and one the shared journal printed before.
    await scanLikeAScanner(page, printedOffline.orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await expect(page.getByTestId('result-order')).toHaveText(printedOffline.orderRef);
    await expect(page.getByTestId('virtual-printer-count')).toHaveText('2 labels printed', { timeout: 20_000 });
    await scanLikeAScanner(page, printedBefore.orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await expect(page.getByTestId('result-order')).toHaveText(printedBefore.orderRef);
    await expect(page.getByTestId('virtual-printer-count')).toHaveText('3 labels printed', { timeout: 20_000 });

    // A bundle run is not covered by local-only printing.
    await page.keyboard.press('F2');
    await expect(page.getByTestId('bundles-count')).toContainText('1 bundle chosen');
    await page.getByTestId('run-start').click();
    await expect(page.getByTestId('run-error-title')).toHaveText('Local-only printing covers scans, not bundle runs');
    await expect(page.getByTestId('run-error-action')).toHaveText('Scan the orders one by one, or start the run when the shared store is back');

    // The lead stops local-only printing before the database is back: scans are refused again.
    await page.keyboard.press('F1');
    await page.getByTestId('store-local-stop').click();
    await expect(banner).toHaveAttribute('data-state', 'offline');
    await expect(page.locator('#main h1')).toBeFocused();
    // The form opened again and cancelled: the focus is back on the button that opened it (WCAG 2.4.3).
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByTestId('store-local-allow')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('allow-local-reason')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('allow-local-form')).toHaveCount(0);
    await expect(page.getByTestId('store-local-allow')).toBeFocused();
    await scanLikeAScanner(page, draftOrder(sandboxOrders, 2).orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    await expect(page.getByTestId('result-error-title')).toHaveText('Shared store offline: nothing was printed');
    await expect(page.getByTestId('virtual-printer-count')).toHaveText('3 labels printed');

    // The database is back: the labels printed locally are merged all the same, the screen says so, the banner goes.
    await postgres.server().start();
    const notices = page.getByTestId('notices');
    await expect(notices).toContainText('2 local-only labels merged into the shared journal', { timeout: 30_000 });
    await expect(notices).toContainText('1 printed twice while offline — see Setup › Store');
    await expect(banner).toHaveCount(0, { timeout: 20_000 });

    // Setup › Store: the order printed before the outage and again during it.
    await page.keyboard.press('F4');
    const twice = page.getByTestId('offline-twice-item');
    await expect(twice).toHaveCount(1);
    await expect(twice.getByTestId('offline-twice-subject')).toHaveText(printedBefore.orderId);
    await expect(twice).toContainText(new RegExp(`Printed locally at .*${clock}.* on Bench 3 by Sam — Database server replaced \\(allowed by Lee\\)`));
    await expect(twice.getByTestId('offline-twice-other')).toHaveText(new RegExp(`^Other label: Bench 3 at .*${clock}.*, Printed$`));
    await expect(page.getByTestId('offline-twice-empty')).toHaveCount(0);
  } finally {
    await postgres.server().start().catch(() => undefined);
    await station?.stop();
    removeDataDir(dataDir);
    rmSync(keyringHome, { recursive: true, force: true });
  }
});
