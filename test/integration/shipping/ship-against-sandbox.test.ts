/**
 * Shipping from the bench through the station's dispatcher, on the embedded sandbox and its
 * virtual Zebra: import orders to ship, ship a bundle of 3, a corrected address, an undeliverable
 * address, a 406 pickup point, a create whose connection drops (unknown, never posted again,
 * settled by the `draft` webhook), and a restart between creating and printing.
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
import type { StationErrorData } from '../../../src/shared/errors';
import { memoryKeyStore } from '../../support/station';
import { waitForValue } from '../../support/wait-until';

type Outcome<K extends CallName> = { ok: true; value: CallOutput<K> } | { ok: false; error: StationErrorData };

const SandboxOrdersSchema = z.object({ orders: z.array(z.looseObject({ orderId: z.string(), orderRef: z.string(), barcode: z.string() })) });

const barcodeOfZpl = (zpl: string): string | null => /\^BC[^^]*\^FD([^^]*)\^FS/.exec(zpl)?.[1] ?? null;

const header = 'orderRef,locationId,deliveryStreet,deliveryNumber,deliverySuffix,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName,parcels,pudoId,weight';

describe('ship from the bench on the embedded sandbox', () => {
  let dataDir: string;
  let sandbox: EmbeddedSandbox;
  let running: RunningSandbox;
  let station: Station;
  let pickupPointFarFromItsCarrier: string;

  const attempt = async <K extends CallName>(name: K, input: unknown): Promise<Outcome<K>> => (await station.dispatcher.dispatch(name, input, { host: 'web' })) as Outcome<K>;
  const call = async <K extends CallName>(name: K, input: unknown): Promise<CallOutput<K>> => {
    const result = await attempt(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value;
  };
  const control = async (path: string, init: { method?: string; body?: unknown } = {}): Promise<unknown> => {
    const response = await fetch(`${running.control.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${running.control.token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!response.ok) throw new Error(`control ${path}: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  };
  /** Orders the sandbox holds for an orderRef (created ones included). */
  const ordersAtService = async (orderRef: string) => SandboxOrdersSchema.parse(await control(`/environments/test/orders?orderRef=${encodeURIComponent(orderRef)}`)).orders;
  const printedBarcodes = async () => (await sandbox.printedLabels(0)).map((label) => barcodeOfZpl(label.zpl));
  const launch = () =>
    composeStation({ dataDir, host: 'web', version: '0.0.0-test', logger: createLogger(() => undefined), keyStore: memoryKeyStore(), sandbox, clientOptions: { timeouts: { responseMs: 2_000, attemptMs: 3_000 } } });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'station-ship-'));
    sandbox = createEmbeddedSandbox({ seedSize: 'small', rateLimit: { requestsPerSecond: 0 }, faults: { labelDelayMs: 0 } });
    running = await sandbox.start();
    station = await launch();
    await station.services.sandboxReady();
    // A EuroLocker locker: Amsterdam's NL 5xxx area has pickup delivery by NordPost only, so an order there to it is 406.
    const client = await station.services.clients.forEnvironment('sandbox');
    const search = await client.searchPickupPoints({ countryCode: 'NL', postalCode: '1012AB', maxResults: 100, maxDistanceKm: 500, types: ['PARCEL_LOCKER'] });
    pickupPointFarFromItsCarrier = search.points.find((point) => point.carrierPudoId?.startsWith('EL'))!.pudoId;
    const csv = [
      header,
      'NW-SHIP-3,1101,Keizersgracht,100,,1016 DK,Amsterdam,NL,Eva de Boer,3,,1200',
      'NW-CORR-1,1101,Prinsengracht,12,,1016 GV,Amsterdm,NL,Ali Yilmaz,,,',
      'NW-FAR-1,1101,Vismarkt,3,,9711 KT,Groningen,NL,Sanne Bos,,,',
      `NW-PUDO-1,1101,Parade,8,,5911 CE,Venlo,NL,Lotte Smit,,${pickupPointFarFromItsCarrier},`,
      'NW-DROP-1,1101,Damrak,1,,1012 LG,Amsterdam,NL,Noah Visser,,,',
      'NW-CRASH-1,1101,Rokin,5,,1012 KK,Amsterdam,NL,Mila Jansen,,,',
      'NW-BAD-1,1101,Rokin,5,,1012 KK,Amsterdam,Netherlands,Mila Jansen,,,',
      'NW-WEIGH-1,1101,Damrak,20,,1012 LH,Amsterdam,NL,Jan Bakker,,,500',
      'NW-FAST-3,1101,Herengracht,50,,1016 BS,Amsterdam,NL,Daan Mulder,3,,',
      'NW-SLIP-1,1101,Spui,21,,1012 WX,Amsterdam,NL,Fleur Peters,2,,',
    ].join('\n');
    const file = join(dataDir, 'to-ship.csv');
    writeFileSync(file, csv);
    const report = await call('shipping.import', { source: { kind: 'picked', handle: station.services.pickedFiles.register(file) } });
    expect(report.newRows).toBe(9);
  }, 60_000);

  afterAll(async () => {
    await station?.close();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports again with the rows it already has counted as updated and a bad row rejected with its reason', async () => {
    const file = join(dataDir, 'again.csv');
    writeFileSync(file, [header, 'NW-SHIP-3,1101,Keizersgracht,100,,1016 DK,Amsterdam,NL,Eva de Boer,3,,1200', 'NW-X,1101,Rokin,5,,1012 KK,Amsterdam,Netherlands,Mila Jansen,,,'].join('\n'));
    const report = await call('shipping.import', { source: { kind: 'picked', handle: station.services.pickedFiles.register(file) } });
    expect(report).toMatchObject({ newRows: 0, updatedRows: 1, rejectedRows: 1 });
    expect(report.rows[1]).toMatchObject({ row: 3, orderRef: 'NW-X', outcome: 'rejected' });
    expect(report.rows[1]!.reason).toContain('deliveryCountry should be a two-letter country code');
  });

  it('ships 3 parcels as one bundle of 3 orders and prints their 3 labels, parcel n of 3 in the journal', async () => {
    const before = (await sandbox.printedLabels(0)).length;
    const outcome = await call('shipping.ship', { orderRef: 'NW-SHIP-3' });
    if (outcome.outcome !== 'shipped') throw new Error(`expected shipped, got ${outcome.outcome}`);
    expect(outcome.parcels.map((parcel) => [parcel.parcel, parcel.parcelCount, parcel.printed])).toEqual([
      [1, 3, 'printed'],
      [2, 3, 'printed'],
      [3, 3, 'printed'],
    ]);
    const atService = [...(await ordersAtService('NW-SHIP-3')), ...(await ordersAtService('NW-SHIP-3-P2')), ...(await ordersAtService('NW-SHIP-3-P3'))];
    expect(atService).toHaveLength(3);
    const bundles = new Set(outcome.parcels.map((parcel) => parcel.bundleId));
    expect(bundles.size).toBe(1);
    const printed = await waitForValue(async () => ((await sandbox.printedLabels(0)).length >= before + 3 ? printedBarcodes() : null), '3 labels at the virtual Zebra');
    expect(printed.slice(before)).toEqual(atService.map((order) => order.barcode));
    const journal = await call('printing.journal', { orderId: outcome.parcels[1]!.orderId });
    expect(journal.entries[0]).toMatchObject({ bundlePosition: 2, bundleCount: 3 });
  });

  it('creates the other parcels of a bundle together, once the first has made the bundle', async () => {
    const createMs = 800;
    await control('/settings', { method: 'PATCH', body: { faults: { faultScope: 'create-order', latencyMs: createMs } } });
    try {
      const started = performance.now();
      const outcome = await call('shipping.ship', { orderRef: 'NW-FAST-3' });
      const elapsedMs = performance.now() - started;
      if (outcome.outcome !== 'shipped') throw new Error(`expected shipped, got ${outcome.outcome}`);
      expect(outcome.parcels.map((parcel) => parcel.printed)).toEqual(['printed', 'printed', 'printed']);
      expect(new Set(outcome.parcels.map((parcel) => parcel.bundleId)).size).toBe(1);
      // One after the other, three creates take at least 3 × 800 ms; the first, then the other two
      // together, take two of them and the rest of the ship.
      expect(elapsedMs).toBeGreaterThanOrEqual(2 * createMs);
      expect(elapsedMs).toBeLessThan(3 * createMs - 100);
    } finally {
      await control('/settings', { method: 'PATCH', body: { faults: { faultScope: 'all', latencyMs: 0 } } });
    }
  });

  it('the weight weighed at the bench replaces the one the order came with, at the service', async () => {
    const outcome = await call('shipping.ship', { orderRef: 'NW-WEIGH-1', weight: 1875 });
    expect(outcome.outcome).toBe('shipped');
    const [order] = await ordersAtService('NW-WEIGH-1');
    expect(await control(`/environments/test/orders/${order!.orderId}`)).toMatchObject({ orderRef: 'NW-WEIGH-1', weight: 1875 });
  });

  it('a weight that is not whole grams above zero is refused before anything is created', async () => {
    for (const weight of [0, -5, 12.5]) {
      const result = await attempt('shipping.ship', { orderRef: 'NW-CORR-1', weight });
      expect(result.ok ? null : result.error.code).toBe('INVALID_INPUT');
    }
    expect(await ordersAtService('NW-CORR-1')).toHaveLength(0);
  });

  it('a second Enter on a shipped order creates nothing and prints nothing twice', async () => {
    const outcome = await call('shipping.ship', { orderRef: 'NW-SHIP-3' });
    if (outcome.outcome !== 'shipped') throw new Error(`expected shipped, got ${outcome.outcome}`);
    expect(outcome.parcels.every((parcel) => !parcel.createdNow && parcel.printed === 'duplicate')).toBe(true);
    expect(await ordersAtService('NW-SHIP-3-P2')).toHaveLength(1);
  });

  it('a scan of a slip to ship opens its shipment and prints nothing; a scan of an order whose parcels are all shipped is a label printed before', async () => {
    const before = (await sandbox.printedLabels(0)).length;
    expect(await call('printing.scan', { scan: 'NW-SLIP-1' })).toMatchObject({ outcome: 'to-ship', scan: 'NW-SLIP-1', parcels: 2 });
    // Parcel 1's order is in the order index and its ship is done: the duplicate guard answers.
    expect(await call('printing.scan', { scan: 'NW-SHIP-3' })).toMatchObject({ outcome: 'duplicate', order: { orderRef: 'NW-SHIP-3' } });
    expect((await sandbox.printedLabels(0)).length).toBe(before);
  });

  it('shows a corrected address as a difference and creates with it once the packer confirms', async () => {
    const first = await call('shipping.ship', { orderRef: 'NW-CORR-1' });
    if (first.outcome !== 'confirm-address') throw new Error(`expected confirm-address, got ${first.outcome}`);
    expect(first.differences).toEqual([{ field: 'city', sent: 'Amsterdm', resolved: 'Amsterdam' }]);
    expect(await ordersAtService('NW-CORR-1')).toHaveLength(0);
    const confirmed = await call('shipping.ship', { orderRef: 'NW-CORR-1', acceptCorrectedAddress: true });
    expect(confirmed.outcome).toBe('shipped');
    const [order] = await ordersAtService('NW-CORR-1');
    expect(order).toMatchObject({ deliveryAddress: expect.stringContaining('Amsterdam') as unknown });
  });

  it('refuses an address outside every delivery area with the reason and the next step, and creates nothing', async () => {
    const result = await attempt('shipping.ship', { orderRef: 'NW-FAR-1' });
    if (result.ok) throw new Error('expected a refusal');
    expect(result.error.code).toBe('NOT_DELIVERABLE');
    expect(result.error.message).toContain('outside every delivery area');
    expect(result.error.details?.join(' ')).toContain('exception shelf');
    expect(await ordersAtService('NW-FAR-1')).toHaveLength(0);
    expect(await call('shipping.ledger', { orderRef: 'NW-FAR-1' })).toEqual([]);
  });

  it('refuses a pickup point the service answers 406 for, naming the point and the lead\'s choices', async () => {
    const result = await attempt('shipping.ship', { orderRef: 'NW-PUDO-1' });
    if (result.ok) throw new Error('expected a refusal');
    expect(result.error.code).toBe('PICKUP_POINT_REJECTED');
    expect(result.error.message).toContain(pickupPointFarFromItsCarrier);
    expect(result.error.details?.[0]).toContain('another pickup point, or home delivery');
    expect(await ordersAtService('NW-PUDO-1')).toHaveLength(0);
    const [entry] = await call('shipping.ledger', { orderRef: 'NW-PUDO-1' });
    expect(entry).toMatchObject({ state: 'rejected' });
  });

  it('leaves a create whose connection dropped unknown, never posts it again, and settles it by the draft webhook', async () => {
    await control('/settings', { method: 'PATCH', body: { faults: { faultScope: 'create-order', dropRate: 1, dropMode: 'after' } } });
    let result: Outcome<'shipping.ship'>;
    try {
      result = await attempt('shipping.ship', { orderRef: 'NW-DROP-1' });
    } finally {
      await control('/settings', { method: 'PATCH', body: { faults: { faultScope: 'all', dropRate: 0 } } });
    }
    if (result.ok) throw new Error(`expected the outcome to be unknown, got ${JSON.stringify(result.value)}`);
    expect(result.error.code).toBe('OUTCOME_UNKNOWN');
    expect((await call('shipping.ledger', { orderRef: 'NW-DROP-1' }))[0]).toMatchObject({ state: 'unknown' });

    const again = await attempt('shipping.ship', { orderRef: 'NW-DROP-1' });
    expect(again.ok ? 'shipped' : again.error.code).toBe('OUTCOME_UNKNOWN');
    expect(await ordersAtService('NW-DROP-1')).toHaveLength(1);

    // The receiver is switched on; the sandbox then sends the status of orders as they change.
    await call('settings.set', { webhooks: { host: '127.0.0.1', port: 0 } });
    await call('webhooks.start', {});
    const [created] = await ordersAtService('NW-DROP-1');
    await control(`/environments/test/orders/${created!.orderId}/status`, { method: 'POST', body: { status: 'expected' } });
    const settled = await waitForValue(async () => {
      const [entry] = await call('shipping.ledger', { orderRef: 'NW-DROP-1' });
      return entry?.state === 'created' ? entry : null;
    }, 'the webhook to settle the unknown parcel');
    expect(settled.orderId).toBe(created!.orderId);

    const shipped = await call('shipping.ship', { orderRef: 'NW-DROP-1' });
    if (shipped.outcome !== 'shipped') throw new Error(`expected shipped, got ${shipped.outcome}`);
    expect(shipped.parcels[0]).toMatchObject({ createdNow: false, printed: 'printed', orderId: created!.orderId });
    expect(await ordersAtService('NW-DROP-1')).toHaveLength(1);
  });

  it('after a restart between creating and printing, prints the order and does not create it again', async () => {
    // What the ship does up to its POST's answer, then the process ends before printing.
    const ledger = station.services.ledger;
    await ledger.intend('sandbox', 'NW-CRASH-1', 1, 1);
    expect(await ledger.claim('sandbox', 'NW-CRASH-1', 1, 1)).toBe(true);
    const client = await station.services.clients.forEnvironment('sandbox');
    const order = await client.createOrder({
      locationId: '1101',
      orderRef: 'NW-CRASH-1',
      deliveryName: 'Mila Jansen',
      deliveryAddress: { street: 'Rokin', houseNumber: '5', postalCode: '1012 KK', city: 'Amsterdam', countryCode: 'NL' },
    });
    await ledger.markCreated('sandbox', 'NW-CRASH-1', 1, { orderId: order.orderId, barcode: order.barcode, bundleId: order.orderBundle.bundleId });
    await station.close();

    station = await launch();
    await station.services.sandboxReady();
    const outcome = await call('shipping.ship', { orderRef: 'NW-CRASH-1' });
    if (outcome.outcome !== 'shipped') throw new Error(`expected shipped, got ${outcome.outcome}`);
    expect(outcome.parcels[0]).toMatchObject({ createdNow: false, printed: 'printed', orderId: order.orderId });
    expect(await ordersAtService('NW-CRASH-1')).toHaveLength(1);
    const printed = await waitForValue(async () => {
      const barcodes = await printedBarcodes();
      return barcodes.includes(order.barcode) ? barcodes : null;
    }, 'the label at the virtual Zebra');
    expect(printed.filter((barcode) => barcode === order.barcode)).toHaveLength(1);
  });

  it('a parcel left posting by a process that stopped is unknown after a restart, never posted again', async () => {
    const ledger = station.services.ledger;
    await ledger.intend('sandbox', 'NW-SHIP-STOPPED', 1, 1);
    expect(await ledger.claim('sandbox', 'NW-SHIP-STOPPED', 1, 1)).toBe(true);
    await station.close();
    station = await launch();
    expect((await call('shipping.ledger', { orderRef: 'NW-SHIP-STOPPED' }))[0]).toMatchObject({ state: 'unknown' });
  });
});
