/**
 * The spreadsheet upload on the Shift start screen, as a lead does it in the browser kiosk: the
 * locations, the file, the preview with the rows that are not ready and why, the creation with its
 * progress, the result, the report downloaded and read back; then the same file again, which the
 * preview shows as already created and which creates nothing.
 */
import ExcelJS from 'exceljs';
import { expect, test } from './bench-fixture';
import { bigFileOnDisk, openStation, screenshotDir } from './station-page';

const columns = ['orderRef', 'locationId', 'deliveryName', 'deliveryStreet', 'deliveryNumber', 'deliveryPostalCode', 'deliveryCity', 'deliveryCountry', 'length', 'width', 'height'];

function csv(prefix: string): string {
  const rows = Array.from({ length: 40 }, (_, n) => [`${prefix}-${n}`, '1101', `Klant ${n}`, 'Damrak', String(n + 1), '1012 LH', 'Amsterdam', 'NL', '300', '200', '100']);
  rows[7]![7] = 'NLD';
  rows[19]![8] = '50';
  rows[31]![3] = '';
  return [columns.join(';'), ...rows.map((row) => row.join(';'))].join('\n') + '\n';
}

test('a lead uploads a spreadsheet at shift start: preview, progress, Completed with errors, the report; the same file again creates nothing', async ({ page, webHost }) => {
  test.setTimeout(120_000);
  await openStation(page, webHost);
  await page.keyboard.press('F2');
  const panel = page.getByTestId('upload-panel');
  await expect(panel).toBeVisible();
  const file = { name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(`E2E-${Date.now().toString(36)}`)) };

  await page.getByTestId('upload-locations').fill('1101');
  await page.getByTestId('upload-file').setInputFiles(file);
  await expect(page.getByTestId('upload-counts')).toHaveText('orders.csv: 40 rows — 37 ready, 3 with errors, 0 skipped');
  const notReady = page.getByTestId('upload-rows');
  await expect(notReady).toContainText('deliveryCountry should be a two-letter country code such as NL (got "NLD")');
  await expect(notReady).toContainText('Length should be at least the width, and width at least the height (got 50 × 200 × 100)');
  await expect(notReady).toContainText('deliveryStreet is empty');
  await page.screenshot({ path: `${screenshotDir}/upload-preview-1280x800.png` });

  await page.getByTestId('upload-print-none').check();
  await page.getByTestId('upload-start').click();
  await expect(page.getByTestId('upload-progress')).toBeVisible();
  await expect(page.getByTestId('upload-result')).toContainText('Completed with errors — 37 created, 3 failed (3 with errors in the file), 0 skipped', { timeout: 60_000 });
  await expect(page.getByTestId('upload-progress')).toContainText('Processed 37 of 37 — 37 created, 0 failed at the service');
  await expect(page.getByTestId('upload-counts')).toHaveText('orders.csv: 40 rows');
  await page.screenshot({ path: `${screenshotDir}/upload-result-1280x800.png` });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('upload-report').click()]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await download.path());
  const successful = book.getWorksheet('Successful Orders')!;
  const failed = book.getWorksheet('Failed Orders')!;
  expect(successful.rowCount - 1).toBe(37);
  expect(failed.rowCount - 1).toBe(3);
  const orderIdColumn = (successful.getRow(1).values as string[]).indexOf('orderId');
  for (let row = 2; row <= successful.rowCount; row += 1) expect(String(successful.getRow(row).getCell(orderIdColumn).value)).not.toBe('');

  // The same file again: every created row is recognised before anything is sent.
  await page.getByTestId('upload-file').setInputFiles(file);
  await expect(page.getByTestId('upload-counts')).toHaveText('orders.csv: 40 rows — 0 ready, 3 with errors, 37 skipped');
  await expect(page.getByTestId('upload-skipped')).toContainText('Skipped: 37 already created');
  await page.getByTestId('upload-print-none').check();
  await page.getByTestId('upload-start').click();
  await expect(page.getByTestId('upload-result')).toContainText('Completed with errors — 0 created, 3 failed (3 with errors in the file), 37 skipped', { timeout: 30_000 });
});

type Language = 'en' | 'nl' | 'de' | 'pl';

