/**
 * The sandbox's geocoder corrects the mistakes packers make (a suffix left off or added, a postal
 * code one digit off), and the station's ship flow shows each as a difference needing the packer's
 * confirmation, then creates the order with the corrected address.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { composeStation, type Station } from '../../../src/main/composition';
import { createEmbeddedSandbox, type EmbeddedSandbox, type RunningSandbox } from '../../../src/main/embedded-sandbox';
import { createLogger } from '../../../src/main/logging/logger';
import type { CallName, CallOutput } from '../../../src/shared/contract';
import { memoryKeyStore } from '../../support/station';

const SandboxOrdersSchema = z.object({ orders: z.array(z.looseObject({ orderId: z.string(), deliveryAddress: z.string() })) });

describe('addresses the sandbox corrects, through the ship flow', () => {
  let dataDir: string;
  let sandbox: EmbeddedSandbox;
  let running: RunningSandbox;
  let station: Station;

  const call = async <K extends CallName>(name: K, input: unknown): Promise<CallOutput<K>> => {
    const result = await station.dispatcher.dispatch(name, input, { host: 'web' });
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value as CallOutput<K>;
  };
  const ordersAtService = async (orderRef: string) => {
    const response = await fetch(`${running.control.baseUrl}/environments/test/orders?orderRef=${encodeURIComponent(orderRef)}`, {
      headers: { authorization: `Bearer ${running.control.token}` },
    });
    if (!response.ok) throw new Error(`control: HTTP ${response.status}`);
    return SandboxOrdersSchema.parse(await response.json()).orders;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'station-ship-geo-'));
    sandbox = createEmbeddedSandbox({ seedSize: 'small', rateLimit: { requestsPerSecond: 0 }, faults: { labelDelayMs: 0 } });
    running = await sandbox.start();
    station = await composeStation({ dataDir, host: 'web', version: '0.0.0-test', logger: createLogger(() => undefined), keyStore: memoryKeyStore(), sandbox });
    await station.services.sandboxReady();
    const file = join(dataDir, 'to-ship.csv');
    writeFileSync(
      file,
      [
        'orderRef,locationId,deliveryStreet,deliveryNumber,deliverySuffix,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName',
        'GEO-NOSUFFIX,1101,Herengracht,182,,1016 BR,Amsterdam,NL,Eva de Boer',
        'GEO-EXTRASUFFIX,1101,Singel,250,B,1016 AB,Amsterdam,NL,Ali Yilmaz',
        'GEO-TYPO,1101,Spui,21,,1013 WX,Amsterdam,NL,Noah Visser',
      ].join('\n'),
    );
    expect((await call('shipping.import', { source: { kind: 'picked', handle: station.services.pickedFiles.register(file) } })).newRows).toBe(3);
  }, 60_000);

  afterAll(async () => {
    await station?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['a suffix left off', 'GEO-NOSUFFIX', { field: 'suffix', sent: '', resolved: 'H' }],
    ['a suffix the house does not have', 'GEO-EXTRASUFFIX', { field: 'suffix', sent: 'B', resolved: '' }],
    ['a postal code one digit off', 'GEO-TYPO', { field: 'postalCode', sent: '1013 WX', resolved: '1012 WX' }],
  ])('%s is shown as the only difference and nothing is created before the packer confirms', async (_what, orderRef, difference) => {
    const first = await call('shipping.ship', { orderRef });
    if (first.outcome !== 'confirm-address') throw new Error(`expected confirm-address, got ${JSON.stringify(first)}`);
    expect(first.differences).toEqual([difference]);
    expect(await ordersAtService(orderRef)).toHaveLength(0);
  });

  it('creates the order with the corrected postal code once the packer confirms it', async () => {
    const confirmed = await call('shipping.ship', { orderRef: 'GEO-TYPO', acceptCorrectedAddress: true });
    expect(confirmed.outcome).toBe('shipped');
    const [order] = await ordersAtService('GEO-TYPO');
    expect(order!.deliveryAddress).toContain('1012 WX');
    expect(order!.deliveryAddress).not.toContain('1013');
  });
});
