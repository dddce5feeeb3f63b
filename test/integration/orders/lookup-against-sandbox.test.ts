import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attachEmbeddedSandbox, type RunningSandbox, type SandboxOrder } from '../../../src/main/embedded-sandbox';
import { startSandbox } from '../../../src/sandbox/index';
import type { CallOutput } from '../../../src/shared/contract';
import { chartKeys, keyboardCharts, typingKeys, type KeyboardChart } from '../../support/keyboard-charts';
import { createTestStation, memoryKeyStore, type TestStation } from '../../support/station';

/** What a PC with layout `pc` makes of a US scanner's keys for `text` (from the layouts' published charts). */
function readOnPc(text: string, pc: KeyboardChart): string {
  const us = typingKeys(keyboardCharts.us);
  const pcKeys = chartKeys(pc);
  return [...text].map((character) => {
    const stroke = us.get(character)!;
    return pcKeys.find((key) => key.code === stroke.code && key.shift === stroke.shift)!.character;
  }).join('');
}

// The order index resolving scans with the real sandbox behind it: its seeded day of orders, the
// direct try of an unknown scan as an order id, and orders created and cancelled through the client.

let sandbox: RunningSandbox;
let test: TestStation;
const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });
const noordwind = () => sandbox.environments.test.companies[0]!;

const amsterdam = { street: 'Kerkstraat', houseNumber: '12', suffix: '', postalCode: '1017 GC', city: 'Amsterdam', countryCode: 'NL' };
let refCounter = 0;
const newOrder = () => ({ locationId: noordwind().locationIds[0]!, orderRef: `STATION-${process.pid}-${(refCounter += 1)}`, deliveryName: 'Iris Visser', deliveryAddress: amsterdam });

beforeAll(async () => {
  sandbox = await startSandbox({ seedSize: 'small', faults: { labelDelayMs: 0 }, rateLimit: { requestsPerSecond: 1000, burst: 1000 } });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  test = await createTestStation({
    sandbox: attachEmbeddedSandbox(sandbox),
    keyStore: memoryKeyStore({ test: { key: noordwind().apiKey, address: sandbox.environments.test.baseUrl } }),
    clientOptions: { retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50, totalBudgetMs: 2000 }, labelWait: { maxAttempts: 3, totalMs: 1000, delayMs: 100 } },
  });
  await call('settings.set', { apiBaseUrls: { test: sandbox.environments.test.baseUrl, live: sandbox.environments.live.baseUrl } });
});
afterEach(async () => {
  await test.dispose();
});

