/**
 * The cause named where a lead or IT meets it (issue 39, items 3–6), at 1024×768 in English and
 * Dutch: a wrong file chosen as today's manifest says why; Printers › Add › Print queue on a
 * computer without a running print system says so, not "printer offline", and Add waits for a
 * queue; a TEST address where nothing answers is named, without "scan again"; a key pasted with a
 * space inside, and a store address with the password in it, say which.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { removeDataDir, startStationHost } from '../station-host';
import { expect, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation, screenshotDir } from './station-page';
import { freeLoopbackPort } from '../../support/postgres-server';

test.use({ viewport: { width: 1024, height: 768 } });

type Language = 'en' | 'nl';

/** The words of a refusal as CallError shows them: "title — action". */
const shown = (page: Page, testId: string) => ({ title: page.getByTestId(`${testId}-title`), action: page.getByTestId(`${testId}-action`) });

const toShipColumns = 'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName';

const wrongFiles: Record<Language, { toShip: [string, string]; noId: [string, string] }> = {
  en: {
    toShip: ['shop-export.csv lists orders to create, not today’s manifest', 'Import it on Scan (F1) › Orders to ship, or on Shift start (F2) › Create orders from a spreadsheet. A manifest lists orders already created, each with its orderId'],
    noId: [
      'export.csv has no orderId column',
      'A manifest names each order by its order id, in a column called orderId; this file’s columns are "Referentie", "Klant". Export it again with the order id, as the manifest template has it (Setup › First-hour guide)',
    ],
  },
  nl: {
    toShip: ['shop-export.csv bevat orders om aan te maken, geen manifest van vandaag', 'Importeer het bij Scannen (F1) › Te verzenden orders, of bij Dienststart (F2) › Orders aanmaken uit een spreadsheet. Een manifest bevat orders die al zijn aangemaakt, elk met zijn orderId'],
    noId: [
      'export.csv heeft geen kolom orderId',
      'Een manifest noemt elke order bij zijn order-id, in een kolom orderId; de kolommen van dit bestand zijn "Referentie", "Klant". Exporteer het opnieuw met het order-id, zoals in het manifestsjabloon (Instellingen › Gids voor het eerste uur)',
    ],
  },
};

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}", a wrong file chosen as today's manifest says on screen why it was not imported`, async ({ page, webHost }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.keyboard.press('F4');
    const error = shown(page, 'import-error');
    await page.getByTestId('import-file').setInputFiles({ name: 'shop-export.csv', mimeType: 'text/csv', buffer: Buffer.from(`${toShipColumns}\nSHOP-7,1101,Damrak,1,1012 LH,Amsterdam,NL,Eva\n`) });
    await expect(error.title).toHaveText(wrongFiles[language].toShip[0], { timeout: 20_000 });
    await expect(error.action).toHaveText(wrongFiles[language].toShip[1]);
    await page.getByTestId('import-error').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screenshotDir}/import-wrong-file-${language}-1024x768.png` });
    await page.getByTestId('import-file').setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: Buffer.from('Referentie,Klant\nR-1,Eva\n') });
    await expect(error.title).toHaveText(wrongFiles[language].noId[0], { timeout: 20_000 });
    await expect(error.action).toHaveText(wrongFiles[language].noId[1]);
    await expect(page.getByTestId('import-report')).toHaveCount(0);
  });
}

const noPrintSystem: Record<Language, { title: string; action: string }> = {
  en: {
    title: 'No print system on this computer',
    action: 'This computer has no print queues to choose from (CUPS is not installed): add the Zebra as a network printer or by USB instead, or ask IT to install the print system',
  },
  nl: {
    title: 'Het afdruksysteem draait niet op deze computer',
    action: 'Zolang het stilstaat zijn er geen afdrukwachtrijen te tonen: voeg de Zebra toe als netwerkprinter of via USB, of vraag IT het afdruksysteem (CUPS) te starten',
  },
};

for (const [language, computer, env] of [
  // No lpstat anywhere on the PATH: CUPS is not installed.
  ['en', 'without CUPS', () => ({ PATH: mkdtempSync(join(tmpdir(), 'no-cups-')) })],
  // A CUPS client whose scheduler is not there: CUPS installed but not running.
  ['nl', 'with CUPS stopped', () => ({ CUPS_SERVER: join(tmpdir(), 'no-cupsd-here', 'cups.sock') })],
] as const) {
  test(`in "${language}", Printers › Add › Print queue on a computer ${computer} says there is no print system, not "printer offline"`, async ({ page }) => {
    const host = await startStationHost({ env: env() });
    try {
      await chooseLanguageBeforeStart(page, language);
      await openStation(page, host);
      await page.keyboard.press('F3');
      await page.getByTestId('printer-kind-os-queue-raw').check();
      const error = shown(page, 'queues-error');
      await expect(error.title).toHaveText(noPrintSystem[language].title, { timeout: 20_000 });
      await expect(error.action).toHaveText(noPrintSystem[language].action);
      await expect(page.getByTestId('queues-error')).toHaveAttribute('data-code', 'NO_PRINT_SYSTEM');
      // "Printer offline" in both languages: the words of a printer's fault, which this is not.
      await expect(page.getByTestId('add-printer')).not.toContainText('Printer offline');
      // With no queue to choose, Add waits: no browser's own "Please select an item in the list." in English.
      await page.getByTestId('printer-name').fill('Bench Zebra');
      await expect(page.getByTestId('printer-add')).toBeDisabled();
      await page.getByTestId('queues-error').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${screenshotDir}/printers-no-print-system-${language}-1024x768.png` });
    } finally {
      await host.stop();
      removeDataDir(host.dataDir);
    }
  });
}

