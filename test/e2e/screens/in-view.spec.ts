/**
 * What a lead must see is in view at 1024×768 (issue 39, items 8 and 9), in English and Dutch:
 * the result of adding a printer and of testing or saving the shared store, drawn under a long
 * form's buttons, comes into view; so does the spreadsheet upload's check of the guide's template
 * (its refusal without a location, then its counts and the button that creates the orders), drawn
 * under Shift start's long list of bundles; and each screen opens at its top, whatever the screen
 * before it was scrolled to.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation, screenshotDir } from './station-page';
import { freeLoopbackPort } from '../../support/postgres-server';
import { fileTemplates, templateCsv } from '../../../src/shared/import-templates';

test.use({ viewport: { width: 1024, height: 768 } });

/** How far the screen's area is scrolled down, in pixels. */
const scrolled = (page: Page) => page.locator('main').evaluate((main) => (main as unknown as { scrollTop: number }).scrollTop);

/** Until a wheel's (animated) scrolling has come to rest: the same place in two looks a frame apart. */
async function scrollSettled(page: Page): Promise<void> {
  let last = -1;
  await expect
    .poll(async () => {
      const now = await scrolled(page);
      const still = now === last;
      last = now;
      return still;
    })
    .toBe(true);
}

const words = {
  en: {
    notAnswering: (port: number) => `Dock Zebra is saved, but nothing answers at 127.0.0.1:${port}.`,
    noLocation: 'No location chosen for the upload',
    checked: 'spreadsheet-upload-template.csv: 1 row — 1 ready, 0 with errors, 0 skipped',
    create: 'Create 1 order',
  },
  nl: {
    notAnswering: (port: number) => `Dock Zebra is bewaard, maar er antwoordt niets op 127.0.0.1:${port}.`,
    noLocation: 'Geen locatie gekozen voor de upload',
    checked: 'spreadsheet-upload-template.csv: 1 rij — 1 klaar, 0 met fouten, 0 overgeslagen',
    create: '1 order aanmaken',
  },
} as const;

/** The guide's spreadsheet upload template, as downloaded today. */
const uploadTemplate = (() => {
  const template = fileTemplates.find((candidate) => candidate.id === 'upload')!;
  return { name: template.fileName, mimeType: 'text/csv', buffer: Buffer.from(templateCsv(template, new Date())) };
})();

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}", the result of adding a printer where nothing answers, and of testing and saving the store, is in view, not below the fold`, async ({ page, webHost }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.keyboard.press('F3');
    const port = await freeLoopbackPort();
    await page.getByTestId('printer-kind-network-zebra').check();
    await page.getByTestId('printer-name').fill('Dock Zebra');
    await page.getByTestId('printer-host').fill('127.0.0.1');
    await page.getByTestId('printer-port').fill(String(port));
    await page.getByTestId('printer-add').click();
    const notAnswering = page.getByTestId('printer-added-not-answering');
    await expect(notAnswering).toContainText(words[language].notAnswering(port), { timeout: 20_000 });
    await expect(notAnswering).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: `${screenshotDir}/printers-added-in-view-${language}-1024x768.png` });

    await page.keyboard.press('F4');
    await page.getByTestId('store-kind-postgres').check();
    await page.getByTestId('store-address').fill(`postgres://station@127.0.0.1:${await freeLoopbackPort()}/packing?sslmode=disable`);
    await page.getByTestId('store-tls').selectOption('disable');
    await page.getByTestId('store-accept-unverified').check();
    await page.getByTestId('store-password').fill('Geheim123');
    await page.getByTestId('store-test').click();
    const problem = page.getByTestId('store-problem');
    await expect(problem).toBeVisible({ timeout: 20_000 });
    await expect(problem).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: `${screenshotDir}/setup-store-test-in-view-${language}-1024x768.png` });
    // Back up the form, then Save: the store is kept, asked at once, and what it answered is said where the lead looks.
    await page.mouse.wheel(0, -600);
    await scrollSettled(page);
    await expect(problem).not.toBeInViewport({ ratio: 1 });
    await page.getByTestId('store-save').click();
    await expect(problem).toBeInViewport({ ratio: 1, timeout: 20_000 });
  });

  test(`in "${language}", each screen opens at its top when switched to with the F-keys, whatever the one before was scrolled to`, async ({ page, webHost }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.keyboard.press('F4');
    await expect(page.getByTestId('keys-section')).toBeVisible({ timeout: 20_000 });
    // Down Setup with the mouse wheel, as a lead reading it would, to the store at its foot.
    const main = page.locator('main');
    const box = (await main.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let turn = 0; turn < 30 && (await scrolled(page)) < 1500; turn++) await page.mouse.wheel(0, 400);
    await scrollSettled(page);
    expect(await scrolled(page)).toBeGreaterThan(1000);
    await expect(page.getByTestId('guide-open-setup')).not.toBeInViewport();

    for (const [key, screen] of [
      ['F3', 'printers'],
      ['F5', 'history'],
      ['F2', 'shift'],
      ['F4', 'setup'],
    ] as const) {
      await page.keyboard.press(key);
      await expect(page.getByTestId(`nav-${screen}`)).toHaveAttribute('aria-current', 'page');
      await expect(page.locator('main h1')).toBeFocused();
      expect(await scrolled(page), `${screen} opened scrolled down`).toBe(0);
      await expect(page.locator('main h1')).toBeInViewport({ ratio: 1 });
      if (screen === 'setup') await expect(page.getByTestId('guide-open-setup')).toBeInViewport({ ratio: 1 });
      // Down again before the next screen (and wait for the wheel's scrolling to end, as a person would).
      await page.mouse.wheel(0, 1200);
      await scrollSettled(page);
    }
    await page.screenshot({ path: `${screenshotDir}/setup-opens-at-top-${language}-1024x768.png` });
  });

  test(`in "${language}", the spreadsheet upload's check of the guide's template is in view under Shift start's list of bundles`, async ({ page, webHost }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.keyboard.press('F2');
    await expect(page.getByTestId('bundle-choices').locator('li').first()).toBeVisible({ timeout: 20_000 });
    // The template as it comes, with no location typed yet: the refusal says so where the lead looks.
    await page.getByTestId('upload-file').setInputFiles(uploadTemplate);
    const refusal = page.getByTestId('upload-error');
    await expect(refusal).toContainText(words[language].noLocation);
    await expect(refusal).toBeInViewport({ ratio: 1 });
    // Up to the top again, as a lead reading the screen would, then the location and the file once more.
    await page.locator('main').evaluate((main) => main.scrollTo({ top: 0 }));
    await expect(refusal).not.toBeInViewport();
    await page.getByTestId('upload-locations').fill('1101');
    await page.locator('main').evaluate((main) => main.scrollTo({ top: 0 }));
    await page.getByTestId('upload-file').setInputFiles(uploadTemplate);
    await expect(page.getByTestId('upload-counts')).toHaveText(words[language].checked, { timeout: 20_000 });
    await expect(page.getByTestId('upload-counts')).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('upload-start')).toHaveText(words[language].create);
    await expect(page.getByTestId('upload-start')).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: `${screenshotDir}/upload-checked-in-view-${language}-1024x768.png` });
  });
}
