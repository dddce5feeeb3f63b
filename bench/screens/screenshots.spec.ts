/**
 * The screenshots in docs/screens/: a lead's and an IT admin's screens at 1024×768 in Dutch and
 * English, on the embedded sandbox, brought about as a person would (sign in, print, open each
 * screen). Refreshed with `npm run screens`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { removeDataDir, startStationHost } from '../../test/e2e/station-host';
import { addPrinterNothingAnswers, addVirtualZebra, saveStoreNothingAnswers, addZebraInAnyLanguage, draftOrder, expect, test } from '../../test/e2e/screens/bench-fixture';
import { chooseLanguageBeforeStart } from '../../test/e2e/screens/layout-support';
import { importManifestOnSetup, openStation, scanLikeAScanner } from '../../test/e2e/screens/station-page';
import { freeLoopbackPort } from '../../test/support/postgres-server';

const folder = 'docs/screens';

const shot = (page: Page, name: string, language: string) => page.screenshot({ path: `${folder}/${name}-${language}-1024x768.png` });

for (const language of ['nl', 'en']) {
  test(`the lead's and the admin's screens in "${language}"`, async ({ page, webHost, sandboxOrders }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.getByTestId('operator-name').fill('Anna de Vries');
    await page.getByTestId('operator-sign-in').click();
    await expect(page.getByTestId('operator-prompt')).toHaveCount(0);
    for (const nth of [0, 2, 3]) {
      await scanLikeAScanner(page, draftOrder(sandboxOrders, nth).orderRef);
      await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', /printed|failed/, { timeout: 20_000 });
    }
    await expect(page.getByTestId('recent-0')).toBeVisible();
    await shot(page, 'scan', language);

    await page.keyboard.press('F2');
    await expect(page.getByTestId('bundles-to-print')).toBeVisible({ timeout: 20_000 });
    await shot(page, 'shift-start', language);

    await page.keyboard.press('F3');
    await expect(page.locator('[data-testid^="printer-where-"]').first()).toBeVisible();
    await shot(page, 'printers', language);

    await page.keyboard.press('F4');
    await expect(page.getByTestId('keys-section')).toBeVisible();
    await expect(page.getByTestId('scanner-check-barcode')).toHaveAttribute('data-drawn', 'true');
    await shot(page, 'setup', language);

    await page.getByTestId('scanner-check-barcode').evaluate((barcode) => barcode.scrollIntoView({ block: 'center' }));
    await shot(page, 'setup-scanner', language);

    await page.getByTestId('environment-test').click();
    await expect(page.getByTestId('environment-missing')).toBeVisible();
    await shot(page, 'setup-test-not-set-up', language);
    await page.keyboard.press('Escape');

    await page.getByTestId('keychain-unavailable').scrollIntoViewIfNeeded();
    await shot(page, 'setup-keychain', language);

    await page.getByTestId('guide-open-setup').click();
    await expect(page.getByTestId('guide')).toBeVisible();
    await shot(page, 'guide', language);
    await page.keyboard.press('Escape');

    await page.keyboard.press('F5');
    await expect(page.locator('.history-row').first()).toBeVisible({ timeout: 20_000 });
    await shot(page, 'history', language);

    await page.keyboard.press('Alt+6');
    await expect(page.getByTestId('floor-local')).toBeVisible();
    await expect(page.getByTestId('floor-bench')).toHaveCount(1);
    await shot(page, 'floor-own-file', language);

    await page.keyboard.press('F1');
    await page.getByTestId('ship-import-file').setInputFiles({
      name: 'winkel.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,parcels,weight\nWINKEL-7,1101,Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer,2,1200\n'),
    });
    await expect(page.getByTestId('ship-import-report')).toBeVisible();
    await scanLikeAScanner(page, 'WINKEL-7');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
    await shot(page, 'ship-shipped', language);
  });
}

test.describe('a Zebra’s settings', () => {
  // Half a roll since the printhead was last cleaned, a printhead some way into its life.
  test.use({ zebraOptions: { headCleanInchesStart: 1480, headNewInchesStart: 86_000 } });

  for (const language of ['nl', 'en']) {
    test(`the printer settings panel in "${language}"`, async ({ page, webHost, zebra }) => {
      await chooseLanguageBeforeStart(page, language);
      await openStation(page, webHost);
      await page.getByTestId('operator-name').fill('Anna de Vries');
      await page.getByTestId('operator-sign-in').click();
      await expect(page.getByTestId('operator-prompt')).toHaveCount(0);
      await addVirtualZebra(page, zebra, 'Bench Zebra', { anyLanguage: true });
      const card = page.locator('[data-testid^="printer-card-"]', { has: page.getByRole('heading', { name: 'Bench Zebra', exact: true }) });
      const id = (await card.getAttribute('data-testid'))?.slice('printer-card-'.length) ?? '';
      await page.getByTestId(`printer-settings-open-${id}`).click();
      await expect(page.getByTestId(`printer-darkness-${id}`)).toHaveValue('15', { timeout: 20_000 });
      await page.getByTestId(`printer-darkness-${id}`).selectOption('22');
      await page.getByTestId(`printer-speed-${id}`).selectOption('3');
      await page.getByTestId(`printer-settings-change-${id}`).click();
      await expect(page.getByTestId(`printer-settings-changed-${id}`)).toBeVisible({ timeout: 20_000 });
      // The settings with what the change did below them.
      await page.getByTestId(`printer-settings-changed-${id}`).evaluate((result) => result.scrollIntoView({ block: 'end' }));
      await shot(page, 'printer-settings', language);
    });
  }
});

for (const language of ['nl', 'en']) {
  test(`the choices and the causes a newcomer meets in "${language}"`, async ({ page, webHost, zebra, sandboxOrders }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.getByTestId('operator-name').fill('Bas van der Berg');
    await page.getByTestId('operator-sign-in').click();
    await addZebraInAnyLanguage(page, zebra, 'Zebra ZD421 at packing bench 2');

    // A manifest of a lead's: a second order under a sandbox order's ref, one under another's barcode.
    const shared = draftOrder(sandboxOrders, 4);
    const taken = draftOrder(sandboxOrders, 3);
    await importManifestOnSetup(page, {
      name: 'vandaag.csv',
      text: `orderId,orderRef,barcode,recipient,bundleId\nSECOND-ORDER-1,${shared.orderRef},,Piet de Vries,BND-SECOND\nSECOND-ORDER-2,SHOP-77,${taken.barcode},Jan Smit,BND-SECOND\n`,
    });
    await shot(page, 'setup-import-barcode-taken', language);
    await page.getByTestId('import-file').setInputFiles({ name: 'winkel-export.csv', mimeType: 'text/csv', buffer: Buffer.from('orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry\nW-1,1101,Damrak,1,1012 LH,Amsterdam,NL\n') });
    await expect(page.getByTestId('import-error')).toBeVisible({ timeout: 20_000 });
    await shot(page, 'setup-import-wrong-file', language);

    await page.keyboard.press('F1');
    await scanLikeAScanner(page, shared.orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'ambiguous', { timeout: 20_000 });
    await shot(page, 'scan-which-order', language);
    await page.keyboard.press('Escape');

    // Printed by Bas, who signs out: the next packer scans the same parcel under the sign-in bar.
    await scanLikeAScanner(page, draftOrder(sandboxOrders, 0).orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await page.getByTestId('operator-sign-out').click();
    await scanLikeAScanner(page, draftOrder(sandboxOrders, 0).orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate', { timeout: 20_000 });
    await shot(page, 'scan-already-printed-sign-in', language);
    await page.getByTestId('operator-later').click();

    await page.keyboard.press('F3');
    await page.getByTestId('printer-kind-network-zebra').check();
    await page.getByTestId('printer-name').fill('Dock Zebra');
    await page.getByTestId('printer-host').fill('127.0.0.1');
    await page.getByTestId('printer-port').fill(String(await freeLoopbackPort()));
    await page.getByTestId('printer-add').click();
    await expect(page.getByTestId('printer-added-not-answering')).toBeInViewport({ timeout: 20_000 });
    await shot(page, 'printers-not-answering', language);

    await page.keyboard.press('F4');
    await page.getByTestId('setting-base-url-test').fill(`http://127.0.0.1:${await freeLoopbackPort()}/test`);
    await page.getByTestId('setting-base-url-test').press('Enter');
    await page.getByTestId('key-input-test').fill('sk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345');
    await page.getByTestId('key-save-test').click();
    await expect(page.getByTestId('key-error-test')).toBeInViewport({ timeout: 30_000 });
    await shot(page, 'setup-nothing-answers', language);

    await page.getByTestId('store-kind-postgres').check();
    await page.getByTestId('store-address').fill('postgres://station:Geheim123@db.warehouse.lan:5432/packing');
    await page.getByTestId('store-test').click();
    await expect(page.getByTestId('store-error')).toBeInViewport({ timeout: 20_000 });
    await shot(page, 'setup-store-password-in-address', language);
  });

  test(`Printers › Add › Print queue on a computer with its print system stopped, in "${language}"`, async ({ page }) => {
    const host = await startStationHost({ env: { CUPS_SERVER: join(tmpdir(), 'no-cupsd-here', 'cups.sock') } });
    try {
      await chooseLanguageBeforeStart(page, language);
      await openStation(page, host);
      await page.getByTestId('operator-later').click();
      await page.keyboard.press('F3');
      await page.getByTestId('printer-kind-os-queue-raw').check();
      await expect(page.getByTestId('queues-error')).toBeVisible({ timeout: 20_000 });
      await page.getByTestId('queues-error').scrollIntoViewIfNeeded();
      await shot(page, 'printers-no-print-system', language);
    } finally {
      await host.stop();
      removeDataDir(host.dataDir);
    }
  });
}

for (const language of ['nl', 'en']) {
  test(`the upload, the printer search, the ship panel, the virtual printer and the scale in "${language}"`, async ({ page, webHost, sandboxOrders }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.getByTestId('operator-name').fill('Anna de Vries');
    await page.getByTestId('operator-sign-in').click();
    await expect(page.getByTestId('operator-prompt')).toHaveCount(0);

    // The ship panel as the packer sets the parcels, its Close under the facts.
    await page.getByTestId('ship-import-file').setInputFiles({
      name: 'winkel.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,weight,length,width,height\nWINKEL-8,1101,Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer,1200,300,200,100\n'),
    });
    await expect(page.getByTestId('ship-import-report')).toBeVisible();
    await scanLikeAScanner(page, 'WINKEL-8');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('2');
    await expect(page.getByTestId('ship-parcels')).toHaveText('2');
    await shot(page, 'ship-ready', language);
    await page.keyboard.press('Escape');

    // The virtual printer's labels, their tray focused from the keyboard.
    for (const order of sandboxOrders.filter((each) => each.status === 'draft' && each.zplAvailable).slice(0, 6)) {
      await scanLikeAScanner(page, order.orderRef);
      await expect(page.getByTestId('scan-result').filter({ hasText: order.orderRef })).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    }
    await page.getByTestId('virtual-printer-open').click();
    // Its tray takes the focus as it opens (the ring shows it scrolls from the keyboard).
    await expect(page.getByTestId('virtual-printer-labels').getByTestId('preview-image')).toHaveCount(6, { timeout: 30_000 });
    await shot(page, 'virtual-printer-labels', language);
    await page.keyboard.press('Escape');

    // A one-row upload, its labels printed on the sandbox's printer.
    await page.keyboard.press('F2');
    await page.getByTestId('upload-locations').fill('1101');
    await page.getByTestId('upload-file').setInputFiles({
      name: 'dag.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('orderRef;locationId;deliveryName;deliveryStreet;deliveryNumber;deliveryPostalCode;deliveryCity;deliveryCountry;weight\nDAG-1;1101;Sanne Bos;Damrak;1;1012 LH;Amsterdam;NL;1200\n'),
    });
    await expect(page.getByTestId('upload-print-choice')).toBeVisible();
    await page.getByTestId('upload-print-choice').locator('input[type="radio"]').first().check();
    await page.getByTestId('upload-start').click();
    await expect(page.getByTestId('upload-labels-result')).toHaveAttribute('data-tone', 'ok', { timeout: 60_000 });
    await page.getByTestId('upload-panel').scrollIntoViewIfNeeded();
    await shot(page, 'upload-printed', language);

    // Find printers on the sandbox: its virtual Zebra answers.
    await page.keyboard.press('F3');
    await page.getByTestId('discover-search').click();
    await expect(page.getByTestId('discover-row').first()).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('discover-printers').scrollIntoViewIfNeeded();
    await shot(page, 'printers-found', language);

    // A scale on a port this computer does not have.
    await page.keyboard.press('F4');
    await page.getByTestId('scale-kind-serial').check();
    await page.getByTestId('scale-port').fill('/dev/ttyUSB9');
    await page.getByTestId('scale-use').click();
    await expect(page.getByTestId('scale-error-title')).toBeVisible();
    await page.getByTestId('scale-section').scrollIntoViewIfNeeded();
    await shot(page, 'setup-scale-port', language);
  });

  test(`three printers in the top bar, and a store saved where nothing answers, in "${language}"`, async ({ page, zebra }) => {
    test.setTimeout(120_000);
    const keyringHome = mkdtempSync(join(tmpdir(), 'station-screens-keyring-'));
    const dataDir = mkdtempSync(join(tmpdir(), 'station-screens-'));
    let host = await startStationHost({ keyring: true, keyringHome, dataDir });
    try {
      await chooseLanguageBeforeStart(page, language);
      await openStation(page, host);
      await page.getByTestId('operator-name').fill('Anna de Vries');
      await page.getByTestId('operator-sign-in').click();
      await expect(page.getByTestId('printer-status')).toContainText('Virtual Zebra (sandbox)', { timeout: 20_000 });
      await addZebraInAnyLanguage(page, zebra, 'Bench Zebra');
      await addPrinterNothingAnswers(page, 'Dock Zebra');
      await page.keyboard.press('F1');
      await expect(page.getByTestId('printer-more')).toHaveAttribute('class', /tone-danger/, { timeout: 20_000 });
      await shot(page, 'top-bar-three-printers', language);

      await page.keyboard.press('F4');
      await saveStoreNothingAnswers(page);
      await expect(page.getByTestId('store-saved-not-answering')).toBeVisible({ timeout: 20_000 });
      await shot(page, 'setup-store-saved-not-answering', language);
      await host.stop();
      host = await startStationHost({ keyring: true, keyringHome, dataDir });
      await openStation(page, host);
      await expect(page.getByTestId('store-offline')).toHaveAttribute('data-state', 'offline', { timeout: 20_000 });
      await page.getByTestId('manual-entry').fill('NW-104286');
      await page.getByTestId('manual-entry').press('Enter');
      await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
      await shot(page, 'scan-store-not-answering', language);
    } finally {
      await host.stop();
      removeDataDir(dataDir);
      rmSync(keyringHome, { recursive: true, force: true });
    }
  });
}