const nothingAnswers: Record<Language, { title: (address: string) => string; action: string }> = {
  en: {
    title: (address) => `Nothing answers at ${address}`,
    action: 'Check the address under Delivery service addresses (as the delivery service gave it) and that this computer can reach it, then try again',
  },
  nl: {
    title: (address) => `Niets antwoordt op ${address}`,
    action: 'Controleer het adres bij Adressen van de bezorgdienst (zoals de bezorgdienst het gaf) en of deze computer het kan bereiken, en probeer het opnieuw',
  },
};

const keyWithSpace: Record<Language, [string, string]> = {
  en: ['The API key has a space in it', 'An API key is one word: copy it again from the delivery service’s dashboard, without spaces or line breaks, and enter it'],
  nl: ['De API-sleutel bevat een spatie', 'Een API-sleutel is één woord: kopieer hem opnieuw uit het dashboard van de bezorgdienst, zonder spaties of regeleinden, en voer hem in'],
};

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}", Setup names the TEST address where nothing answers (no "scan again") and says a pasted key has a space in it`, async ({ page, webHost }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.keyboard.press('F4');
    const address = `http://127.0.0.1:${await freeLoopbackPort()}/test`;
    await page.getByTestId('setting-base-url-test').fill(address);
    await page.getByTestId('setting-base-url-test').press('Enter');
    await expect(page.getByTestId('base-urls-saved')).toBeVisible();

    const keyField = page.getByTestId('key-input-test');
    const error = shown(page, 'key-error-test');
    await keyField.fill('sk_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345');
    await page.getByTestId('key-save-test').click();
    await expect(error.title).toHaveText(nothingAnswers[language].title(address), { timeout: 30_000 });
    await expect(error.action).toHaveText(nothingAnswers[language].action);
    await expect(page.getByTestId('key-error-test')).not.toContainText(language === 'en' ? 'scan again' : 'scan opnieuw');
    await page.getByTestId('key-error-test').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screenshotDir}/setup-nothing-answers-${language}-1024x768.png` });

    // The same key pasted with a space in the middle: refused before anything is sent, and why.
    await keyField.fill('sk_test_ABCDEFGHIJKLMNOP QRSTUVWXYZ012345');
    await page.getByTestId('key-save-test').click();
    await expect(error.title).toHaveText(keyWithSpace[language][0]);
    await expect(error.action).toHaveText(keyWithSpace[language][1]);
  });
}

const passwordInAddress: Record<Language, [string, string]> = {
  en: [
    'The store address has the password in it',
    'Take the password out of the address (postgres://user@host:port/database) and type it in the Password field: it is kept in this computer’s keychain, never in the address',
  ],
  nl: [
    'Het adres van de opslag bevat het wachtwoord',
    'Haal het wachtwoord uit het adres (postgres://gebruiker@host:poort/database) en typ het in het veld Wachtwoord: het wordt bewaard in de sleutelhanger van deze computer, nooit in het adres',
  ],
};

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}", a store address with the password in it says the password belongs in the password field, on Test and on Save`, async ({ page, webHost }) => {
    await chooseLanguageBeforeStart(page, language);
    await openStation(page, webHost);
    await page.keyboard.press('F4');
    await page.getByTestId('store-kind-postgres').check();
    await page.getByTestId('store-address').fill('postgres://station:Geheim123@db.warehouse.lan:5432/packing');
    const error = shown(page, 'store-error');
    await page.getByTestId('store-test').click();
    await expect(error.title).toHaveText(passwordInAddress[language][0], { timeout: 20_000 });
    await expect(error.action).toHaveText(passwordInAddress[language][1]);
    await expect(page.getByTestId('store-error')).toBeInViewport();
    await page.screenshot({ path: `${screenshotDir}/setup-store-password-in-address-${language}-1024x768.png` });
    await page.getByTestId('store-save').click();
    await expect(error.title).toHaveText(passwordInAddress[language][0]);
  });
}
