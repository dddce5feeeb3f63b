/**
 * Shipping at the bench, as a packer with a scanner, on the embedded sandbox and its virtual
 * Zebra: import a to-ship file; scan a slip; 3 on the keyboard; Enter → 3 labels at the printer,
 * parcel n of 3 on screen; a corrected address confirmed with Enter; an undeliverable address
 * refused; a pickup point the service answers 406 for. Screenshots at 1280×800 and 1024×768.
 */
import { z } from 'zod';
import { createEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import { expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

const PointsSchema = z.object({ points: z.array(z.object({ pudoId: z.string(), carrierPudoId: z.string().optional() })) });

/** A EuroLocker point: Amsterdam's NL 5xxx area has pickup delivery by NordPost only, so an order there to it is 406. */
async function euroLockerPoint(): Promise<string> {
  // The sandbox is seeded deterministically: a twin started here has the station's pickup points.
  const twin = createEmbeddedSandbox({ printers: 0 });
  try {
    const api = await twin.api();
    const url = new URL(`${api.baseUrl.replace(/\/$/, '')}/pickup-points`);
    for (const [name, value] of Object.entries({ countryCode: 'NL', postalCode: '1012AB', maxResults: '100', maxDistanceKm: '500', types: 'PARCEL_LOCKER' })) url.searchParams.set(name, value);
    const response = await fetch(url, { headers: { 'api-key': api.apiKey } });
    const { points } = PointsSchema.parse(await response.json());
    const point = points.find((candidate) => candidate.carrierPudoId?.startsWith('EL'));
    if (!point) throw new Error('no EuroLocker point in the sandbox');
    return point.pudoId;
  } finally {
    await twin.close();
  }
}

test('ship from the bench: import, scan a slip, 3 parcels, Enter; corrected, undeliverable and 406 pickup point', async ({ page, webHost }) => {
  test.setTimeout(120_000);
  const pudoId = await euroLockerPoint();
  await page.setViewportSize({ width: 1280, height: 800 });
  await openStation(page, webHost);

  const csv = [
    'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,pudoId',
    'SHOP-3001,1101,Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer,',
    'SHOP-3002,1101,Prinsengracht,12,1016 GV,Amsterdm,NL,Ali Yilmaz,',
    'SHOP-3003,1101,Vismarkt,3,9711 KT,Groningen,NL,Sanne Bos,',
    `SHOP-3004,1101,Parade,8,5911 CE,Venlo,NL,Lotte Smit,${pudoId}`,
  ].join('\n');
  await page.getByTestId('ship-import-file').setInputFiles({ name: 'shop-export.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('ship-import-report')).toContainText('shop-export.csv: 4 new, 0 updated, 0 rejected', { timeout: 20_000 });

  // Scan the slip: the ship panel, not a print.
  await page.getByTestId('nav-history').focus();
  await scanLikeAScanner(page, 'SHOP-3001');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('ship-recipient')).toHaveText('Eva de Boer');
  await expect(page.getByTestId('ship-parcels')).toHaveText('1');
  await page.keyboard.press('3');
  await expect(page.getByTestId('ship-parcels')).toHaveText('3');
  await page.screenshot({ path: `${screenshotDir}/ship-panel-1280x800.png` });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
  const labels = page.getByTestId('ship-label');
  await expect(labels).toHaveCount(3);
  await expect(labels.nth(1)).toContainText('Parcel 2 of 3');
  const barcodes = (await labels.allTextContents()).map((text) => /: (\S+)/.exec(text)?.[1]);
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('3 labels printed', { timeout: 20_000 });
  await expect(page.getByTestId('virtual-printer-latest-barcode')).toHaveText(barcodes[2]!);
  await page.screenshot({ path: `${screenshotDir}/ship-shipped-1280x800.png` });

  // A second Enter creates nothing and prints nothing again (now at 1024×768: the resize and the
  // relayout of the last labels are done before the next scan is typed).
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'shipped');
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('3 labels printed');
  await expect(page.getByTestId('recent-2')).toContainText('Parcel 1 of 3');

  // The geocoder corrects the city: shown as a difference; Enter ships to the corrected address.
  await scanLikeAScanner(page, 'SHOP-3002');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ship-corrected')).toContainText('Amsterdm', { timeout: 20_000 });
  await expect(page.getByTestId('ship-corrected')).toContainText('Amsterdam');
  await page.screenshot({ path: `${screenshotDir}/ship-corrected-1024x768.png` });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('4 labels printed', { timeout: 20_000 });

  // Outside every delivery area: red, the reason and the next step; nothing printed.
  await scanLikeAScanner(page, 'SHOP-3003');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ship-refused')).toHaveAttribute('data-code', 'NOT_DELIVERABLE', { timeout: 20_000 });
  await expect(page.getByTestId('ship-refused')).toContainText('exception shelf');
  await page.screenshot({ path: `${screenshotDir}/ship-undeliverable-1024x768.png` });

  // A pickup point the service will not take for this address: red, the point named, the lead's choices.
  await scanLikeAScanner(page, 'SHOP-3004');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ship-refused')).toHaveAttribute('data-code', 'PICKUP_POINT_REJECTED', { timeout: 20_000 });
  await expect(page.getByTestId('ship-refused')).toContainText(pudoId);
  await expect(page.getByTestId('ship-refused')).toContainText('another pickup point, or home delivery');
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('4 labels printed');
});

test('the ship panel in Dutch at 1024×768, by keyboard and scanner only: a parcels card, Esc closes, Enter ships', async ({ page, webHost }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await openStation(page, webHost);
  await page.keyboard.press('F4');
  await page.getByTestId('setting-language').selectOption('nl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await page.keyboard.press('F1');
  const csv = 'orderRef;locationId;deliveryStreet;deliveryNumber;deliveryPostalCode;deliveryCity;deliveryCountry;deliveryName;parcels\nWINKEL-7;1101;Prinsengracht;12;1016 GV;Amsterdm;NL;Ali Yilmaz;2\n';
  await page.getByTestId('ship-import-file').setInputFiles({ name: 'winkel.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('ship-import-report')).toContainText('winkel.csv: 1 nieuw, 0 bijgewerkt, 0 geweigerd');

  await scanLikeAScanner(page, 'WINKEL-7');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('ship-parcels')).toHaveText('2');
  await expect(page.getByTestId('ship-panel')).toContainText('Druk op Enter om te verzenden');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('ship-panel')).toHaveCount(0);

  await scanLikeAScanner(page, 'WINKEL-7');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await scanLikeAScanner(page, 'STATION:PARCELS:1');
  await expect(page.getByTestId('ship-parcels')).toHaveText('1');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ship-corrected')).toContainText('Plaats', { timeout: 20_000 });
  await expect(page.getByTestId('ship-corrected')).toContainText('De dienst heeft het adres verbeterd');
  await page.screenshot({ path: `${screenshotDir}/ship-corrected-dutch-1024x768.png` });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
  await expect(page.getByTestId('ship-label')).toHaveText([/^Pakket 1 van 1: DT\d+$/]);
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  await page.screenshot({ path: `${screenshotDir}/ship-shipped-dutch-1024x768.png` });
});

test('a parcel with no slip: the new-shipment form by keyboard only, postal code checked as typed, coverage with its age, a pickup point picked, shipped', async ({ page, webHost }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openStation(page, webHost);
  await page.getByTestId('new-shipment-open').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('new-shipment')).toBeVisible();
  await expect(page.getByTestId('new-shipment-coverage')).toContainText(/NL.*fetched 0 min ago/, { timeout: 20_000 });

  const typeInto = async (field: string, text: string) => {
    await page.getByTestId(`new-shipment-${field}`).focus();
    await page.keyboard.type(text, { delay: 30 });
  };
  await typeInto('orderRef', 'RETURN-77');
  await typeInto('recipientName', 'Leverancier B.V.');
  await typeInto('street', 'Damrak');
  await typeInto('houseNumber', '20');
  await typeInto('postalCode', '9711 KT');
  await expect(page.getByTestId('new-shipment-postal')).toHaveAttribute('data-state', 'not-served', { timeout: 20_000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('1012 LH', { delay: 30 });
  await expect(page.getByTestId('new-shipment-postal')).toHaveAttribute('data-state', 'served', { timeout: 20_000 });
  await typeInto('city', 'Amsterdam');

  // Pickup points near the address: parcel lockers only, nearest first, chosen with the arrow keys.
  await page.getByTestId('new-shipment-pickup-type').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('new-shipment-pickup-type')).toHaveValue('PARCEL_LOCKER');
  await page.getByTestId('new-shipment-find-points').focus();
  await page.keyboard.press('Enter');
  const points = page.getByTestId('new-shipment-point');
  await expect(points.first()).toBeVisible({ timeout: 20_000 });
  const distances = (await points.allTextContents()).map((text) => Number(/([\d.]+) km/.exec(text)?.[1]));
  expect(distances).toEqual([...distances].sort((a, b) => a - b));
  expect((await points.allTextContents()).every((text) => text.includes('parcel locker'))).toBe(true);
  await page.getByTestId('new-shipment-points').getByRole('radio').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(points.first().getByRole('radio')).toBeChecked();
  await page.screenshot({ path: `${screenshotDir}/new-shipment-1280x800.png` });

  await page.getByTestId('new-shipment-submit').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('ship-recipient')).toHaveText('Leverancier B.V.');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('1 label printed', { timeout: 20_000 });
});

test('the new-shipment form in Dutch at 1024×768: no pickup points where the network does not reach offers home delivery; Esc closes', async ({ page, webHost }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openStation(page, webHost);
  await page.keyboard.press('F4');
  await page.getByTestId('setting-language').selectOption('nl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await page.keyboard.press('F1');
  await page.getByTestId('new-shipment-open').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Nieuwe zending' })).toBeVisible();
  await page.getByTestId('new-shipment-countryCode').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('LU', { delay: 30 });
  await page.getByTestId('new-shipment-postalCode').focus();
  await page.keyboard.type('1611', { delay: 30 });
  await page.getByTestId('new-shipment-find-points').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('new-shipment-no-points')).toHaveText('Geen afhaalpunten bij dit adres: het gaat naar het huisadres.', { timeout: 20_000 });
  await expect(page.getByTestId('new-shipment-coverage')).toContainText('min geleden opgehaald');
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  await page.screenshot({ path: `${screenshotDir}/new-shipment-dutch-1024x768.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('new-shipment')).toHaveCount(0);
});
