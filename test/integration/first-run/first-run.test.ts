/**
 * A fresh station on the sandbox environment, through the dispatcher, with the embedded sandbox it
 * starts itself: the first scan prints with no setup, and the first-run calls (sample orders, the
 * day's bundles, a label's document, the virtual Zebra's printed labels, USB Zebras) answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { composeStation, type Station } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';
import type { RunningSandbox } from '../../../src/main/embedded-sandbox';
import type { CallName, CallOutput } from '../../../src/shared/contract';
import type { StationErrorData } from '../../../src/shared/errors';
import { memoryKeyStore } from '../../support/station';
import { waitForValue } from '../../support/wait-until';

const TodaysOrdersSchema = z.object({
  orders: z.array(z.looseObject({ orderId: z.string(), orderRef: z.string(), barcode: z.string(), bundleId: z.string(), status: z.string(), companyName: z.string(), zplAvailable: z.boolean() })),
});

type Outcome<K extends CallName> = { ok: true; value: CallOutput<K> } | { ok: false; error: StationErrorData };

function caller(station: Station) {
  const attempt = async <K extends CallName>(name: K, input: unknown): Promise<Outcome<K>> =>
    (await station.dispatcher.dispatch(name, input, { host: 'web' })) as Outcome<K>;
  const call = async <K extends CallName>(name: K, input: unknown): Promise<CallOutput<K>> => {
    const result = await attempt(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value;
  };
  return { attempt, call };
}

async function control(sandbox: RunningSandbox, path: string, init: { method?: string; body?: unknown } = {}): Promise<unknown> {
  const response = await fetch(`${sandbox.control.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${sandbox.control.token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(`control ${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

const barcodeOfZpl = (zpl: string): string | null => /\^BC[^^]*\^FD([^^]*)\^FS/.exec(zpl)?.[1] ?? null;

/** A station over `dataDir` as the app builds it: nothing passed for the sandbox, so it starts its own. */
const launch = (dataDir: string): Promise<Station> =>
  composeStation({ dataDir, host: 'web', version: '0.0.0-test', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });

