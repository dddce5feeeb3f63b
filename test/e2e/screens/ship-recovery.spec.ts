/**
 * Never create twice, at the bench, on the test environment against a sandbox this test runs (so
 * it outlives a station restart and takes injected faults): a create whose answer is lost is
 * unknown, scanning and Enter again create nothing, the status webhook settles it and the slip
 * then prints; a station stopped between creating an order and printing its label prints it after
 * the restart without creating it again.
 */
import Database from 'libsql';
import { join } from 'node:path';
import { z } from 'zod';
import { startSandbox } from '../../../src/sandbox';
import { VirtualZebra } from '../../../src/sandbox/printer/virtual-zebra';
import { removeDataDir, startStationHost, type StationHost } from '../station-host';
import { addVirtualZebra, expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner } from './station-page';
import type { Page } from '@playwright/test';

const OrdersSchema = z.object({ orders: z.array(z.looseObject({ orderId: z.string(), barcode: z.string() })) });
const barcodeOfZpl = (zpl: string): string | undefined => /\^BC[^^]*\^FD([^^]*)\^FS/.exec(zpl)?.[1];

/** The creation ledger's state of an order's first parcel, read from the station's own file next to it. */
function ledgerState(dataDir: string, orderRef: string): string | undefined {
  const db = new Database(join(dataDir, 'station.db'), { readonly: true });
  try {
    return (db.prepare("SELECT state FROM creation_ledger WHERE environment = 'test' AND order_ref = ? AND parcel = 1").get(orderRef) as { state?: string } | undefined)?.state;
  } finally {
    db.close();
  }
}

/** Setup as a lead does it: the test environment, its address, its key (kept in this station's keychain). */
async function useTestEnvironment(page: Page, baseUrl: string, apiKey: string, chooseEnvironment: boolean): Promise<void> {
  await page.keyboard.press('F4');
  if (chooseEnvironment) {
    // The choice is saved first, then shown: click, then wait for it.
    await page.getByTestId('environment-test').click();
    // Not set up yet (no address, no key): the screen asks, and the lead switches anyway to set it up.
    await page.getByTestId('confirm-yes').click();
    await expect(page.getByTestId('environment-test')).toBeChecked();
    await page.getByTestId('setting-base-url-test').fill(baseUrl);
    await page.getByTestId('setting-base-url-test').press('Enter');
    await expect(page.getByTestId('base-urls-saved')).toContainText('Saved');
    // A label printed again names who printed it.
    await page.getByTestId('setting-operator').fill('Sam');
    await page.getByTestId('setting-operator').press('Enter');
    await expect(page.getByTestId('setting-operator')).toHaveValue('Sam');
  }
  await page.getByTestId('key-input-test').fill(apiKey);
  await page.getByTestId('key-test').getByLabel('Check it with the delivery service before saving').uncheck();
  await page.getByTestId('key-save-test').click();
  await expect(page.getByTestId('key-status-test')).toContainText('A key is set');
}

