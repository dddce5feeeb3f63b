/**
 * Issue 15, "messages that mislead": each cause the station knows gets its own words on the
 * screen, in every language the screen speaks, through the real station and web host.
 */
import type { Locator, Page } from '@playwright/test';
import { removeDataDir, startStationHost } from '../station-host';
import { addVirtualZebra, draftOrder, expect, test } from './bench-fixture';
import { bigFileOnDisk, openStation, scanLikeAScanner, screenshotDir } from './station-page';

type Language = 'en' | 'nl' | 'de' | 'pl';

/** Switches the screen's language in Setup and comes back to the screen the check is about. */
async function inLanguage(page: Page, language: Language, screenKey: 'F1' | 'F2'): Promise<void> {
  await page.keyboard.press('F4');
  await page.getByTestId('setting-language').selectOption(language);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await page.keyboard.press(screenKey);
}

/** Checks one text in each language, then leaves the screen in English. */
async function expectInEveryLanguage(page: Page, screenKey: 'F1' | 'F2', texts: Record<Language, [Locator, string][]>): Promise<void> {
  for (const language of ['nl', 'de', 'pl', 'en'] as const) {
    await inLanguage(page, language, screenKey);
    for (const [locator, text] of texts[language]) await expect(locator).toHaveText(text);
  }
}

