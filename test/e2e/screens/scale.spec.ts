/**
 * The bench's scale, end to end: a virtual MT-SICS scale on a pseudo-terminal pair (socat), chosen
 * in Setup by its port with its live reading on screen; a parcel put on it, its slip scanned, the
 * weight arriving in the ship panel once the scale has settled, Enter, and the order at the
 * Delivery Service carrying that weight. A typed weight is sent when the packer types one.
 */
import { z } from 'zod';
import { startSandbox } from '../../../src/sandbox';
import { VirtualScale } from '../../../src/sandbox/scale/virtual-scale';
import { openPtyPair } from '../../support/pty-pair';
import { removeDataDir, startStationHost, type StationHost } from '../station-host';
import { addVirtualZebra, expect, test } from './bench-fixture';
import { controlOf, importToShip, useTestEnvironment } from './service-sandbox';
import { openStation, scanLikeAScanner, screenshotDir } from './station-page';

const OrdersSchema = z.object({ orders: z.array(z.looseObject({ orderId: z.string() })) });
const OrderSchema = z.looseObject({ orderRef: z.string(), weight: z.number().nullable() });

test('a parcel on the bench scale: its stable weight fills the ship panel, Enter ships, and the order carries it', async ({ page, zebra }) => {
  test.setTimeout(150_000);
  const sandbox = await startSandbox({ printers: 0, seedSize: 'small', faults: { labelDelayMs: 0 }, rateLimit: { requestsPerSecond: 0 } });
  const control = controlOf(sandbox);
  const weightAtService = async (orderRef: string) => {
    const [order] = OrdersSchema.parse(await control(`/environments/test/orders?orderRef=${orderRef}`)).orders;
    return OrderSchema.parse(await control(`/environments/test/orders/${order!.orderId}`)).weight;
  };
  const pty = await openPtyPair();
  const scale = new VirtualScale({ path: pty.device, protocol: 'mt-sics' });
  await scale.start();
  let host: StationHost | null = null;
  try {
    host = await startStationHost({ keyring: true });
    await page.setViewportSize({ width: 1024, height: 768 });
    await openStation(page, host);
    await useTestEnvironment(page, sandbox.environments.test.baseUrl, sandbox.environments.test.companies[0]!.apiKey);

    // Setup: the scale on its port, MT-SICS; the live reading shows the empty pan, then a test weight.
    await page.getByTestId('scale-kind-serial').check();
    await page.getByTestId('scale-port').fill(pty.station);
    await page.getByTestId('scale-protocol').selectOption('mt-sics');
    await page.getByTestId('scale-use').click();
    await expect(page.getByTestId('scale-reading')).toHaveText('Scale: 0 g (empty)', { timeout: 20_000 });
    scale.place(500, 300);
    await expect(page.getByTestId('scale-reading')).toHaveText('Scale: 500 g', { timeout: 20_000 });
    scale.set('overload');
    await expect(page.getByTestId('scale-reading')).toHaveText('Scale: overloaded — too heavy for this scale', { timeout: 20_000 });
    await page.getByTestId('scale-section').screenshot({ path: `${screenshotDir}/setup-scale-1024x768.png` });
    scale.place(0, 0);

    await addVirtualZebra(page, zebra, 'Bench Zebra', { first: true });
    await importToShip(
      page,
      'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName\nSHOP-9001,1101,Damrak,20,1012 LH,Amsterdam,NL,Jan Bakker\nSHOP-9002,1101,Rokin,5,1012 KK,Amsterdam,NL,Mila Jansen\n',
      '2 new',
    );

    // The slip is scanned while the parcel is still being set down: the panel waits for a steady weight.
    scale.place(1875, 2500);
    await scanLikeAScanner(page, 'SHOP-9001');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await expect(page.getByTestId('ship-scale-reading')).toHaveAttribute('data-state', 'settling', { timeout: 10_000 });
    await expect(page.getByTestId('ship-weight')).toHaveValue('');
    await expect(page.getByTestId('ship-weight')).toHaveValue('1875', { timeout: 20_000 });
    await expect(page.getByTestId('ship-weight-source')).toHaveText('From the scale');
    await expect(page.getByTestId('ship-scale-reading')).toHaveText('Scale: 1875 g');
    await page.screenshot({ path: `${screenshotDir}/ship-weight-from-scale-1024x768.png` });
    await page.getByTestId('ship-panel').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
    expect(await weightAtService('SHOP-9001')).toBe(1875);

    // The next parcel: the packer types its weight instead (the scale shows another).
    scale.place(900, 0);
    await scanLikeAScanner(page, 'SHOP-9002');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await expect(page.getByTestId('ship-weight')).toHaveValue('900', { timeout: 20_000 });
    await page.getByTestId('ship-weight').fill('2 340');
    await expect(page.getByTestId('ship-weight-source')).toHaveText('Typed');
    scale.place(950, 0);
    await expect(page.getByTestId('ship-scale-reading')).toHaveText('Scale: 950 g', { timeout: 20_000 });
    await expect(page.getByTestId('ship-weight')).toHaveValue('2 340');
    await page.getByTestId('ship-weight').press('Enter');
    await expect(page.getByTestId('ship-panel')).toHaveAttribute('data-state', 'shipped', { timeout: 30_000 });
    expect(await weightAtService('SHOP-9002')).toBe(2340);
  } finally {
    const dataDir = host?.dataDir;
    await host?.stop();
    if (dataDir) removeDataDir(dataDir);
    await scale.stop();
    await pty.close();
    await sandbox.close();
  }
});
