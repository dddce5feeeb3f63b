/**
 * What the packer at the bench is shown (issue 39, items 10 and 11), in English and Dutch at
 * 1024×768: "Where is this parcel" belongs to the scan it was opened from and goes with it (Esc,
 * then a badge, leaves "Ready to scan" alone); an order that is not found tells the packer what a
 * packer can do — check the slip, scan again, or call the lead — not to import a manifest.
 */
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation, scanLikeAScanner } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const words = {
  en: { where: 'Where is this parcel', ready: 'Ready to scan', notFound: 'Order not found', action: 'Check the slip and scan again, or call your lead' },
  nl: { where: 'Waar is dit pakket', ready: 'Klaar om te scannen', notFound: 'Order niet gevonden', action: 'Controleer de pakbon en scan opnieuw, of roep je leidinggevende' },
} as const;

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}": the whereabouts go with their scan, and "not found" asks nothing of a packer that is a lead's job`, async ({ page, webHost }) => {
    test.setTimeout(90_000);
    const say = words[language];
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    const sample = page.getByTestId('sample-order').first();
    await expect(sample).toBeVisible({ timeout: 20_000 });
    const ref = ((await sample.textContent()) ?? '').trim();
    await scanLikeAScanner(page, ref);
    const result = page.getByTestId('scan-result');
    await expect(result).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });

    await page.getByTestId('scan-where').click();
    const where = page.getByTestId('whereabouts');
    await expect(where).toContainText(say.where);
    await expect(page.getByTestId('whereabouts-order')).toHaveText(ref);
    // Esc clears the scan; the panel about it goes too, and a badge scanned next brings nothing back.
    await page.keyboard.press('Escape');
    await expect(result).toHaveAttribute('data-state', 'idle');
    await expect(result).toContainText(say.ready);
    await expect(where).toHaveCount(0);
    await scanLikeAScanner(page, 'STATION:OPERATOR:Anna');
    await expect(page.getByTestId('operator-badge-name')).toHaveText('Anna');
    await expect(result).toHaveAttribute('data-state', 'idle');
    await expect(where).toHaveCount(0);
    await expect(page.getByTestId('scan-where')).toHaveCount(0);

    // Opened again, then the next scan: the panel is about the old parcel, so it goes.
    await scanLikeAScanner(page, ref);
    await expect(result).toHaveAttribute('data-state', 'duplicate', { timeout: 20_000 });
    await page.getByTestId('scan-where').click();
    await expect(where).toBeVisible();
    await scanLikeAScanner(page, 'NW-000000-9');
    await expect(result).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    await expect(result).toContainText(say.notFound);
    await expect(result).toContainText(say.action);
    await expect(where).toHaveCount(0);
  });
}
