/**
 * The ship panel as a lead reads it (issue 23, item 6): the sandbox's "nothing ships" line at
 * full contrast, a styled Close, real plurals in four languages, the pickup point by its name,
 * the address the service corrected, and the shipped labels among the last labels so F6–F9
 * reprint them.
 */
import { z } from 'zod';
import type { Page } from '@playwright/test';
import { createEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart, contrastOf } from './layout-support';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

const PointsSchema = z.object({ points: z.array(z.object({ pudoId: z.string(), name: z.string(), carrierPudoId: z.string().optional() })) });

/** A pickup point near Amsterdam's Keizersgracht that the service takes an order to (not a EuroLocker one). */
async function amsterdamPoint(): Promise<{ pudoId: string; name: string }> {
  // The sandbox is seeded deterministically: a twin started here has the station's pickup points.
  const twin = createEmbeddedSandbox({ printers: 0 });
  try {
    const api = await twin.api();
    const url = new URL(`${api.baseUrl.replace(/\/$/, '')}/pickup-points`);
    for (const [name, value] of Object.entries({ countryCode: 'NL', postalCode: '1016 DK', maxResults: '20' })) url.searchParams.set(name, value);
    const response = await fetch(url, { headers: { 'api-key': api.apiKey } });
    const { points } = PointsSchema.parse(await response.json());
    const point = points.find((candidate) => !candidate.carrierPudoId?.startsWith('EL'));
    if (!point) throw new Error('no pickup point near 1016 DK in the sandbox');
    return point;
  } finally {
    await twin.close();
  }
}

/** The lead signs in at the prompt, so a reprint has a name for the journal. */
async function signIn(page: Page, name: string): Promise<void> {
  await page.getByTestId('operator-name').fill(name);
  await page.getByTestId('operator-sign-in').click();
  await expect(page.getByTestId('operator-badge-name')).toHaveText(name);
}

async function importShopExport(page: Page, csv: string): Promise<void> {
  await page.getByTestId('ship-import-file').setInputFiles({ name: 'shop.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('ship-import-report')).toBeVisible();
}

test('the ship panel in the sandbox: readable note, styled Close, plurals, the pickup point by name, the corrected address, and F6 reprints a shipped parcel', async ({ page, webHost }) => {
  test.setTimeout(120_000);
  const point = await amsterdamPoint();
  await page.setViewportSize({ width: 1024, height: 768 });
  await openStation(page, webHost);
  await signIn(page, 'Anna');
  await importShopExport(
    page,
    [
      'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,pudoId,parcels',
      `SHOP-8101,1101,Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer,${point.pudoId},2`,
      'SHOP-8102,1101,Prinsengracht,12,1016 GV,Amsterdm,NL,Ali Yilmaz,,1',
    ].join('\n'),
  );

  await scanLikeAScanner(page, 'SHOP-8101');
  const panel = page.getByTestId('ship-panel');
  await expect(panel).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  // The sandbox says it is the sandbox, readable on the panel's blue (WCAG AA: 4.5:1).
  const note = page.getByTestId('ship-test-note');
  await expect(note).toHaveText('Sandbox: practice only, nothing ships');
  expect(await contrastOf(note)).toBeGreaterThanOrEqual(4.5);
  // The pickup point by the name a person knows it by, not its id.
  await expect(page.getByTestId('ship-pickup-point')).toContainText(point.name, { timeout: 20_000 });
  await expect(page.getByTestId('ship-pickup-point')).not.toContainText('pp_');
  await page.screenshot({ path: `${screenshotDir}/ship-words-ready-1024x768.png` });

  await page.keyboard.press('Enter');
  await expect(panel).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
  await expect(panel).toContainText('Shipped: 2 labels');
  await expect(panel).not.toContainText('(s)');
  // Close is a button like every other: a finger's size, the station's border.
  const close = page.getByTestId('ship-close');
  const closeBox = (await close.boundingBox())!;
  expect(closeBox.height).toBeGreaterThanOrEqual(48);
  // The station's button class, not the browser's default grey button.
  await expect(close).toHaveClass(/\bbutton\b/);
  await expect(close).toHaveCSS('cursor', 'pointer');

  // Both parcels' labels are the last labels, each with its own F-key.
  const recent = page.getByTestId('recent-labels');
  await expect(recent.getByTestId('recent-0')).toContainText('Parcel 2 of 2');
  await expect(recent.getByTestId('recent-1')).toContainText('Parcel 1 of 2');
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('2 labels printed', { timeout: 20_000 });
  await page.getByTestId('ship-close').click();
  await page.keyboard.press('F7');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'reason');
  await page.keyboard.press('1');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  await expect(page.getByTestId('virtual-printer-count')).toHaveText('3 labels printed', { timeout: 20_000 });
  // Still two lines: the reprint took its parcel's place.
  await expect(recent.locator('.recent-item')).toHaveCount(2);

  // The service corrects the city: after Enter on the difference, the panel shows the address shipped to.
  await scanLikeAScanner(page, 'SHOP-8102');
  await expect(panel).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
  await expect(page.getByTestId('ship-address')).toContainText('Amsterdm');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ship-corrected')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Enter');
  await expect(panel).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
  await expect(panel).toContainText('Shipped: 1 label');
  await expect(page.getByTestId('ship-address')).toContainText('Amsterdam');
  await expect(page.getByTestId('ship-address')).not.toContainText('Amsterdm');
  await page.screenshot({ path: `${screenshotDir}/ship-words-corrected-1024x768.png` });
});

const shippedWords: Record<string, { one: string; two: string; note: string }> = {
  nl: { one: 'Verzonden: 1 etiket', two: 'Verzonden: 2 etiketten', note: 'Sandbox: alleen oefenen' },
  de: { one: 'Versendet: 1 Etikett', two: 'Versendet: 2 Etiketten', note: 'Sandbox: nur zum Üben' },
  pl: { one: 'Wysłano: 1 etykieta', two: 'Wysłano: 2 etykiety', note: 'Piaskownica: tylko ćwiczenia' },
};

for (const [language, words] of Object.entries(shippedWords)) {
  test(`the ship panel counts labels in "${language}" without "(s)"`, async ({ page, webHost }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1024, height: 768 });
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await importShopExport(
      page,
      [
        'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,parcels',
        'SHOP-8201,1101,Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer,1',
        'SHOP-8202,1101,Keizersgracht,102,1016 DK,Amsterdam,NL,Sanne Bos,2',
      ].join('\n'),
    );
    const panel = page.getByTestId('ship-panel');
    for (const [ref, expected] of [
      ['SHOP-8201', words.one],
      ['SHOP-8202', words.two],
    ] as const) {
      await scanLikeAScanner(page, ref);
      await expect(panel).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
      await expect(page.getByTestId('ship-test-note')).toContainText(words.note);
      await page.keyboard.press('Enter');
      await expect(panel).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
      await expect(panel).toContainText(expected);
      await expect(panel).not.toContainText('(');
      // Close whole inside the panel's visible area, not cut at its foot while the panel scrolls.
      const closeBottom = (await page.getByTestId('ship-close').boundingBox())!;
      const panelInside = await panel.evaluate((node) => {
        const box = node as unknown as { clientTop: number; clientHeight: number; getBoundingClientRect(): { top: number } };
        return box.getBoundingClientRect().top + box.clientTop + box.clientHeight;
      });
      expect(closeBottom.y + closeBottom.height).toBeLessThanOrEqual(panelInside + 0.5);
      await page.keyboard.press('Escape');
    }
  });
}
