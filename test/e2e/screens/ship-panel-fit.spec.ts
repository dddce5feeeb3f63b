/**
 * The ship panel at 1024×768 (issue 39, accessibility pass), in English and Dutch: the Parcels
 * value — the number the packer is there to set — is in view as the panel opens and nothing lies
 * over it (the sticky Close button covered it, in Dutch "Sluiten" wholly); Close is whole and in
 * view below the facts.
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
