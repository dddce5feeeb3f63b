/**
 * IT saves a warehouse store whose address does not answer, in English and Dutch at 1024×768:
 * Setup says at once, where the lead looks, that it is saved but does not answer and what that
 * means at the next start (no "Saved" beside a red test). After the restart the bench is on the
 * store that does not answer: a scan says nothing was printed, in full view, and no empty "Pull
 * these 0 parcels" panel pushes that answer off the screen, nor does the sandbox's panel claim
 * every sample order printed when it could not read them. Nothing listens on the store's port;
 * the password goes to the real OS keychain of the station's session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDataDir, startStationHost, type StationHost } from '../station-host';
import { draftOrder, expect, saveStoreNothingAnswers, test } from './bench-fixture';
import { chooseLanguageBeforeStart } from './layout-support';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

test.use({ viewport: { width: 1024, height: 768 } });

const words = {
  en: {
    savedSilent: 'Saved, but it does not answer now: from the station’s next start this bench prints nothing until it does.',
    nothingPrinted: 'Shared store offline: nothing was printed',
    allPrinted: 'Every sample order of today is printed',
  },
  nl: {
    savedSilent: 'Opgeslagen, maar de opslag antwoordt nu niet: vanaf de volgende start van het station print deze werkplek niets tot hij antwoordt.',
    nothingPrinted: 'Gedeelde opslag offline: er is niets geprint',
    allPrinted: 'Alle voorbeeldorders van vandaag zijn afgedrukt',
  },
} as const;

for (const language of ['en', 'nl'] as const) {
  test(`in "${language}" a store saved where nothing answers is said so at once; after the restart a scan's answer is in full view`, async ({ page, sandboxOrders }) => {
    test.setTimeout(180_000);
    await chooseLanguageBeforeStart(page, language);
    const keyringHome = mkdtempSync(join(tmpdir(), 'station-e2e-keyring-'));
    const dataDir = mkdtempSync(join(tmpdir(), 'station-e2e-'));
    let station: StationHost | null = await startStationHost({ keyring: true, keyringHome, dataDir });
    try {
      await openStation(page, station);
      await page.keyboard.press('F4');
      await saveStoreNothingAnswers(page);
      const savedSilent = page.getByTestId('store-saved-not-answering');
      await expect(savedSilent).toContainText(words[language].savedSilent, { timeout: 20_000 });
      await expect(savedSilent).toBeInViewport({ ratio: 1 });
      await expect(page.getByTestId('store-saved')).toHaveCount(0);
      await expect(page.getByTestId('store-problem')).toBeVisible();
      await page.screenshot({ path: `${screenshotDir}/setup-store-saved-not-answering-${language}-1024x768.png` });

      await station.stop();
      station = await startStationHost({ keyring: true, keyringHome, dataDir });
      await openStation(page, station);
      await expect(page.getByTestId('store-offline')).toHaveAttribute('data-state', 'offline', { timeout: 20_000 });
      await scanLikeAScanner(page, draftOrder(sandboxOrders, 0).orderRef);
      const result = page.getByTestId('scan-result');
      await expect(result).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
      await expect(page.getByTestId('result-error-title')).toHaveText(words[language].nothingPrinted);
      await expect(page.getByTestId('pull-notices')).toHaveCount(0);
      // The sandbox's sample orders cannot be read from a store that does not answer: no claim that all are printed.
      await expect(page.getByTestId('first-run')).not.toContainText(words[language].allPrinted);
      await expect(page.getByTestId('result-error-title')).toBeInViewport({ ratio: 1 });
      await expect(result).toBeInViewport({ ratio: 0.9 });
      await page.screenshot({ path: `${screenshotDir}/scan-store-not-answering-${language}-1024x768.png` });
    } finally {
      await station?.stop();
      removeDataDir(dataDir);
      rmSync(keyringHome, { recursive: true, force: true });
    }
  });
}
