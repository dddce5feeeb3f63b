/**
 * A bench loses the warehouse's shared store while the others keep it (its cable to the database
 * is cut, not the database stopped). It refuses to print until a lead allows local-only printing
 * with a reason; its scans then print on its own journal, which knows nothing of the other
 * benches' prints, resolving barcodes and refs with its own copy of the warehouse's orders. When the store answers again the bench's labels are merged into the shared
 * journal, and those whose order was printed elsewhere meanwhile (or before) are reported as
 * printed twice; the merged labels guard their orders at every bench from then on.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Station } from '../../../src/main/composition';
import { attachEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import type { JournalEntryData, PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { OfflineReport, StoreHealthData, StoreStatus } from '../../../src/shared/contract/store';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { startCuttableProxy, type CuttableProxy } from '../../support/cuttable-proxy';
import { createTestDatabase, type PostgresServerInfo, type TestDatabase } from '../../support/postgres-server';
import { benchOnStore, call, nextEvent, refusal } from '../../support/shared-store';
import { memoryKeyStore } from '../../support/station';
import { barcodeOfZpl, startTestSandbox, startZebra, stationOrders, type TodaysOrder } from '../printing-queue/support';
import { waitUntil } from '../../support/wait-until';

describe('local-only printing while one bench has lost the shared store', () => {
  let sandbox: RunningSandbox;
  let database: TestDatabase;
  let proxy: CuttableProxy;
  const zebras: VirtualZebra[] = [];
  const stations: Station[] = [];
  const folders: string[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 60 });
    database = await createTestDatabase(inject('postgres'));
    proxy = await startCuttableProxy(database.info.port);
  });
  afterAll(async () => {
    for (const station of stations) await station.close();
    for (const zebra of zebras) await zebra.stop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    await proxy?.close();
    await database?.drop();
    await sandbox?.close();
  });

  /** A whole station named `name` on the store at `info`, on the sandbox's test environment, printing to a virtual Zebra of its own. */
  async function bench(name: string, info: PostgresServerInfo): Promise<{ station: Station; zebra: VirtualZebra; dataDir: string; openAgain: () => Promise<Station> }> {
    const { zebra, port } = await startZebra();
    zebras.push(zebra);
    let openAgain: () => Promise<Station> = () => Promise.reject(new Error('not opened'));
    let folder = '';
    const baseUrl = sandbox.environments.test.baseUrl;
    const station = await benchOnStore(
      info,
      {
        sandbox: attachEmbeddedSandbox(sandbox),
        keyStore: memoryKeyStore({ test: { key: sandbox.environments.test.companies[0]?.apiKey ?? '', address: baseUrl } }),
        printing: { queueTiming: { faultPollMs: 100 }, serviceRetryMs: 500, transports: { network: { queryTimeoutMs: 1500, connectTimeoutMs: 1000 } } },
        orderCopyEveryMs: 100,
      },
      (opened, dataDir, again) => {
        stations.push(opened);
        folders.push(dataDir);
        folder = dataDir;
        openAgain = async () => {
          const station = await again();
          stations.push(station);
          return station;
        };
      },
    );
    station.settings.setApiBaseUrl('test', baseUrl);
    station.settings.setEnvironment('test');
    station.settings.setOperator('Sam');
    await call(station, 'settings.set', { stationName: name });
    await call(station, 'printers.add', {
      name: `${name} Zebra`,
      address: { kind: 'network-zebra', host: '127.0.0.1', port },
      orientation: 'landscape',
      defaultForSingle: true,
      check: false,
    });
    return { station, zebra, dataDir: folder, openAgain: () => openAgain() };
  }

  /** Waits until the bench's own file holds its copy of these orders (it copies the shared index every 100 ms here). */
  async function copiedTo(dataDir: string, orderIds: readonly string[]): Promise<void> {
    const file = SqliteEngine.open(join(dataDir, 'station.db'));
    try {
      const placeholders = orderIds.map((_, index) => `$${index + 1}`).join(', ');
      await waitUntil(
        async () => (await file.query(`SELECT order_id FROM orders WHERE order_id IN (${placeholders})`, orderIds)).length === orderIds.length,
        `the bench's copy of ${orderIds.length} orders`,
        10_000,
        50,
      );
    } finally {
      await file.close();
    }
  }

  /** Closes a bench as at the end of a day (the test's own cleanup then skips it). */
  async function stop(station: Station): Promise<void> {
    stations.splice(stations.indexOf(station), 1);
    await station.close();
  }

  /** Scans and waits until the printer has shown the label printed. */
  async function printAndProve(station: Station, scan: string, orderId: string): Promise<void> {
    const proof = nextEvent(station, 'printing.label', (entry: JournalEntryData) => entry.orderId === orderId && entry.state === 'printed', 15_000);
    const outcome = await call<PrintOutcomeData>(station, 'printing.print', { scan });
    expect(outcome.outcome, `${scan} at ${station.settings.stationName()}`).toBe('printed');
    await proof;
  }

  const barcodesOf = (zebra: VirtualZebra) => zebra.printed().map((label) => barcodeOfZpl(label.zpl));

  it('prints on the bench\'s own journal once a lead allows it, and reports at the merge the orders printed twice', async () => {
    const a = await bench('Bench A', { ...database.info, port: proxy.port });
    const b = await bench('Bench B', database.info);
    const orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft').slice(0, 4);
    expect(orders).toHaveLength(4);
    const [before, onlyA, during, after] = orders as [TodaysOrder, TodaysOrder, TodaysOrder, TodaysOrder];
    const manifest = ['orderId,orderRef,barcode,status', ...orders.map((order) => `${order.orderId},${order.orderRef},${order.barcode},draft`)].join('\n');
    await call(b.station, 'imports.manifest', { source: { kind: 'content', fileName: 'today.csv', base64: Buffer.from(manifest).toString('base64') } });
    // A's list of the warehouse's printers, with its own default, and its copy of the orders, taken while the store answers.
    await call(a.station, 'printers.list', {});
    await copiedTo(a.dataDir, orders.map((order) => order.orderId));

    await printAndProve(b.station, before.orderRef, before.orderId);

    const offline = nextEvent(a.station, 'store.health', (health) => health.state === 'offline');
    await proxy.cut();
    await offline;
    expect(await refusal(a.station, 'printing.print', { scan: onlyA.orderId })).toMatchObject({ code: 'STORE_OFFLINE', facts: { subject: 'offline' } });
    expect(a.zebra.printed()).toHaveLength(0);

    const allowed = await call<StoreHealthData>(a.station, 'store.allowLocalPrinting', { reason: 'database maintenance', operator: 'Lead Kim' });
    expect(allowed).toMatchObject({ state: 'offline', localPrinting: { reason: 'database maintenance', allowedBy: 'Lead Kim', ending: false } });
    expect(await refusal(a.station, 'printing.printBundles', { bundleIds: [onlyA.bundleId] })).toMatchObject({ code: 'STORE_OFFLINE', facts: { subject: 'scans-only' } });
    // A printer added now would live only in the bench's copy of the warehouse's printers: it waits for the store.
    const spare = { name: 'Spare Zebra', address: { kind: 'network-zebra', host: '127.0.0.1', port: 9101 }, orientation: 'landscape', check: false };
    expect(await refusal(a.station, 'printers.add', spare)).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect((await call<{ printers: { name: string }[] }>(a.station, 'printers.list', {})).printers.map((printer) => printer.name)).toEqual(['Bench A Zebra', 'Bench B Zebra']);

    // Offline, A resolves a parcel barcode or an order ref with its own copy of the orders; an order id it may also ask the Delivery API.
    await printAndProve(a.station, before.barcode, before.orderId);
    await printAndProve(a.station, onlyA.orderRef, onlyA.orderId);
    await printAndProve(b.station, during.orderRef, during.orderId);
    await printAndProve(a.station, during.orderId, during.orderId);
    const { entries: localEntries } = await call<{ entries: JournalEntryData[] }>(a.station, 'printing.journal', {});
    expect(localEntries.map((entry) => entry.orderId).sort()).toEqual([before.orderId, onlyA.orderId, during.orderId].sort());
    // The label of a local entry is shown from the bench's own journal (its ids are not the shared journal's).
    const shown = localEntries.find((entry) => entry.orderId === onlyA.orderId);
    const document = await call<{ format: string; base64: string }>(a.station, 'printing.labelDocument', { entryId: shown?.id });
    expect(document.format).toBe('zpl');
    expect(barcodeOfZpl(Buffer.from(document.base64, 'base64').toString('utf8'))).toBe(onlyA.barcode);

    const merged = nextEvent(a.station, 'store.offlineMerged', () => true);
    const printingAgain = nextEvent(a.station, 'store.health', (health) => health.state === 'online' && health.localPrinting === null);
    await proxy.restore();
    expect(await merged).toEqual({ labels: 3, duplicates: 2 });
    await printingAgain;

    // Every bench reads the report from the shared journal.
    const report = await call<OfflineReport>(b.station, 'store.offlineReport', {});
    expect(report.duplicates.map((line) => line.orderId).sort()).toEqual([before.orderId, during.orderId].sort());
    for (const line of report.duplicates) {
      expect(line).toMatchObject({ benchName: 'Bench A', localReason: 'database maintenance', localAllowedBy: 'Lead Kim', other: { benchName: 'Bench B', state: 'printed' } });
    }
    // The order only A printed is guarded now at every bench, naming A.
    const asked = await call<PrintOutcomeData>(b.station, 'printing.print', { scan: onlyA.orderRef });
    expect(asked).toMatchObject({ outcome: 'duplicate', previous: { stationName: 'Bench A' } });
    const { entries: twice } = await call<{ entries: JournalEntryData[] }>(b.station, 'printing.journal', { orderId: before.orderId });
    expect(twice).toHaveLength(2);

    // A prints through the shared store again.
    await printAndProve(a.station, after.orderRef, after.orderId);
    const { entries: afterEntries } = await call<{ entries: JournalEntryData[] }>(b.station, 'printing.journal', { orderId: after.orderId });
    expect(afterEntries).toHaveLength(1);
    expect(afterEntries[0]?.printerName).toBe('Bench A Zebra');

    // The printers' own records agree with the journal, label for label.
    expect(barcodesOf(a.zebra)).toEqual([before.barcode, onlyA.barcode, during.barcode, after.barcode]);
    expect(barcodesOf(b.zebra)).toEqual([before.barcode, during.barcode]);
  });

  it('merges at its next start what a bench printed locally before it was stopped, reporting an order printed elsewhere meanwhile', async () => {
    await proxy.restore();
    const c = await bench('Bench C', { ...database.info, port: proxy.port });
    const b = await bench('Bench D', database.info);
    const orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft').slice(10, 12);
    const [printedTwice, onlyC] = orders as [TodaysOrder, TodaysOrder];
    const manifest = ['orderId,orderRef,barcode,status', ...orders.map((order) => `${order.orderId},${order.orderRef},${order.barcode},draft`)].join('\n');
    await call(b.station, 'imports.manifest', { source: { kind: 'content', fileName: 'late.csv', base64: Buffer.from(manifest).toString('base64') } });
    await call(c.station, 'printers.list', {});

    const offline = nextEvent(c.station, 'store.health', (health) => health.state === 'offline');
    await proxy.cut();
    await offline;
    await call(c.station, 'store.allowLocalPrinting', { reason: 'switch replaced', operator: 'Lead Kim' });
    await printAndProve(c.station, printedTwice.orderId, printedTwice.orderId);
    await printAndProve(c.station, onlyC.orderId, onlyC.orderId);
    await stop(c.station);
    // Bench D knows nothing of C's labels yet: it prints the same order.
    await printAndProve(b.station, printedTwice.orderRef, printedTwice.orderId);

    await proxy.restore();
    const started = await c.openAgain();
    expect((await call<StoreStatus>(started, 'store.get', {})).health).toMatchObject({ state: 'online', localPrinting: null });
    const report = await call<OfflineReport>(b.station, 'store.offlineReport', {});
    expect(report.duplicates.filter((line) => line.benchName === 'Bench C')).toEqual([
      expect.objectContaining({ orderId: printedTwice.orderId, localReason: 'switch replaced', other: expect.objectContaining({ benchName: 'Bench D' }) }),
    ]);
    expect(await call<PrintOutcomeData>(b.station, 'printing.print', { scan: onlyC.orderRef })).toMatchObject({ outcome: 'duplicate', previous: { stationName: 'Bench C' } });
    expect(barcodesOf(c.zebra)).toEqual([printedTwice.barcode, onlyC.barcode]);
    expect(barcodesOf(b.zebra)).toEqual([printedTwice.barcode]);
  });
});