describe('first run on the embedded sandbox', () => {
  let dataDir: string;
  let current: Station | undefined;
  let station: ReturnType<typeof caller>;
  let sandbox: RunningSandbox;
  let todays: z.infer<typeof TodaysOrdersSchema>['orders'];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'station-first-run-'));
    current = await launch(dataDir);
    station = caller(current);
  });

  afterAll(async () => {
    await current?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has the virtual Zebra as its printer for everything before anyone set anything up', async () => {
    const { printers } = await station.call('printers.list', {});
    sandbox = await current!.services.sandbox.start();
    const virtual = sandbox.printers[0];
    expect(virtual).toBeDefined();
    expect(printers).toHaveLength(1);
    expect(printers[0]).toMatchObject({
      name: 'Virtual Zebra (sandbox)',
      environment: 'sandbox',
      address: { kind: 'network-zebra', host: '127.0.0.1', port: virtual?.port },
      format: 'zpl',
      orientation: 'landscape',
      defaultForSingle: true,
      defaultForBundles: true,
    });
    const company = sandbox.environments.test.companies[0]?.name;
    todays = TodaysOrdersSchema.parse(await control(sandbox, '/environments/test/todays-orders')).orders.filter((order) => order.companyName === company);
    expect(todays.length).toBeGreaterThan(10);
    // The day of orders is in the index as soon as the sandbox started, before any lookup.
    expect(await station.call('orders.count', {})).toEqual({ environment: 'sandbox', orders: todays.length });
  });

  it('offers sample orders that print, and prints the first scan on the virtual Zebra', async () => {
    expect((await station.call('orders.samples', {})).orders).toHaveLength(5);
    const { orders: samples } = await station.call('orders.samples', { limit: 20 });
    expect(samples).toHaveLength(20);
    for (const sample of samples) {
      expect(sample.environment).toBe('sandbox');
      // Only drafts: an `expected` order was printed elsewhere and a scan of it asks first.
      expect(sample.status).toBe('draft');
      expect(todays.map((order) => order.orderId)).toContain(sample.orderId);
    }
    // One whose carrier has ZPL, so the label read back carries the barcode as text.
    const first = samples.find((order) => todays.some((mine) => mine.orderId === order.orderId && mine.zplAvailable))!;
    const outcome = await station.call('printing.print', { scan: first.orderRef });
    expect(outcome.outcome).toBe('printed');
    if (outcome.outcome !== 'printed') return;
    expect(outcome.printer.name).toBe('Virtual Zebra (sandbox)');

    const printed = await waitForValue(async () => {
      const { labels } = await station.call('sandbox.printedLabels', {});
      return labels.length > 0 ? labels : null;
    }, 'the label on the virtual Zebra');
    expect(printed).toHaveLength(1);
    expect(barcodeOfZpl(printed[0]!.zpl)).toBe(first.barcode);
    expect(printed[0]!.barcode).toBe(first.barcode);
    expect(printed[0]!.index).toBe(0);
    expect(Math.abs(printed[0]!.printedAt - Date.now())).toBeLessThan(60_000);

    // Printed now, so no longer a sample.
    const { orders: after } = await station.call('orders.samples', { limit: 20 });
    expect(after.map((order) => order.orderId)).not.toContain(first.orderId);
    expect(after).toHaveLength(20);
  });

  it('shows the printed label’s document: the service’s ZPL for A6 at 8 dots per mm', async () => {
    const { entries } = await station.call('printing.journal', { limit: 1 });
    const entry = entries[0]!;
    const document = await station.call('printing.labelDocument', { entryId: entry.id });
    expect(document).toMatchObject({ format: 'zpl', widthMm: 105, heightMm: 148, dpmm: 8 });
    const zpl = Buffer.from(document.base64, 'base64').toString('utf8');
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(barcodeOfZpl(zpl)).toBe(entry.barcode);

    const unknown = await station.attempt('printing.labelDocument', { entryId: 999_999 });
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error).toMatchObject({ code: 'NOT_FOUND', facts: { subject: 'label', id: 999_999 } });
  });

  it("lists today's bundles with their parcels and how many are printed, and prints one as native ZPL per order", async () => {
    const printedOrder = (await station.call('printing.journal', { limit: 1 })).entries[0]!;
    const all = await station.call('orders.bundles', { unprintedOnly: false });
    const expectedBundles = new Set(todays.map((order) => order.bundleId));
    expect(all.bundles.map((bundle) => bundle.bundleId).sort()).toEqual([...expectedBundles].sort());
    for (const bundle of all.bundles) {
      const members = todays.filter((order) => order.bundleId === bundle.bundleId);
      expect(bundle.parcels).toBe(members.length);
      expect(bundle.orderRefs.slice().sort()).toEqual(members.map((order) => order.orderRef).sort());
      expect(bundle.printed).toBe(bundle.bundleId === printedOrder.bundleId ? 1 : 0);
    }

    // A bundle whose every order is printable goes out as native ZPL per order.
    const printable = all.bundles.find((bundle) => {
      const members = todays.filter((order) => order.bundleId === bundle.bundleId);
      return bundle.printed === 0 && bundle.parcels >= 2 && members.every((order) => !['completed', 'returned', 'lost', 'cancelled'].includes(order.status));
    });
    expect(printable).toBeDefined();
    // A real Zebra's pace; the virtual one prints one label a second unless told otherwise.
    await control(sandbox, '/printers/0/speed', { method: 'PUT', body: { labelsPerSecond: 20 } });
    const run = await station.call('printing.printBundles', { bundleIds: [printable!.bundleId] });
    expect(run.bundles[0]).toMatchObject({ bundleId: printable!.bundleId, route: 'zpl-per-order', labels: printable!.parcels });
    await waitForValue(async () => ((await station.call('printing.run', { runId: run.runId })).run.state === 'finished' ? true : null), 'the bundle run to finish', 20_000);

    const unprinted = await station.call('orders.bundles', {});
    expect(unprinted.bundles.map((bundle) => bundle.bundleId)).not.toContain(printable!.bundleId);
    expect(unprinted.bundles.length).toBeGreaterThan(0);
    const again = await station.call('orders.bundles', { unprintedOnly: false });
    expect(again.bundles.find((bundle) => bundle.bundleId === printable!.bundleId)).toMatchObject({ printed: printable!.parcels });

    const { labels } = await station.call('sandbox.printedLabels', { limit: 200 });
    expect(labels).toHaveLength(1 + printable!.parcels);
    expect(labels.map((label) => label.index)).toEqual([...labels.keys()].map((i) => labels.length - 1 - i));

    const yesterday = new Date(Date.now() - 86_400_000);
    const day = `${yesterday.getFullYear()}-${String(yesterday.getMonth() + 1).padStart(2, '0')}-${String(yesterday.getDate()).padStart(2, '0')}`;
    expect((await station.call('orders.bundles', { day })).bundles).toEqual([]);
    const impossible = await station.attempt('orders.bundles', { day: '2025-02-30' });
    expect(impossible.ok).toBe(false);
    if (!impossible.ok) expect(impossible.error.code).toBe('INVALID_INPUT');
  });

  it('finds no USB Zebra on a machine without USB, as an empty list', async () => {
    expect(await station.call('printers.usbDevices', {})).toEqual({ devices: [] });
  });

  it('registers the webhook receiver with the embedded sandbox while it runs, and removes it when switched off', async () => {
    const registrations = async () => z.object({ webhooks: z.array(z.looseObject({ id: z.string(), url: z.string() })) }).parse(await control(sandbox, '/environments/test/webhooks')).webhooks;
    await station.call('settings.set', { webhooks: { host: '127.0.0.1', port: 0 } });
    const status = await station.call('webhooks.start', {});
    const registered = await registrations();
    expect(registered).toHaveLength(1);
    const sandboxPath = status.paths.find((entry) => entry.environment === 'sandbox')?.path;
    expect(registered[0]?.url).toBe(`http://127.0.0.1:${status.port}${sandboxPath}`);

    const now = TodaysOrdersSchema.parse(await control(sandbox, '/environments/test/todays-orders')).orders;
    const draft = now.find((order) => order.status === 'draft' && todays.some((mine) => mine.orderId === order.orderId));
    expect(draft).toBeDefined();
    await control(sandbox, `/environments/test/orders/${draft!.orderId}/status`, { method: 'POST', body: { status: 'expected' } });
    await waitForValue(async () => {
      const found = await station.call('orders.lookup', { scan: draft!.orderId, remote: false });
      return found.order.status === 'expected' ? true : null;
    }, 'the status to arrive by webhook');

    await station.call('webhooks.stop', {});
    expect(await registrations()).toEqual([]);
  });

  it('says the virtual printer is not there when the station works on another environment', async () => {
    await station.call('settings.set', { environment: 'test' });
    const refused = await station.attempt('sandbox.printedLabels', {});
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('NOT_CONFIGURED');
    await station.call('settings.set', { environment: 'sandbox' });
  });

  it('moves the virtual Zebra’s row to the new port on the next launch instead of adding another', async () => {
    const before = (await station.call('printers.list', {})).printers;
    await current!.close();
    current = undefined;
    const relaunched = await launch(dataDir);
    current = relaunched;
    const again = caller(relaunched);
    const { printers } = await again.call('printers.list', {});
    const running = await relaunched.services.sandbox.start();
    expect(printers).toHaveLength(1);
    expect(printers[0]?.id).toBe(before[0]?.id);
    expect(printers[0]?.address).toEqual({ kind: 'network-zebra', host: '127.0.0.1', port: running.printers[0]?.port });
    expect(running.printers[0]?.port).not.toBe(sandbox.printers[0]?.port);

    // One whose carrier has ZPL, so the label read back carries the barcode as text.
    const { orders: samples } = await again.call('orders.samples', { limit: 20 });
    const sample = samples.find((order) => todays.some((mine) => mine.orderId === order.orderId && mine.zplAvailable))!;
    const outcome = await again.call('printing.print', { scan: sample.barcode });
    expect(outcome.outcome).toBe('printed');
    const labels = await waitForValue(async () => {
      const listed = (await again.call('sandbox.printedLabels', {})).labels;
      return listed.length > 0 ? listed : null;
    }, 'the label on the new virtual Zebra');
    expect(barcodeOfZpl(labels[0]!.zpl)).toBe(sample.barcode);
  });
});