test('a lost create answer is unknown and never posted again until its webhook settles it; a restart between create and print prints without creating', async ({ page, zebra }) => {
  test.setTimeout(180_000);
  const sandbox = await startSandbox({ printers: 0, seedSize: 'small', faults: { labelDelayMs: 0 }, rateLimit: { requestsPerSecond: 0 } });
  const control = async (path: string, method = 'GET', body?: unknown): Promise<unknown> => {
    const response = await fetch(`${sandbox.control.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${sandbox.control.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`control ${path}: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  };
  const atService = async (orderRef: string) => OrdersSchema.parse(await control(`/environments/test/orders?orderRef=${orderRef}`)).orders;
  const api = sandbox.environments.test;
  const company = api.companies[0]!;
  let host: StationHost | null = await startStationHost({ keyring: true });
  const dataDir = host.dataDir;
  let stopAgain: () => Promise<void> = async () => undefined;
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openStation(page, host);
    await useTestEnvironment(page, api.baseUrl, company.apiKey, true);
    await addVirtualZebra(page, zebra, 'Bench Zebra', { first: true });
    await page.keyboard.press('F1');
    const csv = 'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName\nSHOP-5001,1101,Damrak,20,1012 LH,Amsterdam,NL,Jan Bakker\nSHOP-5002,1101,Rokin,5,1012 KK,Amsterdam,NL,Mila Jansen\n';
    await page.getByTestId('ship-import-file').setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByTestId('ship-import-report')).toContainText('2 new');

    // The create is processed, its answer lost: unknown.
    await control('/settings', 'PATCH', { faults: { faultScope: 'create-order', dropRate: 1, dropMode: 'after' } });
    await scanLikeAScanner(page, 'SHOP-5001');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ship-refused')).toHaveAttribute('data-code', 'OUTCOME_UNKNOWN', { timeout: 30_000 });
    await control('/settings', 'PATCH', { faults: { faultScope: 'all', dropRate: 0 } });
    expect(await atService('SHOP-5001')).toHaveLength(1);

    // A second scan and Enter: refused again, nothing posted.
    await scanLikeAScanner(page, 'SHOP-5001');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ship-refused')).toHaveAttribute('data-code', 'OUTCOME_UNKNOWN', { timeout: 20_000 });
    expect(await atService('SHOP-5001')).toHaveLength(1);

    // The receiver goes on and is registered; the order's next status settles the parcel. That
    // status is "expected" (a label was printed, not here), so the slip asks before it prints.
    await page.keyboard.press('F4');
    await page.getByTestId('webhooks-toggle').click();
    const url = (await page.getByTestId('webhooks-url').textContent()) ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\//);
    await control('/environments/test/webhooks', 'POST', { company: company.name, url });
    const [created] = await atService('SHOP-5001');
    await control(`/environments/test/orders/${created!.orderId}/status`, 'POST', { status: 'expected' });
    await expect.poll(() => ledgerState(dataDir, 'SHOP-5001'), { timeout: 30_000 }).toBe('created');
    await page.keyboard.press('F1');
    await scanLikeAScanner(page, 'SHOP-5001');
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'elsewhere', { timeout: 30_000 });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'reason');
    await page.keyboard.press('2');
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 30_000 });
    await expect.poll(() => zebra.printed().map((label) => barcodeOfZpl(label.zpl)), { timeout: 20_000 }).toEqual([created!.barcode]);
    expect(await atService('SHOP-5001')).toHaveLength(1);

    // The printer is switched off; the order is created and the station stops before its label prints.
    const zebraPort = zebra.boundPort ?? 0;
    await zebra.stop();
    await scanLikeAScanner(page, 'SHOP-5002');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('Enter');
    await expect.poll(() => ledgerState(dataDir, 'SHOP-5002'), { timeout: 20_000 }).toBe('created');
    await host.stop();
    host = null;
    // Switched on again: the same printer at the same address, its memory empty.
    const again = new VirtualZebra({ name: 'Bench Zebra', labelsPerSecond: 20 });
    await again.start({ host: '127.0.0.1', port: zebraPort });
    stopAgain = () => again.stop();

    host = await startStationHost({ keyring: true, dataDir });
    await openStation(page, host);
    // A fresh keychain for the restarted station: the lead enters the key again.
    await useTestEnvironment(page, api.baseUrl, company.apiKey, false);
    await page.keyboard.press('F1');
    await scanLikeAScanner(page, 'SHOP-5002');
    await expect(page.getByTestId('scan-result')).toHaveAttribute('data-state', 'printed', { timeout: 30_000 });
    const [second] = await atService('SHOP-5002');
    await expect.poll(() => again.printed().map((label) => barcodeOfZpl(label.zpl)), { timeout: 20_000 }).toEqual([second!.barcode]);
    expect(await atService('SHOP-5002')).toHaveLength(1);
  } finally {
    await host?.stop();
    await stopAgain();
    removeDataDir(dataDir);
    await sandbox.close();
  }
});
