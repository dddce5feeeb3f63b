/**
 * What the imports want, said alike everywhere (issue 39, item 14), in English and Dutch at
 * 1024×768: the yes/no columns take "yes" or "no" on the upload panel as in the guide (the Dutch
 * panel said "ja of nee" where the Dutch guide said "yes of no"), and a shop's row without the
 * recipient's name, which the service would refuse at the bench, is refused at the import.
 */
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const words = {
  en: { flags: 'signature and notAtNeighbour (yes or no)', guide: 'yes/no columns as yes or no', counts: 'shop.csv: 1 new, 0 updated, 1 rejected' },
  nl: { flags: 'signature en notAtNeighbour (yes of no)', guide: 'ja/nee-kolommen als yes of no', counts: 'shop.csv: 1 nieuw, 0 bijgewerkt, 1 geweigerd' },
} as const;

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}": yes/no columns are said alike on the panel and in the guide, and a row without a recipient is refused at the import`, async ({ page, webHost }) => {
    const say = words[language];
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    const csv = [
      'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName',
      'SHOP-C1,1101,Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer',
      'SHOP-C2,1101,Damrak,1,1012 LH,Amsterdam,NL,',
    ].join('\n');
    await page.getByTestId('ship-import-file').setInputFiles({ name: 'shop.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const report = page.getByTestId('ship-import-report');
    await expect(report).toContainText(say.counts);
    await expect(report).toContainText('SHOP-C2');
    await expect(report).toContainText('deliveryName');

    await page.keyboard.press('F2');
    await expect(page.getByTestId('upload-columns')).toContainText(say.flags);
    await page.keyboard.press('F4');
    await page.getByTestId('guide-open-setup').click();
    await expect(page.getByTestId('guide-units')).toContainText(say.guide);
  });
}
