/**
 * The screen-fit check of a bench with two printers and the operator sign-in bar (issue 39, item 7
 * and the "Already printed" panel), in every language at 1024×768 and 1280×800: in the top bar who
 * is packing (the "Operator" label and the name) and which bench this is are shown whole, the
 * printers' names end in an ellipsis when they must give way; the amber "Already printed" panel
 * with the sign-in bar above it fits without scrolling, down to the reprint card's line.
 */
import type { Locator, Page } from '@playwright/test';
import { addZebraInAnyLanguage, draftOrder, expect, test } from './bench-fixture';
import { benchSizes, chooseLanguageBeforeStart, screenLanguages } from './layout-support';
import { unfitOnScreen } from './screen-fit';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

/** A bench's second printer, under a name longer than fits beside the sandbox's. */
const benchPrinterName = 'Zebra ZD421 at packing bench 2';

/** Whether a one-line box shows its text whole (nothing cut, with or without an ellipsis). */
const whole = (element: Locator) =>
  element.evaluate((node) => {
    const box = node as unknown as { scrollWidth: number; clientWidth: number };
    return box.scrollWidth <= box.clientWidth + 1;
  });

async function signIn(page: Page, name: string): Promise<void> {
  await page.getByTestId('operator-name').fill(name);
  await page.getByTestId('operator-sign-in').click();
  await expect(page.getByTestId('operator-badge-name')).toHaveText(name);
}

for (const language of screenLanguages()) {
  test(`with two printers and the sign-in bar, the top bar and the "Already printed" panel fit in "${language}" at 1024×768 and 1280×800`, async ({ page, webHost, zebra, sandboxOrders }) => {
    test.setTimeout(120_000);
    await chooseLanguageBeforeStart(page, language);
    await page.setViewportSize(benchSizes[0]);
    await openStation(page, webHost);
    await signIn(page, 'Bas van der Berg');
    await addZebraInAnyLanguage(page, zebra, benchPrinterName);
    await page.keyboard.press('F1');
    await expect(page.getByTestId('printer-status').locator('.printer-chip-name')).toHaveCount(2);

    const unfit: Record<string, string[]> = {};
    for (const size of benchSizes) {
      await page.setViewportSize(size);
      const where = `top bar at ${size.width}×${size.height}`;
      const problems = await unfitOnScreen(page);
      for (const [what, element] of [
        ['the "Operator" label', page.getByTestId('operator-badge-label')],
        ['the operator\'s name', page.getByTestId('operator-badge-name')],
        ['the station\'s name', page.getByTestId('topbar-station')],
      ] as const) {
        if (!(await whole(element))) problems.push(`${what} "${await element.textContent()}" is cut`);
      }
      for (const name of await page.getByTestId('printer-status').locator('.printer-chip-name').all()) {
        // Room for a word of the printer's name: "V…" tells the packer nothing.
        const width = (await name.boundingBox())!.width;
        if (width < 80) problems.push(`the printer name "${await name.textContent()}" gets only ${Math.round(width)} px`);
      }
      await page.screenshot({ path: `${screenshotDir}/fit-top-bar-${language}-${size.width}x${size.height}.png` });
      if (problems.length > 0) unfit[where] = problems;
    }

    // A bench with long names: a label printed by an operator with a long name at a station with one,
    // then the operator signs out (the sign-in bar is back) and the parcel is scanned again.
    await page.setViewportSize(benchSizes[0]);
    await page.keyboard.press('F4');
    await page.getByTestId('setting-station-name').fill('Packtisch 3 am Rolltor Nord');
    await page.getByTestId('setting-station-name').press('Enter');
    await expect(page.getByTestId('topbar-station')).toHaveText('Packtisch 3 am Rolltor Nord');
    await page.getByTestId('operator-sign-out').click();
    await signIn(page, 'Małgorzata Wiśniewska-Kowalczyk');
    await page.keyboard.press('F1');
    const ref = draftOrder(sandboxOrders, 0).orderRef;
    await scanLikeAScanner(page, ref);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
    await page.getByTestId('operator-sign-out').click();
    await expect(page.getByTestId('operator-prompt')).toBeVisible();
    await scanLikeAScanner(page, ref);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate', { timeout: 20_000 });
    for (const size of benchSizes) {
      await page.setViewportSize(size);
      const problems = await unfitOnScreen(page);
      const cardLine = page.getByTestId('scan-result').locator('.result-line').last();
      await expect(cardLine).toBeInViewport({ ratio: 1 });
      await page.screenshot({ path: `${screenshotDir}/fit-already-printed-sign-in-${language}-${size.width}x${size.height}.png` });
      if (problems.length > 0) unfit[`"Already printed" with the sign-in bar at ${size.width}×${size.height}`] = problems;
    }
    expect(unfit, `cut or out of view in "${language}"`).toEqual({});
  });
}
