/**
 * The IT admin puts a bench on the warehouse's shared store from Setup, as they would: the address,
 * the TLS mode and the password, a connection test (a wrong password said so, the right one
 * "reachable"), Save (applied at the next start). Started again, the bench uses the shared store;
 * when the database stops, every screen says the shared store is offline, and the notice goes away
 * once it is back. The password is in the real OS keychain of the station's session and never
 * shown back. The PostgreSQL server is the test's own, on loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { removeDataDir, startStationHost, type StationHost } from '../station-host';
import { ownPostgres } from '../../support/postgres-server';
import { openStation } from './station-page';

const postgres = ownPostgres(test);

test('the admin chooses the shared warehouse store in Setup, and the bench says when it is offline', async ({ page }) => {
  test.setTimeout(120_000);
  const { info } = postgres.database();
  const keyringHome = mkdtempSync(join(tmpdir(), 'station-e2e-keyring-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'station-e2e-'));
  let station: StationHost | null = await startStationHost({ keyring: true, keyringHome, dataDir });
  try {
    await openStation(page, station);
    await page.keyboard.press('F4');
    const section = page.getByTestId('store-section');
    await expect(page.getByTestId('store-in-use')).toContainText('In use: this bench only (local)');
    await expect(page.getByTestId('store-kind-local')).toBeChecked();

    await section.getByLabel('Shared warehouse store (PostgreSQL)').check();
    await section.getByLabel('Address').fill(`postgres://${info.user}@127.0.0.1:${info.port}/${info.database}`);
    await section.getByLabel('Encryption (TLS)').selectOption('disable');
    // Not checking the server is said plainly, and takes the lead's explicit choice.
    await expect(page.getByTestId('store-unverified-warning')).toContainText('whoever answers at this address receives the password');
    await section.getByLabel("I accept that the server's identity is not checked").check();
    await expect(page.getByTestId('store-password')).toHaveAttribute('type', 'password');
    await page.getByTestId('store-password').fill('not-the-password');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('store-problem')).toHaveText(`The store at 127.0.0.1:${info.port} refused the password.`);

    await page.getByTestId('store-password').fill(info.password);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('store-test-result')).toHaveText(`Reachable: 127.0.0.1:${info.port}, schema version 0`);
    await section.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('store-saved')).toHaveText('Saved. The new store is used from the next start of the station.');
    await expect(page.getByTestId('store-password')).toHaveValue('');
    await expect(page.getByTestId('store-in-use')).toContainText('In use: this bench only (local)');
    // The password never comes back to the page.
    expect(await page.content()).not.toContain(info.password);

    // The bench's next start: on the shared store, brought up to date, the password from the keychain.
    await station.stop();
    station = await startStationHost({ keyring: true, keyringHome, dataDir });
    await openStation(page, station);
    await page.keyboard.press('F4');
    const address = `postgres://${info.user}@127.0.0.1:${info.port}/${info.database}?sslmode=disable`;
    await expect(page.getByTestId('store-in-use')).toHaveText(`In use: shared warehouse store ${address} — reachable`);
    await expect(page.getByTestId('store-kind-postgres')).toBeChecked();
    await expect(page.getByText('New password (leave empty to keep the stored one)')).toBeVisible();
    await expect(page.getByTestId('store-offline')).toHaveCount(0);

    await postgres.server().stop();
    await expect(page.getByTestId('store-offline')).toContainText('Shared store offline — printing would skip the duplicate guard', { timeout: 20_000 });
    await page.keyboard.press('F1');
    await expect(page.getByTestId('store-offline')).toBeVisible();
    await postgres.server().start();
    await expect(page.getByTestId('store-offline')).toHaveCount(0, { timeout: 20_000 });
  } finally {
    await postgres.server().start().catch(() => undefined);
    await station?.stop();
    removeDataDir(dataDir);
    rmSync(keyringHome, { recursive: true, force: true });
  }
});
