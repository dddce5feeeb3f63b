/**
 * A bench with three printers (its Zebra, the sandbox's and one more where nothing answers yet)
 * and an operator signed in, in English and Polish at 1024×768 and 1280×800: the top bar keeps
 * the printer for scans whole enough to read and one chip counts the rest ("+2 more") in the
 * state of the one that needs a person (here: offline); no chip is cut off the bar's right edge,
 * and the printers the chip stands for are named in its tooltip.
 */
import { addPrinterNothingAnswers, addZebraInAnyLanguage, expect, test, virtualPrinterName } from './bench-fixture';
import { benchSizes, chooseLanguageBeforeStart } from './layout-support';
import { unfitOnScreen } from './screen-fit';
import { openStation, screenshotDir } from './station-page';

const words = {
  en: { more: '+2 more', offline: 'Offline' },
  pl: { more: '+2 więcej', offline: 'Niedostępna' },
} as const;

for (const language of ['en', 'pl'] as const) {
  test(`in "${language}" three printers and a signed-in operator fit the top bar: one printer's chip and "+2" for the others`, async ({ page, webHost, zebra }) => {
    test.setTimeout(120_000);
    await chooseLanguageBeforeStart(page, language);
    await page.setViewportSize(benchSizes[0]);
    await openStation(page, webHost);
    await page.getByTestId('operator-name').fill('Bartholomeus van der Heijden');
    await page.getByTestId('operator-sign-in').click();
    await expect(page.getByTestId('printer-status')).toContainText(virtualPrinterName, { timeout: 20_000 });
    await addZebraInAnyLanguage(page, zebra, 'Bench Zebra');
    // A third printer, added as a lead would before it is switched on: nothing answers at its address.
    await addPrinterNothingAnswers(page, 'Dock Zebra');
    await page.keyboard.press('F1');

    const status = page.getByTestId('printer-status');
    const more = page.getByTestId('printer-more');
    await expect(more).toContainText(words[language].more);
    await expect(more).toContainText(words[language].offline, { timeout: 20_000 });
    // The printer for scans keeps its chip: the test's Zebra took single scans when it was added.
    await expect(status.locator('.printer-chip-name')).toHaveText(['Bench Zebra', words[language].more]);
    expect(await more.getAttribute('title')).toContain('Dock Zebra');

    const unfit: Record<string, string[]> = {};
    for (const size of benchSizes) {
      await page.setViewportSize(size);
      const problems = await unfitOnScreen(page);
      const bar = (await page.locator('header.topbar').boundingBox())!;
      for (const chip of await status.locator('.printer-chip').all()) {
        const box = (await chip.boundingBox())!;
        if (box.x + box.width > bar.x + bar.width + 1) problems.push(`the chip "${await chip.innerText()}" runs past the bar's right edge`);
      }
      const name = (await status.locator('.printer-chip-name').first().boundingBox())!;
      if (name.width < 80) problems.push(`the printer for scans gets only ${Math.round(name.width)} px for its name`);
      await page.screenshot({ path: `${screenshotDir}/fit-three-printers-${language}-${size.width}x${size.height}.png` });
      if (problems.length > 0) unfit[`${size.width}×${size.height}`] = problems;
    }
    expect(unfit).toEqual({});
  });
}