/** The panel's own refusals as the screen shows them: [title, action] per language. */
const refusalWords: Record<Language, { noLocation: [string, string]; tooBig: [string, string] }> = {
  en: {
    noLocation: ['No location chosen for the upload', 'Type the location ids of your company the rows may name (for example 1101), then choose the file again'],
    tooBig: ['week.csv is larger than 20 MB (21 MB)', 'Split it into files of at most 20 MB and choose each one in turn'],
  },
  nl: {
    noLocation: ['Geen locatie gekozen voor de upload', "Typ de locatie-id's van uw bedrijf die de rijen mogen noemen (bijvoorbeeld 1101) en kies het bestand opnieuw"],
    tooBig: ['week.csv is groter dan 20 MB (21 MB)', 'Splits het in bestanden van hoogstens 20 MB en kies ze een voor een'],
  },
  de: {
    noLocation: ['Kein Standort für den Upload gewählt', 'Geben Sie die Standort-IDs Ihrer Firma ein, die die Zeilen nennen dürfen (zum Beispiel 1101), und wählen Sie die Datei erneut'],
    tooBig: ['week.csv ist größer als 20 MB (21 MB)', 'Teilen Sie sie in Dateien von höchstens 20 MB und wählen Sie sie nacheinander'],
  },
  pl: {
    noLocation: ['Nie wybrano lokalizacji dla przesyłania', 'Wpisz ID lokalizacji swojej firmy, które mogą występować w wierszach (na przykład 1101), a potem wybierz plik ponownie'],
    tooBig: ['week.csv jest większy niż 20 MB (21 MB)', 'Podziel go na pliki po najwyżej 20 MB i wybierz je po kolei'],
  },
};

test('the panel’s own refusals (no location, a file over 20 MB) show their real words in every language; a row created at another location says where', async ({ page, webHost }) => {
  test.setTimeout(120_000);
  await openStation(page, webHost);
  const title = page.getByTestId('upload-error-title');
  const action = page.getByTestId('upload-error-action');
  const small = { name: 'one.csv', mimeType: 'text/csv', buffer: Buffer.from(`${columns.join(';')}\nX-1;1101;Klant;Damrak;1;1012 LH;Amsterdam;NL;300;200;100\n`) };
  const big = bigFileOnDisk('week.csv', 21);
  for (const language of ['en', 'nl', 'de', 'pl'] as const) {
    await page.keyboard.press('F4');
    await page.getByTestId('setting-language').selectOption(language);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await page.keyboard.press('F2');
    await page.getByTestId('upload-locations').fill('');
    await page.getByTestId('upload-file').setInputFiles(small);
    await expect(title).toHaveText(refusalWords[language].noLocation[0]);
    await expect(action).toHaveText(refusalWords[language].noLocation[1]);
    await page.getByTestId('upload-locations').fill('1101');
    await page.getByTestId('upload-file').setInputFiles(big);
    await expect(title).toHaveText(refusalWords[language].tooBig[0]);
    await expect(action).toHaveText(refusalWords[language].tooBig[1]);
  }

  // The ledger keys on orderRef alone: the same orderRef at the company's other location is skipped, and says where it was created.
  await page.keyboard.press('F4');
  await page.getByTestId('setting-language').selectOption('en');
  await page.keyboard.press('F2');
  await page.getByTestId('upload-locations').fill('1101');
  const orderRef = `LOC-${Date.now().toString(36)}`;
  const row = (location: string) => `${orderRef};${location};Klant;Damrak;1;1012 LH;Amsterdam;NL;300;200;100`;
  await page.getByTestId('upload-file').setInputFiles({ name: 'first.csv', mimeType: 'text/csv', buffer: Buffer.from(`${columns.join(';')}\n${row('1101')}\n`) });
  await page.getByTestId('upload-print-none').check();
  await page.getByTestId('upload-start').click();
  await expect(page.getByTestId('upload-result')).toContainText('Completed — 1 created', { timeout: 30_000 });
  await page.getByTestId('upload-locations').fill('1101, 1102');
  await page.getByTestId('upload-file').setInputFiles({ name: 'second.csv', mimeType: 'text/csv', buffer: Buffer.from(`${columns.join(';')}\n${row('1102')}\n`) });
  await expect(page.getByTestId('upload-counts')).toContainText('0 ready, 0 with errors, 1 skipped');
  await expect(page.getByTestId('upload-rows')).toContainText('Already created at location 1101 (this row names location 1102)');
});
