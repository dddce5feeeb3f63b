/**
 * One name for one parcel (issue 39, item 16), in English and Dutch at 1024×768: the second
 * parcel of a shipped order is SHOP-…-P2 at the service, on its label and in History; the ship
 * panel and the last labels call it so too (beside "Parcel 2 of 2"), and a lead who cancels it in
 * History reads the same name on the row, in the question and in the answer.
 */
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation, scanLikeAScanner } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const words = {
  en: { parcel2: 'Parcel 2 of 2', title: (ref: string) => `Cancel ${ref} at the delivery service?`, done: (ref: string) => `${ref} is cancelled — keep it off the pallet.` },
  nl: { parcel2: 'Pakket 2 van 2', title: (ref: string) => `${ref} annuleren bij de bezorgdienst?`, done: (ref: string) => `${ref} is geannuleerd — houd het van de pallet.` },
} as const;

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}": a shipped order's second parcel has one name on the ship panel, the last labels and History's void`, async ({ page, webHost }) => {
    test.setTimeout(90_000);
    const say = words[language];
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await scanLikeAScanner(page, 'STATION:OPERATOR:Anna');
    const ref = `SHOP-N${language.toUpperCase()}`;
    const second = `${ref}-P2`;
    const csv = ['orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,parcels', `${ref},1101,Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer,2`].join('\n');
    await page.getByTestId('ship-import-file').setInputFiles({ name: 'shop.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByTestId('ship-import-report')).toContainText('shop.csv');
    await scanLikeAScanner(page, ref);
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
    const shippedLine = page.getByTestId('ship-label').nth(1);
    await expect(shippedLine).toContainText(say.parcel2);
    await expect(shippedLine).toContainText(second);
    const barcode = /: (\S+)/.exec((await shippedLine.textContent()) ?? '')?.[1] ?? '';
    expect(barcode).not.toBe('');
    await expect(page.getByTestId('recent-0').locator('.recent-ref')).toHaveText(second);
    await expect(page.getByTestId('recent-0')).toContainText(say.parcel2);

    await page.keyboard.press('F5');
    const row = page.locator('.history-row').filter({ hasText: barcode });
    await expect(row.locator('td').nth(1)).toHaveText(second, { timeout: 20_000 });
    await row.click();
    await page.locator('[data-testid^="history-void-"]').click();
    await expect(page.locator('dialog[open] h2')).toHaveText(say.title(second));
    await page.getByTestId('void-reason').fill('customer called');
    await page.getByTestId('void-submit').click();
    await expect(page.getByTestId('history-actions').locator('[data-testid^="history-voided-"]')).toHaveText(say.done(second), { timeout: 30_000 });
    await expect(row.locator('td').nth(1)).toHaveText(second);
  });
}
