/**
 * A Delivery Service sandbox the test runs itself (not the station's embedded one), so the test
 * can read what the service holds: its control API, and the steps a lead takes to point the
 * station at it.
 */
import type { Page } from '@playwright/test';
import type { startSandbox } from '../../../src/sandbox';
import { expect } from './bench-fixture';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export function controlOf(sandbox: Sandbox) {
  return async (path: string, method = 'GET', body?: unknown): Promise<unknown> => {
    const response = await fetch(`${sandbox.control.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${sandbox.control.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`control ${path}: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  };
}

/** Setup as a lead does it: the test environment, its address, its key (not checked first). */
export async function useTestEnvironment(page: Page, baseUrl: string, apiKey: string): Promise<void> {
  await page.keyboard.press('F4');
  await page.getByTestId('environment-test').click();
  // TEST has no address and no key yet: the screen asks, and the lead switches to set it up.
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId('environment-test')).toBeChecked();
  await page.getByTestId('setting-base-url-test').fill(baseUrl);
  await page.getByTestId('setting-base-url-test').press('Enter');
  await expect(page.getByTestId('base-urls-saved')).toContainText('Saved');
  await page.getByTestId('key-input-test').fill(apiKey);
  await page.getByTestId('key-test').getByLabel('Check it with the delivery service before saving').uncheck();
  await page.getByTestId('key-save-test').click();
  await expect(page.getByTestId('key-status-test')).toContainText('A key is set');
}

/** The shop's orders to ship, imported on the scan screen. */
export async function importToShip(page: Page, csv: string, expected: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.getByTestId('ship-import-file').setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('ship-import-report')).toContainText(expected);
}