/** A contract call from the page, over its own signed-in socket, as the screen makes them. */
async function callFromPage(page: Page, name: string, input: unknown): Promise<void> {
  const origin = new URL(page.url()).origin;
  const ok = await page.evaluate(
    ({ name, input, origin }) =>
      new Promise<boolean>((resolve, reject) => {
        const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/station`);
        socket.onerror = () => reject(new Error('socket refused'));
        socket.onopen = () => socket.send(JSON.stringify({ type: 'call', id: 1, name, input }));
        socket.onmessage = (message) => {
          const frame = JSON.parse(String(message.data)) as { type: string; id?: number; result: { ok: boolean } };
          if (frame.type === 'result' && frame.id === 1) {
            socket.close();
            resolve(frame.result.ok);
          }
        };
      }),
    { name, input, origin },
  );
  expect(ok, name).toBe(true);
}

test('a reprint without an operator asks for the name there and then, in every language, instead of refusing', async ({ page, webHost, sandboxOrders }) => {
  await openStation(page, webHost);
  const order = draftOrder(sandboxOrders);
  await scanLikeAScanner(page, order.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  const words: Record<Language, [string, string]> = {
    en: ['Who is reprinting?', 'Type your name or scan your operator badge'],
    nl: ['Wie print opnieuw?', 'Typ uw naam of scan uw medewerkerspas'],
    de: ['Wer druckt erneut?', 'Tippen Sie Ihren Namen oder scannen Sie Ihren Mitarbeiterausweis'],
    pl: ['Kto drukuje ponownie?', 'Wpisz swoje imię lub zeskanuj identyfikator'],
  };
  for (const language of ['nl', 'de', 'pl', 'en'] as const) {
    await inLanguage(page, language, 'F1');
    await scanLikeAScanner(page, order.orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'duplicate');
    await page.keyboard.press('Enter');
    await page.keyboard.press('1');
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading')).toHaveText(words[language][0]);
    await expect(dialog).toContainText(words[language][1]);
    // Never the old refusal that sent the packer to Setup.
    await expect(page.getByTestId('scan-result')).not.toHaveAttribute('data-state', 'failed');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }
});

test('a stopped web host shows "the station is not running — restart it", and the page reconnects by itself when it is back', async ({ page, sandboxOrders }) => {
  let host = await startStationHost();
  const { dataDir } = host;
  // Every restart below listens where the page expects it.
  const port = Number(new URL(host.url).port);
  try {
    await openStation(page, host);
    const banner = page.getByTestId('station-gone');
    const words: Record<Language, [string, string]> = {
      en: ['The station is not running', 'Restart it'],
      nl: ['Het station draait niet', 'Start het opnieuw'],
      de: ['Die Station läuft nicht', 'Starten Sie sie neu'],
      pl: ['Stacja nie działa', 'Uruchom ją ponownie'],
    };
    for (const language of ['en', 'nl', 'de', 'pl'] as const) {
      await inLanguage(page, language, 'F1');
      await expect(banner).toHaveCount(0);
      await host.stop();
      await expect(page.getByTestId('station-gone-title')).toHaveText(words[language][0], { timeout: 15_000 });
      await expect(page.getByTestId('station-gone-action')).toHaveText(words[language][1]);
      await expect(banner).not.toContainText(/network cable|Wi-Fi|netwerkkabel|Netzwerkkabel|kabel sieciowy/i);
      if (language === 'en') await page.screenshot({ path: `${screenshotDir}/station-gone-1280x800.png` });
      // Started again on the same data folder and port: the banner goes by itself, no reload.
      host = await startStationHost({ dataDir, port });
      await expect(banner).toHaveCount(0, { timeout: 20_000 });
    }
    await inLanguage(page, 'en', 'F1');
    const order = draftOrder(sandboxOrders);
    await scanLikeAScanner(page, order.orderRef);
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 20_000 });
  } finally {
    await host.stop();
    removeDataDir(dataDir);
  }
});

test('an order in today’s manifest that the service does not know says so, not "import today’s manifest"', async ({ page, webHost }) => {
  await openStation(page, webHost);
  const manifest = 'orderId,orderRef,barcode\r\na7e0c1f2-0000-4000-8000-00000000dead,GHOST-REF-1,GHOSTBC1\r\n';
  await callFromPage(page, 'imports.manifest', { source: { kind: 'content', fileName: 'today.csv', base64: Buffer.from(manifest).toString('base64') } });
  await scanLikeAScanner(page, 'GHOST-REF-1');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
  const title = page.getByTestId('result-error-title');
  const action = page.getByTestId('result-error-action');
  await expect(title).toHaveText("GHOST-REF-1 is in today's list, but the delivery service does not know it");
  await expect(action).toHaveText('Put the parcel aside and ask a supervisor to check the order at the delivery service');
  await expect(page.getByTestId('scan-result')).not.toContainText(/manifest/i);
  await expectInEveryLanguage(page, 'F1', {
    en: [[title, "GHOST-REF-1 is in today's list, but the delivery service does not know it"]],
    nl: [[title, 'GHOST-REF-1 staat in de lijst van vandaag, maar de bezorgdienst kent de order niet']],
    de: [[title, 'GHOST-REF-1 steht in der heutigen Liste, aber der Lieferdienst kennt den Auftrag nicht']],
    pl: [[title, 'GHOST-REF-1 jest na dzisiejszej liście, ale usługa dostawcza nie zna tego zamówienia']],
  });
});

test('a label waiting on the printer has Resume and Cancel right on the panel, turns green when it comes out and stays green across screens', async ({ page, webHost, zebra, sandboxOrders }) => {
  await openStation(page, webHost);
  await addVirtualZebra(page, zebra);
  await zebra.setPaperOut(true);
  await page.keyboard.press('F1');
  const order = draftOrder(sandboxOrders, 1);
  await scanLikeAScanner(page, order.orderRef);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'waiting', { timeout: 20_000 });
  const resume = page.getByTestId('waiting-resume');
  await expect(page.getByTestId('result-error-action')).toHaveText('Load a roll, then press Resume');
  await expect(resume).toHaveText('Resume — the printer is ready');
  await expect(page.getByTestId('waiting-cancel')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}/scan-waiting-resume-1280x800.png` });
  await expectInEveryLanguage(page, 'F1', {
    en: [[resume, 'Resume — the printer is ready']],
    nl: [[resume, 'Hervatten — de printer is klaar']],
    de: [[resume, 'Fortsetzen — der Drucker ist bereit']],
    pl: [[resume, 'Wznów — drukarka jest gotowa']],
  });

  // The packer presses Resume as the roll goes in. Resume asks the printer now instead of at the
  // station's next look (every second), and the label comes out once the printer has paper: loaded
  // first, the station could see it before the click and the button would be gone.
  await resume.click();
  await zebra.setPaperOut(false);
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 10_000 });
  await expect.poll(() => zebra.printed().length, { timeout: 10_000 }).toBe(1);
  await page.keyboard.press('F3');
  await page.keyboard.press('F1');
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed');
  await expect(page.getByTestId('result-order')).toHaveText(order.orderRef);
});

