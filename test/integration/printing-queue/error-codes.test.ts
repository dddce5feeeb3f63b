/**
 * The codes and facts the station answers with when a scan or a run cannot go ahead, through the
 * contract's dispatcher as the screen calls it: each says what really happened (issue 15), with
 * the facts the screen words it by, and no sentence meant for the screen.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { StationErrorData } from '../../../src/shared/errors';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { createTestStation, type TestStation } from '../../support/station';
import { createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from './support';

const failureOf = async (promise: Promise<unknown>): Promise<StationErrorData> => {
  try {
    await promise;
  } catch (error) {
    return (error as { data: StationErrorData }).data;
  }
  throw new Error('the call succeeded');
};

describe('error codes that say what happened', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let station: PrintingStation;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 300 });
    const started = await startZebra();
    zebra = started.zebra;
    station = await createPrintingStation(sandbox, started.port);
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft');
  });

  afterAll(async () => {
    await station?.dispose();
    await zebra?.stop();
    await sandbox?.close();
  });

  it('a reprint without an operator is OPERATOR_REQUIRED, for a scan and for a run, and nothing prints', async () => {
    const order = orders[0] as TodaysOrder;
    const first = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef });
    expect(first.outcome).toBe('printed');
    await zebra.waitForLabels(1);

    const scan = await failureOf(station.call('printing.print', { scan: order.orderRef, reprint: { reason: 'damaged' } }));
    expect(scan).toMatchObject({ code: 'OPERATOR_REQUIRED', facts: { subject: 'reprint' } });
    const run = await failureOf(station.call('printing.printBundles', { bundleIds: [order.bundleId], reprint: { reason: 'damaged' } }));
    expect(run).toMatchObject({ code: 'OPERATOR_REQUIRED', facts: { subject: 'reprint' } });
    expect(zebra.printed()).toHaveLength(1);
  });

  it('a bundle the service does not know is BUNDLE_NOT_FOUND with its id, not a refused request', async () => {
    const error = await failureOf(station.call('printing.printBundles', { bundleIds: ['BUNDLE-NOBODY-KNOWS'] }));
    expect(error).toMatchObject({ code: 'BUNDLE_NOT_FOUND', facts: { bundleId: 'BUNDLE-NOBODY-KNOWS', count: 1 } });
  });

  it('a run over a bundle next to an unknown one lists the unknown one by code and id', async () => {
    const order = orders[1] as TodaysOrder;
    const run = await station.call<{ runId: string; skipped: { code: string; bundleId: string | null; facts?: Record<string, unknown> }[] }>('printing.printBundles', {
      bundleIds: [order.bundleId, 'BUNDLE-NOBODY-KNOWS'],
    });
    expect(run.skipped).toContainEqual(expect.objectContaining({ code: 'BUNDLE_NOT_FOUND', bundleId: 'BUNDLE-NOBODY-KNOWS', facts: { bundleId: 'BUNDLE-NOBODY-KNOWS' } }));
    await station.waitForEvent('printing.finished', (summary) => summary.runId === run.runId);
  });

  it('an order in today’s manifest that the service does not know is ORDER_UNKNOWN_TO_SERVICE, not "import the manifest"', async () => {
    const ghost = 'a7e0c1f2-0000-4000-8000-00000000dead';
    const manifest = `orderId,orderRef,barcode\r\n${ghost},GHOST-REF-1,GHOSTBC1\r\n`;
    await station.call('imports.manifest', { source: { kind: 'content', fileName: 'today.csv', base64: Buffer.from(manifest).toString('base64') } });
    const error = await failureOf(station.call('printing.print', { scan: 'GHOST-REF-1' }));
    expect(error).toMatchObject({ code: 'ORDER_UNKNOWN_TO_SERVICE', facts: { orderRef: 'GHOST-REF-1', orderId: ghost } });
    // A scan the station has never heard of is still "not found".
    expect(await failureOf(station.call('printing.print', { scan: 'NOT-IN-ANY-LIST-42' }))).toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });

  it('a printer that does not answer is a warning with its address as a fact, for the screen to word', async () => {
    // A loopback port nobody listens on: opened, then closed again.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const added = await station.call<{ check: { warnings: { issue: string; facts?: Record<string, unknown> }[] } | null }>('printers.add', {
      name: 'Switched off',
      address: { kind: 'network-zebra', host: '127.0.0.1', port },
      check: true,
    });
    expect(added.check?.warnings).toContainEqual(expect.objectContaining({ issue: 'unreachable', facts: { where: `127.0.0.1:${port}` } }));
  });

  it('a manifest row that cannot be used says why as a problem code with its facts', async () => {
    const manifest = 'orderId,orderRef,status\r\n,REF-NO-ID,draft\r\nORD-S,REF-S,teleported\r\n';
    const report = await station.call<{ errors: { row: number; problem?: string; facts?: Record<string, unknown> }[] }>('imports.manifest', {
      source: { kind: 'content', fileName: 'rows.csv', base64: Buffer.from(manifest).toString('base64') },
    });
    expect(report.errors).toEqual([
      expect.objectContaining({ row: 2, problem: 'empty', facts: { field: 'orderId' } }),
      expect.objectContaining({ row: 3, problem: 'unknown-status', facts: { value: 'teleported' } }),
    ]);
  });

  it('a run id or label id that does not exist is NOT_FOUND with what and which', async () => {
    expect(await failureOf(station.call('printing.run', { runId: 'no-such-run' }))).toMatchObject({ code: 'NOT_FOUND', facts: { subject: 'run', id: 'no-such-run' } });
    expect(await failureOf(station.call('printing.labelDocument', { entryId: 987_654 }))).toMatchObject({ code: 'NOT_FOUND', facts: { subject: 'label', id: 987_654 } });
  });
});

describe('a scan in an environment that is not set up', () => {
  let test: TestStation;

  beforeAll(async () => {
    test = await createTestStation();
    test.station.settings.setEnvironment('test');
  });

  afterAll(async () => {
    await test?.dispose();
  });

  it('is NOT_CONFIGURED (no address, no key) rather than "printer not found"', async () => {
    const result = await test.station.dispatcher.dispatch('printing.print', { scan: 'NW-104354-4' }, { host: 'web' });
    expect(result).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED', facts: { subject: 'key-and-address', environment: 'test' } } });
  });

  it('is NOT_CONFIGURED (no key) once the address is there', async () => {
    test.station.settings.setApiBaseUrl('test', 'http://127.0.0.1:9/api');
    const result = await test.station.dispatcher.dispatch('printing.print', { scan: 'NW-104354-4' }, { host: 'web' });
    expect(result).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED', facts: { subject: 'key', environment: 'test' } } });
  });
});

describe('a webhook receiver whose port is taken', () => {
  let test: TestStation;
  let blocker: net.Server;

  beforeAll(async () => {
    test = await createTestStation();
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await test?.dispose();
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
  });

  it('says so as NOT_CONFIGURED with the host and port, and its status carries the problem as a code', async () => {
    const { port } = blocker.address() as net.AddressInfo;
    const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });
    await call('settings.set', { webhooks: { host: '127.0.0.1', port } });
    expect(await call('webhooks.start', {})).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED', facts: { subject: 'port-in-use', host: '127.0.0.1', port } } });
    expect(await call('webhooks.status', {})).toMatchObject({ ok: true, value: { problemCode: 'port-in-use', host: '127.0.0.1', port } });
  });
});
