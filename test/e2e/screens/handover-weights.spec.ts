/**
 * The handover list of a day's shipped orders (issue 39, item 15), in English and Dutch at
 * 1024×768: an order shipped with the 1200 g the shop's export gave shows 1.2 kg on the list, not
 * "weight not known" (the service's webhooks have not told a weight yet), and closing the day a
 * second time keeps the first list beside the second instead of writing over it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation, scanLikeAScanner } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const summary = { en: '1 parcel in 1 bundle for the driver', nl: '1 pakket in 1 bundel voor de chauffeur' } as const;

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}": the handover list weighs what was shipped, and a second close keeps the first list`, async ({ page, webHost }) => {
    test.setTimeout(90_000);
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    const ref = `SHOP-W${language.toUpperCase()}1`;
    const csv = ['orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,weight', `${ref},1101,Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer,1200`].join('\n');
    await page.getByTestId('ship-import-file').setInputFiles({ name: 'shop.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByTestId('ship-import-report')).toContainText('shop.csv');
    await scanLikeAScanner(page, ref);
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });

    await page.keyboard.press('F5');
    await page.getByTestId('day-close').click();
    await expect(page.getByTestId('day-close-summary')).toContainText(summary[language], { timeout: 20_000 });
    const path = page.getByTestId('day-close-path');
    const first = ((await path.textContent()) ?? '').trim();
    expect(basename(first)).toMatch(/^handover-sandbox-\d{4}-\d{2}-\d{2}\.pdf$/);
    const text = execFileSync('pdftotext', ['-layout', first, '-'], { encoding: 'utf8' });
    expect(text).toContain('1 parcel in 1 bundle, 1.2 kg');
    expect(text).toMatch(new RegExp(`${ref}\\s+1\\.2 kg`));
    expect(text).not.toContain('weight not known');

    // The day closed again (a late parcel, a second driver): a list of its own beside the first.
    await page.getByTestId('day-close').click();
    await expect(path).toHaveText(first.replace(/\.pdf$/, '-2.pdf'), { timeout: 20_000 });
    expect(existsSync(first)).toBe(true);
  });
}
