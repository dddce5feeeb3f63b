/**
 * At the bench, against a sandbox this test runs: a lead settles a parcel whose create answer was
 * lost, on the ship panel ("it was created", with the order id found at the service), and the slip
 * then prints that order without creating another; and in live the ship panel shows the LIVE
 * frame with the count of real orders about to be created before anything is created.
 */
import { z } from 'zod';
import { startSandbox } from '../../../src/sandbox';
import { removeDataDir, startStationHost, type StationHost } from '../station-host';
import { addVirtualZebra, expect, test } from './bench-fixture';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';
import type { Page } from '@playwright/test';

const OrdersSchema = z.object({ orders: z.array(z.looseObject({ orderId: z.string(), barcode: z.string() })) });
const barcodeOfZpl = (zpl: string): string | undefined => /\^BC[^^]*\^FD([^^]*)\^FS/.exec(zpl)?.[1];

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

function controlOf(sandbox: Sandbox) {
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

/** Setup as a lead does it: the environment (live asks first), its address, its key. */
async function useEnvironment(page: Page, environment: 'test' | 'live', baseUrl: string, apiKey: string): Promise<void> {
  await page.keyboard.press('F4');
  await page.getByTestId(`environment-${environment}`).click();
  // Live asks first, and an environment with no address and no key yet asks too: one question, answered yes.
  await page.getByTestId('confirm-yes').click();
  await expect(page.getByTestId(`environment-${environment}`)).toBeChecked();
  await page.getByTestId(`setting-base-url-${environment}`).fill(baseUrl);
  await page.getByTestId(`setting-base-url-${environment}`).press('Enter');
  await expect(page.getByTestId('base-urls-saved')).toContainText('Saved');
  await page.getByTestId(`key-input-${environment}`).fill(apiKey);
  await page.getByTestId(`key-${environment}`).getByLabel('Check it with the delivery service before saving').uncheck();
  await page.getByTestId(`key-save-${environment}`).click();
  await expect(page.getByTestId(`key-status-${environment}`)).toContainText('A key is set');
}

async function importToShip(page: Page, csv: string, expected: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.getByTestId('ship-import-file').setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('ship-import-report')).toContainText(expected);
}

test('a lead settles a parcel whose create answer was lost on the ship panel: it was created, and the slip then prints that order', async ({ page, zebra }) => {
  test.setTimeout(150_000);
  const sandbox = await startSandbox({ printers: 0, seedSize: 'small', faults: { labelDelayMs: 0 }, rateLimit: { requestsPerSecond: 0 } });
  const control = controlOf(sandbox);
  const atService = async (orderRef: string) => OrdersSchema.parse(await control(`/environments/test/orders?orderRef=${orderRef}`)).orders;
  let host: StationHost | null = null;
  try {
    host = await startStationHost({ keyring: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await openStation(page, host);
    await useEnvironment(page, 'test', sandbox.environments.test.baseUrl, sandbox.environments.test.companies[0]!.apiKey);
    await addVirtualZebra(page, zebra, 'Bench Zebra', { first: true });
    await importToShip(page, 'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName\nSHOP-7001,1101,Damrak,20,1012 LH,Amsterdam,NL,Jan Bakker\n', '1 new');

    await control('/settings', 'PATCH', { faults: { faultScope: 'create-order', dropRate: 1, dropMode: 'after' } });
    await scanLikeAScanner(page, 'SHOP-7001');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ship-refused')).toHaveAttribute('data-code', 'OUTCOME_UNKNOWN', { timeout: 30_000 });
    await control('/settings', 'PATCH', { faults: { faultScope: 'all', dropRate: 0 } });
    const [created] = await atService('SHOP-7001');

    // The panel lists the parcel in doubt; the lead looks it up at the service and decides, by keyboard.
    await expect(page.getByTestId('ship-unknown-parcel')).toHaveText(/Parcel 1 of 1 \(SHOP-7001\)/);
    // Opened from the keyboard and cancelled, the focus comes back to the button (WCAG 2.4.3).
    const decide = page.getByTestId('ship-decide');
    await decide.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('decide-created')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.locator('dialog[open]')).toHaveCount(0);
    await expect(decide).toBeFocused();
    await decide.click();
    await expect(page.getByTestId('decide-created')).toBeFocused();
    await page.keyboard.press('Space');
    await expect(page.getByTestId('decide-submit')).toBeDisabled();
    await page.getByTestId('decide-order-id').fill(created!.orderId);
    await page.getByTestId('decide-reason').fill('found it in the service dashboard');
    await page.getByTestId('decide-operator').fill('Lea');
    await page.screenshot({ path: `${screenshotDir}/ship-decide-1280x800.png` });
    await page.getByTestId('decide-submit').click();

    // Settled: the panel is ready again, and Enter prints the order the lead named, creating nothing.
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await page.keyboard.press('Enter');
    // A decision records the order id only; the label fetched by it carries the service's barcode.
    await expect(page.getByTestId('ship-shipped')).toContainText(`Parcel 1 of 1: ${created!.orderId}`, { timeout: 30_000 });
    await expect.poll(() => zebra.printed().map((label) => barcodeOfZpl(label.zpl)), { timeout: 20_000 }).toEqual([created!.barcode]);
    expect(await atService('SHOP-7001')).toHaveLength(1);
  } finally {
    const dataDir = host?.dataDir;
    await host?.stop();
    if (dataDir) removeDataDir(dataDir);
    await sandbox.close();
  }
});

test('in live the ship panel shows the LIVE frame and the count of real orders before creating any', async ({ page, zebra }) => {
  test.setTimeout(150_000);
  const sandbox = await startSandbox({ printers: 0, seedSize: 'small', faults: { labelDelayMs: 0 }, rateLimit: { requestsPerSecond: 0 } });
  const control = controlOf(sandbox);
  const live = sandbox.environments.live;
  const company = live.companies[0]!;
  const liveOrders = async (orderRef: string) => OrdersSchema.parse(await control(`/environments/live/orders?orderRef=${orderRef}`)).orders;
  let host: StationHost | null = null;
  try {
    host = await startStationHost({ keyring: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await openStation(page, host);
    await useEnvironment(page, 'live', live.baseUrl, company.apiKey);
    await addVirtualZebra(page, zebra, 'Bench Zebra', { first: true });
    const location = company.locationIds[0]!;
    await importToShip(page, `orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,parcels\nLIVE-8001,${location},Damrak,20,1012 LH,Amsterdam,NL,Jan Bakker,3\n`, '1 new');

    await scanLikeAScanner(page, 'LIVE-8001');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await expect(page.getByTestId('environment')).toHaveText('LIVE');
    await expect(page.getByTestId('app')).toHaveClass(/\benv-live\b/);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ship-live')).toContainText('LIVE: 3 real orders will be created', { timeout: 20_000 });
    await page.screenshot({ path: `${screenshotDir}/ship-live-1280x800.png` });
    expect(await liveOrders('LIVE-8001')).toHaveLength(0);

    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ship-shipped')).toContainText('Shipped: 3 labels', { timeout: 30_000 });
    const created = [...(await liveOrders('LIVE-8001')), ...(await liveOrders('LIVE-8001-P2')), ...(await liveOrders('LIVE-8001-P3'))];
    expect(created).toHaveLength(3);
  } finally {
    const dataDir = host?.dataDir;
    await host?.stop();
    if (dataDir) removeDataDir(dataDir);
    await sandbox.close();
  }
});
