/**
 * A scale port typed in Setup that this computer does not have (issue 39, item 19), in English and
 * Dutch at 1024×768: the station says there is no such port on this computer and what to do (the
 * ports it has, or plug the scale in and look again) instead of keeping it and reading "not
 * connected — check the cable"; nothing is set up.
 */
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const words = {
  en: { title: 'There is no port /dev/ttyUSB9 on this computer', again: 'Look again' },
  nl: { title: 'Er is geen poort /dev/ttyUSB9 op deze computer', again: 'Opnieuw zoeken' },
} as const;

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}": a scale port this computer does not have is refused with what to do, and nothing is set up`, async ({ page, webHost }) => {
    const say = words[language];
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.keyboard.press('F4');
    const section = page.getByTestId('scale-section');
    await section.scrollIntoViewIfNeeded();
    await page.getByTestId('scale-kind-serial').check();
    await page.getByTestId('scale-port').fill('/dev/ttyUSB9');
    await page.getByTestId('scale-use').click();
    await expect(page.getByTestId('scale-error-title')).toHaveText(say.title);
    await expect(page.getByTestId('scale-error-action')).toContainText(say.again);
    await expect(page.getByTestId('scale-none')).toHaveCount(0);
    await expect(page.getByTestId('scale-reading')).not.toContainText(/cable|kabel/i);
  });
}