test('a scan in TEST with no key and no address says TEST is not set up, not "printer not found"', async ({ page }) => {
  // A station with a real keychain, as on a desktop: it can tell that no key is there.
  const host = await startStationHost({ keyring: true });
  try {
    await openStation(page, host);
    await page.keyboard.press('F4');
    await page.getByTestId('environment-test').click();
    // Not set up yet (no address, no key): the screen asks, and the lead switches anyway to set it up.
    await page.getByTestId('confirm-yes').click();
    await expect(page.getByTestId('environment')).toHaveText('TEST');
    await page.keyboard.press('F1');
    await scanLikeAScanner(page, 'NW-104354-4');
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
    const title = page.getByTestId('result-error-title');
    const action = page.getByTestId('result-error-action');
    await expect(title).toHaveText('TEST is not set up: no delivery service address and no API key');
    await expect(action).toHaveText('Ask a supervisor to enter the address and the key in Setup (F4)');
    await expectInEveryLanguage(page, 'F1', {
      en: [[title, 'TEST is not set up: no delivery service address and no API key']],
      nl: [[title, 'TEST is niet ingesteld: geen adres van de bezorgdienst en geen API-sleutel']],
      de: [[title, 'TEST ist nicht eingerichtet: keine Adresse des Lieferdienstes und kein API-Schlüssel']],
      pl: [[title, 'TEST nie jest skonfigurowane: brak adresu usługi dostawczej i klucza API']],
    });
  } finally {
    await host.stop();
    removeDataDir(host.dataDir);
  }
});

test('a bundle the service does not know is named as unknown to the service, not "the station refused the request"', async ({ page, webHost }) => {
  await openStation(page, webHost);
  await page.keyboard.press('F2');
  await page.getByTestId('bundle-input').fill('BUNDLE-NOBODY-KNOWS');
  await page.getByTestId('bundle-input').press('Enter');
  await page.getByTestId('run-start').click();
  const title = page.getByTestId('run-error-title');
  const action = page.getByTestId('run-error-action');
  await expect(title).toHaveText('Bundle BUNDLE-NOBODY-KNOWS is not known to the delivery service', { timeout: 20_000 });
  await expect(action).toHaveText('Check the bundle slip; remove the bundle or ask a supervisor');
  await expect(page.getByTestId('run-error')).not.toContainText(/refused|HTTP 404/);
  await expectInEveryLanguage(page, 'F2', {
    en: [[title, 'Bundle BUNDLE-NOBODY-KNOWS is not known to the delivery service']],
    nl: [[title, 'Bundel BUNDLE-NOBODY-KNOWS is niet bekend bij de bezorgdienst']],
    de: [[title, 'Bündel BUNDLE-NOBODY-KNOWS ist dem Lieferdienst nicht bekannt']],
    pl: [[title, 'Pakiet BUNDLE-NOBODY-KNOWS nie jest znany usłudze dostawczej']],
  });
});

test('a manifest over the size limit is refused on the screen with its name and size, in every language, not "the import failed"', async ({ page, webHost }) => {
  await openStation(page, webHost);
  const big = bigFileOnDisk('week.csv', 33);
  const words: Record<Language, string> = {
    en: 'week.csv is larger than 32 MB (33 MB)',
    nl: 'week.csv is groter dan 32 MB (33 MB)',
    de: 'week.csv ist größer als 32 MB (33 MB)',
    pl: 'week.csv jest większy niż 32 MB (33 MB)',
  };
  for (const language of ['nl', 'de', 'pl', 'en'] as const) {
    await page.keyboard.press('F4');
    await page.getByTestId('setting-language').selectOption(language);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await page.getByTestId('import-file').setInputFiles(big);
    await expect(page.getByTestId('import-error-title')).toHaveText(words[language]);
  }
});
