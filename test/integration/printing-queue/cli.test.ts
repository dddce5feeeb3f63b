/** The printing commands of the CLI, run in-process against the sandbox and a virtual Zebra. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { runCliIn } from '../../support/cli';
import { memoryKeyStore } from '../../support/station';
import { barcodeOfZpl, bundlesWithLabels, startTestSandbox, startZebra, stationOrders, type TodaysOrder } from './support';

describe('printing from the command line', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let port: number;
  let dataDir: string;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 300 });
    ({ zebra, port } = await startZebra({ labelsPerSecond: 200 }));
    dataDir = mkdtempSync(join(tmpdir(), 'station-print-cli-'));
    orders = await stationOrders(sandbox);
  });

  afterAll(async () => {
    await zebra?.stop();
    await sandbox?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (...argv: string[]) => runCliIn(dataDir, { keyStore: memoryKeyStore(), sandbox: attachEmbeddedSandbox(sandbox) }, argv);

  it('adds the printer, lists it and asks it how it is', async () => {
    const added = await cli('printers', 'add', 'Bench 1', '--host', '127.0.0.1', '--port', String(port), '--default', 'both', '--orientation', 'portrait');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/Added Bench 1 \(p-[a-z0-9]+\): the printer at 127\.0\.0\.1:\d+\./);
    expect(added.stdout).toMatch(/ZD421-203dpi .*203 dpi, print width 832 dots/);
    const listed = await cli('printers', 'list');
    expect(listed.stdout).toMatch(/Bench 1: the printer at 127\.0\.0\.1:\d+, ZPL, portrait, default for single labels and bundles/);
    const status = await cli('printers', 'status', 'bench 1');
    expect(status).toMatchObject({ code: 0 });
    expect(status.stdout).toContain('bench 1: ready, 0 label(s) in its buffer');
  });

  it('prints a scan, refuses it a second time, and reprints it with a reason', async () => {
    const order = orders.find((entry) => entry.zplAvailable && entry.status === 'draft') as TodaysOrder;
    const first = await cli('print', order.orderRef);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`Printed ${order.orderRef} on Bench 1 in \\d+ ms`));
    const again = await cli('print', order.orderRef);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('was printed before');
    const reprint = await cli('print', order.barcode, '--reprint', 'label torn', '--operator', 'Sam');
    expect(reprint.stdout).toContain('a reprint');
    const labels = await zebra.waitForLabels(2);
    expect(labels.map((label) => barcodeOfZpl(label.zpl))).toEqual([order.barcode, order.barcode]);
  });

  it('prints bundles with a progress bar and an end-of-run summary', async () => {
    const before = zebra.printed().length;
    const used = new Set(zebra.printed().map((label) => barcodeOfZpl(label.zpl)));
    const { bundleIds, orders: runOrders } = bundlesWithLabels(
      orders.filter((order) => !used.has(order.barcode)),
      25,
    );
    const result = await cli('print-bundles', ...bundleIds);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Run [\w-]+: 25 labels on Bench 1 \(bundles: \d+ as native ZPL per order\)\./);
    expect(result.stderr).toMatch(/Printing \[#{30}\] 25\/25 100%/);
    expect(result.stdout).toMatch(/finished: 25 printed, 0 sent, 0 uncertain, 0 failed of 25/);
    expect(zebra.printed().slice(before).map((label) => barcodeOfZpl(label.zpl))).toEqual(runOrders.map((order) => order.barcode));
    const resume = await cli('print-bundles', '--resume');
    expect(resume).toMatchObject({ code: 1 });
    expect(resume.stderr).toContain('There is no unfinished run to resume.');
  });

  it('prints a test label', async () => {
    const before = zebra.printed().length;
    const result = await cli('printers', 'test', 'Bench 1');
    expect(result.code).toBe(0);
    const match = /Its barcode reads (TEST\d+)\./.exec(result.stdout);
    expect(match).not.toBeNull();
    const labels = await zebra.waitForLabels(before + 1);
    expect(labels.at(-1)?.zpl).toContain(match?.[1] ?? 'none');
  });
});
