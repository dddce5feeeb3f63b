/**
 * Benches opened with the `store` setting naming a PostgreSQL server use it: what one bench
 * imports another finds. When the server stops, the bench says the shared store is offline and
 * refuses to print before asking the Delivery API anything; when it is back, the notice clears
 * and printing works. A bench whose store is down at start still opens (offline).
 *
 * The offline part runs a PostgreSQL server of its own (stopping the run's shared one would break
 * the other files); the Delivery API is the sandbox behind a loopback proxy that records every
 * request the station makes.
 */
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Station } from '../../../src/main/composition';
import { attachEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import type { PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { StoreStatus } from '../../../src/shared/contract/store';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { createTestDatabase, startPostgresServer, type PostgresServer, type TestDatabase } from '../../support/postgres-server';
import { benchOnStore, call, nextEvent, refusal, storeAddressOf } from '../../support/shared-store';
import { memoryKeyStore } from '../../support/station';
import { startTestSandbox, startZebra, stationOrders } from '../printing-queue/support';

const folders: string[] = [];
const stations: Station[] = [];
afterEach(async () => {
  for (const station of stations.splice(0)) await station.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const track = (station: Station, dataDir: string) => {
  stations.push(station);
  folders.push(dataDir);
};

describe('benches on the shared store the setting names', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(inject('postgres'));
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('two benches starting together on a fresh store both bring it to the same version; an order imported at one is found by a scan at the other', async () => {
    const [bench3, bench7] = await Promise.all([benchOnStore(database.info, {}, track), benchOnStore(database.info, {}, track)]);
    const status3 = await call<StoreStatus>(bench3, 'store.get', {});
    const status7 = await call<StoreStatus>(bench7, 'store.get', {});
    expect(status3).toMatchObject({ inUse: { kind: 'postgres', address: storeAddressOf(database.info) }, restartNeeded: false, health: { state: 'online' } });
    expect(status7.health.state).toBe('online');
    const versions = await call<{ schemaVersion: number }>(bench3, 'store.test', { address: storeAddressOf(database.info) });
    expect(versions.schemaVersion).toBeGreaterThan(0);
    expect((await call<{ schemaVersion: number }>(bench7, 'store.test', { address: storeAddressOf(database.info) })).schemaVersion).toBe(versions.schemaVersion);

    await call(bench3, 'settings.set', { environment: 'test' });
    await call(bench7, 'settings.set', { environment: 'test' });
    const manifest = ['orderId,orderRef,barcode,status', 'ORD-SHARED-1,REF-SHARED-1,BC-SHARED-1,draft'].join('\n');
    await call(bench3, 'imports.manifest', { source: { kind: 'content', fileName: 'today.csv', base64: Buffer.from(manifest).toString('base64') } });
    expect(await call(bench7, 'orders.lookup', { scan: 'BC-SHARED-1', remote: false })).toMatchObject({ order: { orderId: 'ORD-SHARED-1', orderRef: 'REF-SHARED-1' } });
  });
});

describe('the shared store offline', () => {
  let server: PostgresServer;
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let zebraPort: number;
  let proxy: Server;
  let proxyUrl: string;
  const apiRequests: string[] = [];

  beforeAll(async () => {
    server = await startPostgresServer();
    sandbox = await startTestSandbox({ orders: 50 });
    ({ zebra, port: zebraPort } = await startZebra());
    const target = new URL(sandbox.environments.test.baseUrl);
    // Every request the station sends the Delivery API passes here and is written down.
    proxy = createServer((incoming, outgoing) => {
      apiRequests.push(`${incoming.method} ${incoming.url}`);
      const forwarded = request({ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    });
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname.replace(/\/$/, '')}`;
  });
  afterAll(async () => {
    proxy?.close();
    await zebra?.stop();
    await sandbox?.close();
    await server?.dispose();
  });

  /** A bench on the private server, on the sandbox's test environment through the proxy, printing to the virtual Zebra. */
  async function printingBench(): Promise<Station> {
    const station = await benchOnStore(
      server.info,
      {
        sandbox: attachEmbeddedSandbox(sandbox),
        keyStore: memoryKeyStore({ test: { key: sandbox.environments.test.companies[0]?.apiKey ?? '', address: proxyUrl } }),
        printing: { queueTiming: { faultPollMs: 100 }, serviceRetryMs: 500, transports: { network: { queryTimeoutMs: 1500, connectTimeoutMs: 1000 } } },
      },
      track,
    );
    station.settings.setApiBaseUrl('test', proxyUrl);
    station.settings.setEnvironment('test');
    station.settings.setOperator('Sam');
    await call(station, 'printers.add', {
      name: 'Bench Zebra',
      address: { kind: 'network-zebra', host: '127.0.0.1', port: zebraPort },
      orientation: 'landscape',
      defaultForSingle: true,
      defaultForBundles: true,
      check: false,
    });
    return station;
  }

  it('says offline when the server stops, refuses to print before any request to the service, and prints again once it is back', async () => {
    const bench = await printingBench();
    const orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft').slice(0, 2);
    expect(orders).toHaveLength(2);
    const manifest = ['orderId,orderRef,barcode,status', ...orders.map((order) => `${order.orderId},${order.orderRef},${order.barcode},draft`)].join('\n');
    await call(bench, 'imports.manifest', { source: { kind: 'content', fileName: 'today.csv', base64: Buffer.from(manifest).toString('base64') } });

    const offline = nextEvent(bench, 'store.health', (health) => health.state === 'offline');
    await server.stop();
    expect(await offline).toMatchObject({ state: 'offline', problem: 'unreachable' });
    expect((await call<StoreStatus>(bench, 'store.get', {})).health.state).toBe('offline');

    apiRequests.length = 0;
    const refused = await refusal(bench, 'printing.print', { scan: orders[0]!.orderRef });
    expect(refused.code).toBe('STORE_OFFLINE');
    expect(refused.facts).toMatchObject({ problem: 'unreachable' });
    expect(apiRequests).toEqual([]);
    expect(await refusal(bench, 'printing.printBundles', { bundleIds: [orders[0]!.bundleId] })).toMatchObject({ code: 'STORE_OFFLINE' });
    expect(apiRequests).toEqual([]);

    const online = nextEvent(bench, 'store.health', (health) => health.state === 'online');
    await server.start();
    expect(await online).toMatchObject({ state: 'online', problem: null });
    const printed = await call<PrintOutcomeData>(bench, 'printing.print', { scan: orders[0]!.orderRef });
    expect(printed.outcome).toBe('printed');
    expect(apiRequests.some((line) => line.startsWith('GET ') && line.includes(orders[0]!.orderId))).toBe(true);
  });

  it('a bench whose shared store is down at start opens offline, and comes online when the server starts', async () => {
    await server.stop();
    try {
      const bench = await benchOnStore(server.info, {}, track);
      // The choice was saved while the server was down; this opening is the bench's next start.
      const status = await call<StoreStatus>(bench, 'store.get', {});
      expect(status.health).toMatchObject({ state: 'offline', problem: 'unreachable' });
      expect(await refusal(bench, 'printing.print', { scan: 'REF-ANY' })).toMatchObject({ code: 'STORE_OFFLINE' });
      const online = nextEvent(bench, 'store.health', (health) => health.state === 'online');
      await server.start();
      await online;
      // The schema was brought up to date once the store answered: the bench imports and finds orders.
      await call(bench, 'settings.set', { environment: 'live' });
      const manifest = ['orderId,orderRef,barcode,status', 'ORD-LATE-1,REF-LATE-1,BC-LATE-1,draft'].join('\n');
      await call(bench, 'imports.manifest', { source: { kind: 'content', fileName: 'late.csv', base64: Buffer.from(manifest).toString('base64') } });
      expect(await call(bench, 'orders.lookup', { scan: 'REF-LATE-1', remote: false })).toMatchObject({ order: { orderId: 'ORD-LATE-1' } });
    } finally {
      await server.start().catch(() => undefined);
    }
  });
});
