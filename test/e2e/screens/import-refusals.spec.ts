/**
 * The same refusal in the same words, whichever of the three imports a lead chose the file in
 * (issue 23, item 3): the manifest import (Setup), the spreadsheet upload (Shift start) and the
 * shop's to-ship export (Scan). Each says what is wrong with the file and what to do, in Dutch
 * here, and none of them tells a lead who imports to "upload".
 */
import type { Page } from '@playwright/test';
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

type FileChoice = { name: string; mimeType: string; buffer: Buffer };

/** Chooses the file in one import; answers where that import shows its refusal. */
const imports: Record<string, (page: Page, file: FileChoice) => Promise<string>> = {
  manifest: async (page, file) => {
    await page.keyboard.press('F4');
    await page.getByTestId('import-file').setInputFiles(file);
    return 'import-error';
  },
  upload: async (page, file) => {
    await page.keyboard.press('F2');
    await page.getByTestId('upload-locations').fill('1101');
    await page.getByTestId('upload-file').setInputFiles(file);
    return 'upload-error';
  },
  'to-ship': async (page, file) => {
    await page.keyboard.press('F1');
    await page.getByTestId('ship-import-file').setInputFiles(file);
    return 'ship-import-error';
  },
};

const refusals: { what: string; file: FileChoice; words: string }[] = [
  {
    what: 'an empty file',
    file: { name: 'leeg.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) },
    words: 'leeg.csv is leeg — Controleer of u het juiste bestand koos en kies het opnieuw',
  },
  {
    what: 'a picture saved as .csv',
    file: { name: 'foto.csv', mimeType: 'text/csv', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]) },
    words: 'foto.csv is geen spreadsheet die het station kan lezen — Sla het op als .xlsx, .xls of .csv en kies dat bestand',
  },
];

for (const refusal of refusals) {
  test(`${refusal.what} is refused in the same Dutch words by the manifest import, the upload and the to-ship import`, async ({ page, webHost }) => {
    test.setTimeout(90_000);
    await chooseLanguageBeforeStart(page, 'nl');
    await openStation(page, webHost);
    for (const [name, choose] of Object.entries(imports)) {
      const shown = page.getByTestId(await choose(page, refusal.file));
      await expect(shown, name).toHaveText(refusal.words, { timeout: 20_000 });
    }
  });
}
