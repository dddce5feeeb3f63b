/**
 * A bench rolled back to an older station, on data a newer one already migrated: the station does
 * not open the file, and the screen tells the person at the bench what to do (update this bench),
 * with the two versions, in the page's language. The data file is a real one, made by the
 * station, then marked as migrated one version further.
 */
import Database from 'libsql';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { knownSqliteVersion } from '../../../src/main/store/database';
import { removeDataDir, startStationHost, startStationInProcess } from '../station-host';
import { screenshotDir } from './station-page';

test('a bench file from a newer station: the screen says to update this bench, in English and Dutch, and the file stays as it was', async ({ browser }) => {
  test.setTimeout(60_000);
  const made = await startStationInProcess();
  await made.stop();
  const file = join(made.dataDir, 'station.db');
  const newer = new Database(file);
  newer.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(knownSqliteVersion + 1, 'a migration of the next release', '2026-03-01T08:00:00.000Z');
  // Everything into the file itself, the log emptied: no later close of a connection of this test's has anything left to write.
  newer.pragma('wal_checkpoint(TRUNCATE)');
  newer.close();
  const hash = () => createHash('sha256').update(readFileSync(file)).digest('hex');
  const before = hash();

  const host = await startStationHost({ dataDir: made.dataDir });
  try {
    const words = {
      en: {
        title: "This bench's data is from a newer Packing Station",
        action: `Its data file is at schema version ${knownSqliteVersion + 1}; this station knows up to version ${knownSqliteVersion}. Nothing in it was changed. Update this bench to the newer Packing Station, then start it again`,
      },
      nl: {
        title: 'De gegevens van deze werkplek komen van een nieuwere Packing Station',
        action: `Het gegevensbestand staat op schemaversie ${knownSqliteVersion + 1}; dit station kent tot versie ${knownSqliteVersion}. Er is niets in gewijzigd. Werk deze werkplek bij naar de nieuwere Packing Station en start hem daarna opnieuw`,
      },
    };
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    await page.goto(host.launchUrl);
    const alert = page.getByTestId('store-newer');
    await expect(alert.getByRole('heading')).toHaveText(words.en.title);
    await expect(alert).toContainText(words.en.action);
    await expect(alert).toBeInViewport();
    // The bench's language is the page's own preference: Dutch from the next load on.
    await page.addInitScript({ content: "localStorage.setItem('station.preferences.v1', JSON.stringify({ language: 'nl' }))" });
    await page.reload();
    await expect(alert.getByRole('heading')).toHaveText(words.nl.title);
    await expect(alert).toContainText(words.nl.action);
    await expect(alert).toBeInViewport();
    await page.screenshot({ path: `${screenshotDir}/newer-bench-file-nl-1024x768.png` });
    await context.close();
  } finally {
    await host.stop();
  }
  expect(hash()).toBe(before);
  removeDataDir(made.dataDir);
});
