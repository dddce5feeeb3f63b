/**
 * The first-hour guide's templates, as a newcomer tries them on a fresh sandbox (issue 39, items 1
 * and 2): each downloaded from the guide and imported as it is, then what it made is scanned and
 * printed; the manifest template no longer takes a sandbox order's barcode, a manifest that gives
 * a barcode to a second order is told so row by row, and a scan that fits two orders lists both
 * for the packer to choose from.
 */
import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import type { SandboxOrder } from '../../../src/main/embedded-sandbox';
import { draftOrder, expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { importManifestOnSetup, openStation, scanLikeAScanner, screenshotDir } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

/** The next day after today with deliveries (Monday to Saturday), in this machine's local time. */
function nextDeliveryDay(): string {
  const day = new Date();
  day.setHours(12, 0, 0, 0);
  do day.setTime(day.getTime() + 24 * 3_600_000);
  while (day.getDay() === 0);
  return [day.getFullYear(), day.getMonth() + 1, day.getDate()].map((part) => String(part).padStart(2, '0')).join('-');
}

/** Downloads a template from the open guide, as the lead clicks it; its file name and text. */
async function downloadTemplate(page: Page, id: string): Promise<{ name: string; text: string }> {
  const download: Promise<Download> = page.waitForEvent('download');
  await page.getByTestId(`guide-template-${id}`).click();
  const file = await download;
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '') };
}

const cell = (csv: string, column: string) => {
  const [header, row] = csv.trim().split('\n');
  return row!.split(',')[header!.split(',').indexOf(column)];
};

const words = {
  en: { manifestDone: '1 new, 0 updated, 0 with problems', toShipDone: '1 new, 0 updated, 0 rejected', uploadReady: '1 ready, 0 with errors', uploadDone: 'Completed — 1 created' },
  nl: { manifestDone: '1 nieuw, 0 bijgewerkt, 0 met problemen', toShipDone: '1 nieuw, 0 bijgewerkt, 0 geweigerd', uploadReady: '1 klaar, 0 met fouten', uploadDone: 'Voltooid — 1 aangemaakt' },
} as const;

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}", each template of the guide, downloaded and imported as it is into a fresh sandbox, prints what it made; the sandbox's orders still scan to one order`, async ({ page, webHost, sandboxOrders }) => {
    test.setTimeout(150_000);
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.keyboard.press('F4');
    await page.getByTestId('guide-open-setup').click();
    const manifest = await downloadTemplate(page, 'manifest');
    const toShip = await downloadTemplate(page, 'to-ship');
    const upload = await downloadTemplate(page, 'upload');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('guide')).toHaveCount(0);
    // Dated the day it was downloaded: the next delivery day, never a day gone by.
    expect(cell(toShip.text, 'deliveryDate')).toBe(nextDeliveryDay());
    expect(cell(upload.text, 'deliveryDate')).toBe(nextDeliveryDay());
    // None of its identifiers is one of the sandbox's orders.
    const sandboxIdentifiers = new Set(sandboxOrders.flatMap((order) => [order.orderRef, order.barcode, order.bundleId, order.orderId]));
    for (const [file, column] of [
      [manifest, 'orderRef'],
      [manifest, 'barcode'],
      [manifest, 'bundleId'],
      [toShip, 'orderRef'],
      [upload, 'orderRef'],
    ] as const) {
      expect(sandboxIdentifiers.has(cell(file.text, column)!), `${file.name} ${column}`).toBe(false);
    }

    // Today's manifest: its order is found by its barcode and prints on the sandbox's printer.
    await importManifestOnSetup(page, manifest);
    await expect(page.getByTestId('import-report')).toContainText(words[language].manifestDone);
    await page.keyboard.press('F1');
    const barcode = cell(manifest.text, 'barcode')!;
    await scanLikeAScanner(page, barcode);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await expect(page.getByTestId('result-order')).toHaveText(cell(manifest.text, 'orderRef')!);
    await expect(page.getByTestId('virtual-printer-latest-barcode')).toHaveText(barcode, { timeout: 20_000 });
    // Its ref finds the same one order: printed already, not "fits more than one order".
    await scanLikeAScanner(page, cell(manifest.text, 'orderRef')!);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate', { timeout: 20_000 });
    await page.keyboard.press('Escape');

    // Orders to ship: its slip opens the ship panel, Enter creates both parcels and prints them.
    await page.getByTestId('ship-import-file').setInputFiles({ name: toShip.name, mimeType: 'text/csv', buffer: Buffer.from(toShip.text) });
    await expect(page.getByTestId('ship-import-report')).toContainText(words[language].toShipDone);
    await scanLikeAScanner(page, cell(toShip.text, 'orderRef')!);
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
    await expect(page.getByTestId('ship-label')).toHaveCount(2);
    await page.keyboard.press('Escape');

    // The spreadsheet upload: its row is created at the sandbox, then its slip prints.
    await page.keyboard.press('F2');
    await page.getByTestId('upload-locations').fill('1101');
    await page.getByTestId('upload-file').setInputFiles({ name: upload.name, mimeType: 'text/csv', buffer: Buffer.from(upload.text) });
    await expect(page.getByTestId('upload-counts')).toContainText(words[language].uploadReady, { timeout: 20_000 });
    // Its label is left for the scan below, which prints it.
    await page.getByTestId('upload-print-none').check();
    await page.getByTestId('upload-start').click();
    await expect(page.getByTestId('upload-result')).toContainText(words[language].uploadDone, { timeout: 30_000 });
    await page.keyboard.press('F1');
    await scanLikeAScanner(page, cell(upload.text, 'orderRef')!);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await expect(page.getByTestId('result-order')).toHaveText(cell(upload.text, 'orderRef')!);

    // The sandbox's own orders, the one whose barcode the old manifest template took among them, print as before.
    await scanLikeAScanner(page, draftOrder(sandboxOrders, 0).barcode);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await expect(page.getByTestId('result-order')).toHaveText(draftOrder(sandboxOrders, 0).orderRef);
    await page.screenshot({ path: `${screenshotDir}/guide-templates-${language}-1024x768.png` });
  });
}

