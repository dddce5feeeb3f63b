/**
 * A lead's shift start at a 1024×768 bench, as the lead meets it: the Print card beside today's
 * 22 bundles, a bundle printed earlier scanned again, a printed bundle with a slip the service does
 * not know, printing labels again with a reason from this screen, and a pause the top bar shows.
 */
import type { Page } from '@playwright/test';
import { addVirtualZebra, expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart, screenLanguages } from './layout-support';
import { openStation, scanLikeAScanner } from './station-page';

async function listedBundles(page: Page): Promise<string[]> {
  await expect(page.getByTestId('bundle-choices').locator('li').first()).toBeVisible({ timeout: 20_000 });
  return (await page.getByTestId('bundle-choices').locator('.bundle-id').allTextContents()).map((id) => id.trim());
}

const mainScrollTop = (page: Page) => page.evaluate("document.getElementById('main').scrollTop");

const fits = [
  ...screenLanguages().map((language) => ({ language, size: { width: 1024, height: 768 } })),
  { language: 'en', size: { width: 1280, height: 800 } },
];

for (const { language, size } of fits) {
  test(`in "${language}" at ${size.width}×${size.height} the Print card and its button are in view beside all of today’s bundles`, async ({ page, webHost }) => {
    await page.setViewportSize(size);
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.keyboard.press('F2');
    const listed = await listedBundles(page);
    expect(listed.length).toBeGreaterThanOrEqual(20);
    await page.getByTestId('bundles-select-all').click();
    await expect(page.getByTestId('bundles-count')).toContainText(String(listed.length));
    // Without scrolling, the whole button is in view and not under the footer, and the card is whole across.
    expect(await mainScrollTop(page)).toBe(0);
    await expect(page.getByTestId('run-start')).toBeInViewport({ ratio: 1 });
    const button = (await page.getByTestId('run-start').boundingBox())!;
    const main = (await page.locator('#main').boundingBox())!;
    expect(button.y + button.height).toBeLessThanOrEqual(main.y + main.height);
    const card = page.locator('.shift-print');
    expect(await card.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  });
}

test('a printed bundle scanned again says so; with an unknown slip the refusal names it; labels print again with a reason from this screen; a pause shows in the top bar', async ({ page, webHost, zebra }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await openStation(page, webHost);
  await addVirtualZebra(page, zebra);
  // The lead signs in with a badge: a reprint goes into the journal under a name.
  await scanLikeAScanner(page, 'STATION:OPERATOR:Lena');
  await expect(page.getByTestId('operator-badge-name')).toHaveText('Lena');
  await page.keyboard.press('F2');
  const listed = await listedBundles(page);
  const [printedOne] = listed;

  // One bundle printed.
  await page.getByTestId(`bundle-${printedOne}`).click();
  await page.getByTestId('run-start').click();
  const panel = page.getByTestId('run-panel');
  await expect(panel).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  await page.getByTestId('run-close').click();
  await expect(page.getByTestId(`bundle-${printedOne}`)).toHaveCount(0);

  // Its slip scanned again: printed today, not "not in today's list".
  await scanLikeAScanner(page, printedOne!);
  await expect(page.getByTestId('bundles-count')).toContainText('1 printed today');
  await expect(page.getByTestId('bundles-count')).not.toContainText('not in the list');
  await expect(page.getByTestId('bundles-printed-today')).toContainText(printedOne!);
  await expect(page.getByTestId('bundles-unlisted')).toHaveCount(0);

  // With a slip the service does not know: the refusal names that bundle, in view.
  await page.getByTestId('bundle-input').fill('BND-NOSUCH-77');
  await page.getByTestId('bundle-input').press('Enter');
  await expect(page.getByTestId('bundles-unlisted')).toContainText('BND-NOSUCH-77');
  await page.getByTestId('run-start').click();
  const refusal = page.getByTestId('run-error');
  await expect(refusal).toContainText('Nothing to print: the delivery service knows no bundle BND-NOSUCH-77', { timeout: 30_000 });
  await expect(refusal).toContainText('tick “Print labels printed before again” and say why');
  await expect(refusal).toBeInViewport();

  // The control the words point to is on this screen: the known bundle prints again, with the reason.
  await page.getByRole('button', { name: 'Remove BND-NOSUCH-77' }).click();
  await page.getByTestId('run-reprint').check();
  await expect(page.getByTestId('run-start')).toBeDisabled();
  await page.getByTestId('run-reprint-reason').fill('labels smudged');
  const before = zebra.printed().length;
  await page.getByTestId('run-start').click();
  await expect(panel).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
  expect(zebra.printed().length).toBeGreaterThan(before);
  await page.getByTestId('run-close').click();

  // A longer run, slowly printed, paused by the lead: the top bar says paused, not printing.
  zebra.setLabelsPerSecond(1);
  await page.getByTestId(`bundle-${listed[1]}`).click();
  await page.getByTestId(`bundle-${listed[2]}`).click();
  await page.getByTestId(`bundle-${listed[3]}`).click();
  await page.getByTestId('run-start').click();
  await expect(panel).toHaveAttribute('data-state', 'running', { timeout: 30_000 });
  await page.getByTestId('run-pause').click();
  await expect(panel).toHaveAttribute('data-state', 'paused', { timeout: 30_000 });
  const chip = page.getByTestId('printer-status').locator('.printer-chip', { hasText: 'Bench Zebra' });
  await expect(chip).toContainText('Paused');
  await expect(chip).not.toContainText('Printing');
  zebra.setLabelsPerSecond(20);
  await page.getByTestId('run-resume').click();
  await expect(panel).toHaveAttribute('data-state', 'finished', { timeout: 60_000 });
});
