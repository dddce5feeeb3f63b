/**
 * The ship panel at 1024×768 (issue 39, accessibility pass), in English and Dutch: the Parcels
 * value — the number the packer is there to set — is in view as the panel opens and nothing lies
 * over it (the sticky Close button covered it, in Dutch "Sluiten" wholly); Close is whole and in
 * view below the facts. With the packer signed in (English and German), the whole order is read
 * without scrolling: the address and the measures sit above Close, none under it.
 */
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation, scanLikeAScanner } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}" the ship panel's Parcels value is in view and nothing covers it; Close sits below the facts`, async ({ page, webHost }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    const csv = ['orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,weight,length,width,height', 'SHOP-FIT,1101,Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer,1200,300,200,100'].join('\n');
    await page.getByTestId('ship-import-file').setInputFiles({ name: 'shop.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByTestId('ship-import-report')).toContainText('shop.csv');
    await scanLikeAScanner(page, 'SHOP-FIT');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('3');
    const parcels = page.getByTestId('ship-parcels');
    await expect(parcels).toHaveText('3');
    await expect(parcels).toBeInViewport({ ratio: 1 });
    const close = page.getByTestId('ship-close');
    await expect(close).toBeInViewport({ ratio: 1 });
    // What a person sees at the value's place is the value itself, not a button over it.
    const onTop = await parcels.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const hit = element.ownerDocument.elementFromPoint(box.left + 4, box.top + box.height / 2);
      return hit !== null && element.contains(hit);
    });
    expect(onTop).toBe(true);
    const [value, button] = [(await parcels.boundingBox())!, (await close.boundingBox())!];
    expect(button.y).toBeGreaterThanOrEqual(value.y + value.height);
  });
}

for (const language of ['en', 'de'] as const) {
  test(`in "${language}", with the packer signed in, the ship panel shows the address and the measures above Close without scrolling`, async ({ page, webHost }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.getByTestId('operator-name').fill('Anna de Vries');
    await page.getByTestId('operator-sign-in').click();
    await expect(page.getByTestId('operator-prompt')).toHaveCount(0);
    const csv = ['orderRef,locationId,deliveryStreet,deliveryNumber,deliverySuffix,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,weight,length,width,height,parcels', 'SHOP-FIT,1101,Keizersgracht,100,A,1016 DK,Amsterdam,NL,Eva de Boer,1200,300,200,100,2'].join('\n');
    await page.getByTestId('ship-import-file').setInputFiles({ name: 'shop.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByTestId('ship-import-report')).toContainText('shop.csv');
    await scanLikeAScanner(page, 'SHOP-FIT');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    const address = page.getByTestId('ship-address');
    await expect(address).toContainText('Keizersgracht 100 A, 1016 DK Amsterdam, NL');
    // The panel's facts need no scrolling: every line of them is where the packer looks.
    const body = page.getByTestId('ship-panel').locator('.result-body');
    const overflow = await body.evaluate((element) => element.scrollHeight - element.clientHeight);
    expect(overflow, 'the facts scroll inside the panel').toBeLessThanOrEqual(1);
    await expect(address).toBeInViewport({ ratio: 1 });
    const measures = page.getByTestId('ship-panel').locator('.ship-facts dd').last();
    await expect(measures).toContainText('1200 g');
    const [last, close] = [(await measures.boundingBox())!, (await page.getByTestId('ship-close').boundingBox())!];
    expect(close.y).toBeGreaterThanOrEqual(last.y + last.height);
  });
}