/** A manifest of a lead's that lists another order under `order`'s barcode (or its ref). */
const secondOrderUnder = (order: SandboxOrder, column: 'barcode' | 'orderRef') =>
  `orderId,${column},recipient,bundleId\nB7F0C1D2-SECOND-ORDER,${order[column]},Piet Second,BND-SECOND\n`;

const barcodeTaken = {
  en: (barcode: string, ref: string) => `Barcode ${barcode} belongs to another order (${ref}): this row was left out, so a scan of that barcode still finds one order. Check the barcode in the file`,
  nl: (barcode: string, ref: string) => `Barcode ${barcode} hoort bij een andere order (${ref}): deze rij is overgeslagen, zodat een scan van die barcode één order blijft vinden. Controleer de barcode in het bestand`,
} as const;

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}", a manifest row that gives a sandbox order's barcode to another order is left out with the reason, and that barcode still prints its own order`, async ({ page, webHost, sandboxOrders }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    const order = draftOrder(sandboxOrders, 3);
    await importManifestOnSetup(page, { name: 'second.csv', text: secondOrderUnder(order, 'barcode') });
    const report = page.getByTestId('import-report');
    await expect(report).toHaveAttribute('data-failed', '1');
    await expect(report.locator('tbody tr')).toHaveCount(1);
    await expect(report.locator('tbody tr td').nth(0)).toHaveText('2');
    await expect(report.locator('tbody tr td').nth(1)).toHaveText(barcodeTaken[language](order.barcode, order.orderRef));
    await page.screenshot({ path: `${screenshotDir}/import-barcode-taken-${language}-1024x768.png` });
    await page.keyboard.press('F1');
    await scanLikeAScanner(page, order.barcode);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await expect(page.getByTestId('result-order')).toHaveText(order.orderRef);
  });
}

const choose = {
  en: { title: 'Which order is this parcel?', line: (ref: string) => `“${ref}” fits 2 orders. Press the number of this parcel’s order, or click it.` },
  nl: { title: 'Bij welke order hoort dit pakket?', line: (ref: string) => `“${ref}” past bij 2 orders. Druk op het nummer van de order van dit pakket, of klik erop.` },
} as const;

for (const [language, how] of [
  ['en', 'its number key'],
  ['nl', 'a click'],
] as const) {
  test(`in "${language}", a scan that fits two orders lists both to choose from; the packer picks this parcel's order by ${how} and it prints`, async ({ page, webHost, sandboxOrders }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    const order = draftOrder(sandboxOrders, 4);
    // Two orders may share a ref (a lead's file names a second one under it): the scan must not guess.
    await importManifestOnSetup(page, { name: 'shared.csv', text: secondOrderUnder(order, 'orderRef') });
    await page.keyboard.press('F1');
    await scanLikeAScanner(page, order.orderRef);
    const panel = page.getByTestId('scan-result');
    await expect(panel).toHaveAttribute('data-state', 'ambiguous', { timeout: 20_000 });
    await expect(page.getByTestId('result-title')).toHaveText(choose[language].title);
    await expect(page.getByTestId('result-ambiguous-line')).toHaveText(choose[language].line(order.orderRef));
    const choices = page.getByTestId('ambiguous-choices').getByRole('button');
    await expect(choices).toHaveCount(2);
    await expect(choices.filter({ hasText: `${order.orderRef} · ${order.deliveryName}` })).toHaveCount(1);
    await expect(choices.filter({ hasText: `${order.orderRef} · Piet Second` })).toHaveCount(1);
    await expect(choices.filter({ hasText: 'BND-SECOND' })).toHaveCount(1);
    await page.screenshot({ path: `${screenshotDir}/scan-ambiguous-${language}-1024x768.png` });
    const index = (await choices.allTextContents()).findIndex((text) => text.includes(order.deliveryName));
    if (how === 'its number key') await page.keyboard.press(String(index + 1));
    else await choices.nth(index).click();
    await expect(panel).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await expect(page.getByTestId('result-order')).toHaveText(order.orderRef);
    await expect(page.getByTestId('result-recipient')).toHaveText(order.deliveryName);
    await expect(page.getByTestId('virtual-printer-latest-barcode')).toHaveText(order.barcode, { timeout: 20_000 });
  });
}
