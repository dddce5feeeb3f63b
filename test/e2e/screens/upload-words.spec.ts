/**
 * A lead's upload and manifest import read as a person counts (issue 39, item 13), in English and
 * Dutch at 1024×768: "1 row", never "1 rows"; the progress line and the result count the same
 * failed rows, the result saying where they failed; the locations stay typed after a visit to
 * another screen; whether the labels print is a choice made in view, and when they print the
 * result says they printed.
 */
import { expect, test, virtualPrinterName } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const header = 'orderRef;locationId;deliveryName;deliveryStreet;deliveryNumber;deliveryPostalCode;deliveryCity;deliveryCountry';
const amsterdam = (ref: string) => `${ref};1101;Eva de Boer;Damrak;1;1012 LH;Amsterdam;NL`;
const madrid = (ref: string) => `${ref};1101;Ana Ruiz;Gran Via;1;28013;Madrid;ES`;
const sheet = (...rows: string[]) => ({ name: 'day.csv', mimeType: 'text/csv', buffer: Buffer.from(`${header}\n${rows.join('\n')}\n`) });

const words = {
  en: {
    oneRow: 'day.csv: 1 row — 1 ready, 0 with errors, 0 skipped',
    choose: 'Choose whether to print the labels, then start.',
    printOn: `Print them on ${virtualPrinterName} once all are created`,
    created: 'Completed — 1 created, 0 failed, 0 skipped',
    printed: `The label is printed on ${virtualPrinterName}.`,
    threeRows: 'day.csv: 3 rows — 2 ready, 1 with errors, 0 skipped',
    progress: 'Processed 2 of 2 — 0 created, 2 failed at the service',
    failed: 'Failed — 0 created, 3 failed (1 with errors in the file, 2 at the service), 0 skipped',
    manifest: 'manifest.csv: 1 row, 1 new, 0 updated, 0 with problems',
  },
  nl: {
    oneRow: 'day.csv: 1 rij — 1 klaar, 0 met fouten, 0 overgeslagen',
    choose: 'Kies of de etiketten geprint worden en start dan.',
    printOn: `Print ze op ${virtualPrinterName} zodra alles is aangemaakt`,
    created: 'Voltooid — 1 aangemaakt, 0 mislukt, 0 overgeslagen',
    printed: `Het etiket is geprint op ${virtualPrinterName}.`,
    threeRows: 'day.csv: 3 rijen — 2 klaar, 1 met fouten, 0 overgeslagen',
    progress: '2 van 2 verwerkt — 0 aangemaakt, 2 mislukt bij de dienst',
    failed: 'Mislukt — 0 aangemaakt, 3 mislukt (1 met fouten in het bestand, 2 bij de dienst), 0 overgeslagen',
    manifest: 'manifest.csv: 1 rij, 1 nieuw, 0 bijgewerkt, 0 met problemen',
  },
} as const;

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}": one row is one row, failed rows add up, the locations stay, printing is chosen and reported`, async ({ page, webHost }) => {
    test.setTimeout(120_000);
    const say = words[language];
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    const prefix = `W${language}-${Date.now().toString(36)}`;

    await page.keyboard.press('F2');
    await page.getByTestId('upload-locations').fill('1101');
    // Away and back: the locations are still there.
    await page.keyboard.press('F1');
    await page.keyboard.press('F2');
    await expect(page.getByTestId('upload-locations')).toHaveValue('1101');

    await page.getByTestId('upload-file').setInputFiles(sheet(amsterdam(`${prefix}-1`)));
    await expect(page.getByTestId('upload-counts')).toHaveText(say.oneRow);
    // Nothing chosen for the labels yet: the panel asks, and Start waits for the answer.
    const start = page.getByTestId('upload-start');
    await expect(page.getByTestId('upload-choose-hint')).toHaveText(say.choose);
    await expect(start).toBeDisabled();
    await page.getByTestId('upload-print-choice').getByLabel(say.printOn).check();
    await expect(start).toBeEnabled();
    await start.click();
    await expect(page.getByTestId('upload-result')).toContainText(say.created, { timeout: 60_000 });
    await expect(page.getByTestId('upload-labels-result')).toHaveText(say.printed, { timeout: 30_000 });
    // And it did come out of the printer.
    await page.keyboard.press('F1');
    await expect(page.getByTestId('virtual-printer-latest-barcode')).not.toHaveText('—');
    await page.keyboard.press('F2');

    // One row with an error in the file, two the service refuses (outside its area).
    await page.getByTestId('upload-file').setInputFiles(sheet(`${prefix}-2;1101;Eva de Boer;Damrak;1;1012 LH;Amsterdam;NLD`, madrid(`${prefix}-3`), madrid(`${prefix}-4`)));
    await expect(page.getByTestId('upload-counts')).toHaveText(say.threeRows);
    await page.getByTestId('upload-print-none').check();
    await start.click();
    await expect(page.getByTestId('upload-result')).toContainText(say.failed, { timeout: 60_000 });
    await expect(page.getByTestId('upload-progress')).toContainText(say.progress);
    await expect(page.getByTestId('upload-labels-result')).toHaveCount(0);

    // The manifest import counts its rows the same way.
    await page.keyboard.press('F4');
    await page.getByTestId('import-file').setInputFiles({ name: 'manifest.csv', mimeType: 'text/csv', buffer: Buffer.from(`orderId,orderRef\n${prefix}-M1,${prefix}-REF\n`) });
    await expect(page.getByTestId('import-report')).toContainText(say.manifest);
  });
}