describe('order lookup against the sandbox', () => {
  it('knows the embedded sandbox\'s day of orders at once, in the sandbox environment', async () => {
    const seeded: SandboxOrder[] = await test.station.services.sandbox.todaysOrders();
    expect(seeded.length).toBeGreaterThan(5);
    const draft = seeded.find((order) => order.status === 'draft')!;
    for (const scan of [draft.orderRef, draft.barcode, draft.orderId]) {
      expect(await call('orders.lookup', { scan }), scan).toMatchObject({
        ok: true,
        value: { order: { environment: 'sandbox', orderId: draft.orderId, orderRef: draft.orderRef, bundleId: draft.bundleId, status: 'draft' }, printable: { allowed: true } },
      });
    }
    expect(await call('orders.count', {})).toEqual({ ok: true, value: { environment: 'sandbox', orders: seeded.length } });
    const cancelled = seeded.find((order) => order.status === 'cancelled');
    if (cancelled) {
      expect(await call('orders.lookup', { scan: cancelled.orderRef })).toMatchObject({ ok: true, value: { printable: { allowed: false } } });
    }
  });

  it('names a scan read through the wrong keyboard layout when read back it is one known order, and prints nothing on it', async () => {
    const seeded: SandboxOrder[] = await test.station.services.sandbox.todaysOrders();
    const draft = seeded.find((order) => order.status === 'draft' && /[68]/.test(order.barcode ?? ''))!;
    const onGermanPc = readOnPc(draft.orderRef!, keyboardCharts.de);
    expect(onGermanPc).toContain('ß');
    expect(await call('orders.lookup', { scan: onGermanPc })).toMatchObject({
      ok: false,
      error: { code: 'ORDER_NOT_FOUND', facts: { subject: 'keyboard-layout', readAs: 'de', typedAs: 'us', meant: draft.orderRef } },
    });
    const onFrenchPc = readOnPc(draft.barcode!, keyboardCharts.fr);
    const printed = await call('printing.scan', { scan: onFrenchPc });
    expect(printed).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND', facts: { subject: 'keyboard-layout', readAs: 'fr', typedAs: 'us', meant: draft.barcode } } });
    expect(await call('printing.journal', {})).toMatchObject({ ok: true, value: { entries: [] } });

    // A scan no reading makes a known order is a plain "not found".
    const unknown = await call('orders.lookup', { scan: readOnPc('NW-999999-9', keyboardCharts.de) });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND' } });
    expect(JSON.stringify(unknown)).not.toContain('keyboard-layout');
  });

  it('tries an unknown scan once as an order id, and remembers the order when the service knows it', async () => {
    await call('settings.set', { environment: 'test' });
    const seeded = await test.station.services.sandbox.todaysOrders();
    const order = seeded[0]!;
    expect(await call('orders.count', {})).toEqual({ ok: true, value: { environment: 'test', orders: 0 } });

    const first = await call('orders.lookup', { scan: order.orderId });
    expect(first).toMatchObject({ ok: true, value: { order: { environment: 'test', orderId: order.orderId, source: 'lookup' }, matchedBy: ['service'] } });
    const second = await call('orders.lookup', { scan: order.orderId });
    expect(second).toMatchObject({ ok: true, value: { matchedBy: ['orderId'] } });

    // An order ref is not an order id: the one try fails and the scan is reported not found.
    expect(await call('orders.lookup', { scan: order.orderRef })).toMatchObject({ ok: false, error: { code: 'ORDER_NOT_FOUND', message: expect.stringContaining(order.orderRef) } });
    expect(await call('orders.count', {})).toEqual({ ok: true, value: { environment: 'test', orders: 1 } });
  });

  it('hands the label it fetched on the direct try to the caller', async () => {
    const seeded = await test.station.services.sandbox.todaysOrders();
    const withZpl = seeded[1]!;
    const found = await test.station.services.lookup.lookup('test', withZpl.orderId, { labelRequest: { format: 'pdf' } });
    expect(found.label?.format).toBe('pdf');
    expect(found.matchedBy).toEqual(['service']);
  });

  it('learns orders the station creates, and their cancellation, from the client', async () => {
    await call('settings.set', { environment: 'test' });
    const client = await test.station.services.clients.forEnvironment('test');
    const created = await client.createOrder(newOrder());
    const found = await call('orders.lookup', { scan: created.orderRef, remote: false });
    expect(found).toMatchObject({
      ok: true,
      value: { order: { orderId: created.orderId, barcode: created.barcode, bundleId: created.orderBundle.bundleId, status: 'draft', source: 'created' }, printable: { allowed: true } },
    });
    await client.cancelOrder(created.orderId);
    const after = await call('orders.lookup', { scan: created.barcode, remote: false });
    expect(after).toMatchObject({ ok: true, value: { order: { status: 'cancelled' }, printable: { allowed: false } } });
    const value = after.ok ? (after.value as CallOutput<'orders.lookup'>) : null;
    expect(value?.printable.message).toContain(created.orderRef);
  });

  it('says plainly when the service could not be asked', async () => {
    await call('settings.set', { environment: 'live' });
    const result = await call('orders.lookup', { scan: 'SOME-UNKNOWN-ID' });
    expect(result).toMatchObject({ ok: false, error: { code: 'KEY_MISSING', message: expect.stringContaining('not in the station\'s order index') } });
    await call('settings.set', { apiBaseUrls: { live: null } });
    expect(await call('orders.lookup', { scan: 'SOME-UNKNOWN-ID' })).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED' } });
  });

  it('refuses a scan it cannot use before asking anyone', async () => {
    expect(await call('orders.lookup', { scan: 'REF\x07' })).toMatchObject({ ok: false, error: { code: 'SCAN_INVALID', message: expect.stringContaining('U+0007') } });
    expect(await call('orders.lookup', { scan: '   ' })).toMatchObject({ ok: false, error: { code: 'SCAN_INVALID' } });
  });
});
