/**
 * The command line goes through the same gate as the screen: `packing-station print` of an order
 * whose label would change the printer says which command and why, exits non-zero, and sends
 * nothing of the label; a carrier label with a download before ^XA prints byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { runCliIn } from '../../support/cli';
import { memoryKeyStore } from '../../support/station';
import { controlCall, startTestSandbox, startZebra, stationOrders, type TodaysOrder } from '../printing-queue/support';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '../../fixtures/zpl', name));

describe('printing carrier ZPL from the command line', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let port: number;
  let dataDir: string;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 200 });
    ({ zebra, port } = await startZebra());
    dataDir = mkdtempSync(join(tmpdir(), 'station-zpl-cli-'));
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status !== 'cancelled');
    const added = await cli('printers', 'add', 'Bench 1', '--host', '127.0.0.1', '--port', String(port), '--default', 'both');
    if (added.code !== 0) throw new Error(added.stderr);
  });

  afterAll(async () => {
    await zebra?.stop();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (...argv: string[]) => runCliIn(dataDir, { keyStore: memoryKeyStore(), sandbox: attachEmbeddedSandbox(sandbox) }, argv);
  const supply = (order: TodaysOrder, document: Buffer) =>
    controlCall(sandbox, `/environments/test/orders/${encodeURIComponent(order.orderId)}/label`, { method: 'PUT', body: { format: 'zpl', base64: document.toString('base64') } });
  const received = () => Buffer.concat(zebra.received().map((connection) => connection.bytes));

  it('prints a label with a graphic downloaded before ^XA byte for byte', async () => {
    const order = orders[0] as TodaysOrder;
    const label = fixture('dhl-logo-download.zpl');
    await supply(order, label);
    const printed = await cli('print', order.orderRef);
    expect(printed.code).toBe(0);
    expect(received().indexOf(label)).toBeGreaterThanOrEqual(0);
  });

  it('refuses a label that would reset the printer, naming the command, and sends nothing of it', async () => {
    const order = orders[1] as TodaysOrder;
    await supply(order, fixture('refused/reset-jr.zpl'));
    const before = received().length;
    const refused = await cli('print', order.orderRef);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/was not printed: it would change the printer itself: ~JR \(resets the printer\)/);
    expect(received().subarray(before).toString('latin1')).not.toMatch(/\^XA/i);
    expect(zebra.configurationCommands()).toEqual([]);
  });
});
