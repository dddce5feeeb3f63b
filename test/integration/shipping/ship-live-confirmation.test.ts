/**
 * Live means a real courier: shipping in the live environment (the sandbox's live environment, with
 * a live key bound to its address) creates nothing until the caller confirms the number of orders
 * about to be created, and a count that is not that number is refused the same way.
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

const SandboxOrdersSchema = z.object({ orders: z.array(z.looseObject({ orderId: z.string(), orderRef: z.string() })) });

const header = 'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,parcels';

describe('shipping in live asks for the count of real orders first', () => {
  let dataDir: string;
  let sandbox: EmbeddedSandbox;
  let running: RunningSandbox;
  let station: Station;

  const call = async <K extends CallName>(name: K, input: unknown): Promise<CallOutput<K>> => {
    const result = await station.dispatcher.dispatch(name, input, { host: 'web' });
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value as CallOutput<K>;
  };
  /** Orders the sandbox's live environment holds for an orderRef. */
  const liveOrders = async (orderRef: string) => {
    const response = await fetch(`${running.control.baseUrl}/environments/live/orders?orderRef=${encodeURIComponent(orderRef)}`, {
      headers: { authorization: `Bearer ${running.control.token}` },
    });
    if (!response.ok) throw new Error(`control: HTTP ${response.status}`);
    return SandboxOrdersSchema.parse(await response.json()).orders;
  };
  const parcelRefs = (orderRef: string, count: number) => Array.from({ length: count }, (_, index) => (index === 0 ? orderRef : `${orderRef}-P${index + 1}`));
  const liveOrdersOfParcels = async (orderRef: string, count: number) => (await Promise.all(parcelRefs(orderRef, count).map(liveOrders))).flat();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'station-ship-live-'));
    sandbox = createEmbeddedSandbox({ seedSize: 'small', rateLimit: { requestsPerSecond: 0 }, faults: { labelDelayMs: 0 } });
    running = await sandbox.start();
    const company = running.environments.live.companies[0]!;
    station = await composeStation({
      dataDir,
      host: 'web',
      version: '0.0.0-test',
      logger: createLogger(() => undefined),
      keyStore: memoryKeyStore({ live: { key: company.apiKey, address: running.environments.live.baseUrl } }),
      sandbox,
    });
    await call('settings.set', { environment: 'live', apiBaseUrls: { live: running.environments.live.baseUrl } });
    const location = company.locationIds[0]!;
    const file = join(dataDir, 'to-ship.csv');
    writeFileSync(
      file,
      [
        header,
        `LIVE-NONE-2,${location},Keizersgracht,100,1016 DK,Amsterdam,NL,Eva de Boer,2`,
        `LIVE-WRONG-2,${location},Herengracht,20,1016 BS,Amsterdam,NL,Ali Yilmaz,2`,
        `LIVE-RIGHT-2,${location},Damrak,1,1012 LG,Amsterdam,NL,Noah Visser,2`,
      ].join('\n'),
    );
    const report = await call('shipping.import', { source: { kind: 'picked', handle: station.services.pickedFiles.register(file) } });
    expect(report.newRows).toBe(3);
  }, 60_000);

  afterAll(async () => {
    await station?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('without the confirmation answers with the count of orders about to be created and creates nothing', async () => {
    const outcome = await call('shipping.ship', { orderRef: 'LIVE-NONE-2' });
    expect(outcome).toEqual({ outcome: 'confirm-live', orderRef: 'LIVE-NONE-2', toCreate: 2 });
    expect(await liveOrdersOfParcels('LIVE-NONE-2', 2)).toHaveLength(0);
    expect(await call('shipping.ledger', { orderRef: 'LIVE-NONE-2' })).toEqual([]);
  });

  it('refuses a confirmed count that is not the number of orders about to be created, and creates nothing', async () => {
    for (const wrong of [1, 3]) {
      const outcome = await call('shipping.ship', { orderRef: 'LIVE-WRONG-2', confirmLive: wrong });
      expect(outcome, `confirmLive ${wrong}`).toEqual({ outcome: 'confirm-live', orderRef: 'LIVE-WRONG-2', toCreate: 2 });
    }
    expect(await liveOrdersOfParcels('LIVE-WRONG-2', 2)).toHaveLength(0);
  });

  it('with the right count creates exactly those orders at the live service', async () => {
    const outcome = await call('shipping.ship', { orderRef: 'LIVE-RIGHT-2', confirmLive: 2 });
    if (outcome.outcome !== 'shipped') throw new Error(`expected shipped, got ${JSON.stringify(outcome)}`);
    expect(outcome.parcels.map((parcel) => [parcel.parcel, parcel.createdNow])).toEqual([
      [1, true],
      [2, true],
    ]);
    const atService = await liveOrdersOfParcels('LIVE-RIGHT-2', 2);
    expect(atService.map((order) => order.orderId).sort()).toEqual(outcome.parcels.map((parcel) => parcel.orderId).sort());
  });
});
