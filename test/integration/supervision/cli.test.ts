import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StationOptions } from '../../../src/main/composition';
import { attachEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import type { PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { runCliIn } from '../../support/cli';
import { memoryKeyStore } from '../../support/station';
import { controlCall, createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from '../printing-queue/support';

let sandbox: RunningSandbox;
let zebra: VirtualZebra;
let station: PrintingStation;
let cliOptions: Partial<StationOptions>;
let printed: TodaysOrder[] = [];
let scratch = '';

/** Every barcode zbar reads on the PDF's pages, rendered at 150 dpi with pdftoppm. */
function barcodesOnPdf(pdfPath: string): string[] {
  const folder = mkdtempSync(join(scratch, 'pages-'));
  execFileSync('pdftoppm', ['-r', '150', '-png', pdfPath, join(folder, 'page')]);
  const found: string[] = [];
  for (const page of readdirSync(folder).filter((name) => name.endsWith('.png')).sort()) {
    let output = '';
    try {
      output = execFileSync('zbarimg', ['--quiet', '--raw', '-Scode128.enable', join(folder, page)], { encoding: 'utf8' });
    } catch (error) {
      // zbarimg exits 4 when a page has no barcode at all.
      if ((error as { status?: number }).status !== 4) throw error;
    }
    found.push(...output.split('\n').filter((line) => line.trim() !== ''));
  }
  return found;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'day-close-'));
  sandbox = await startTestSandbox({ orders: 300 });
  const started = await startZebra();
  zebra = started.zebra;
  station = await createPrintingStation(sandbox, started.port);
  cliOptions = { sandbox: attachEmbeddedSandbox(sandbox), keyStore: memoryKeyStore() };
  // Drafts: a scan prints them at once (an `expected` order was printed elsewhere and asks first).
  const open = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft');
  printed = open.slice(0, 18);
  for (const order of printed) {
    const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef });
    if (outcome.outcome !== 'printed') throw new Error(`expected a print, got ${outcome.outcome}`);
  }
  await zebra.waitForLabels(printed.length);
  // And proven printed in the journal: the CLI commands below open the station again in this
  // very process (same pid), which settles a label still awaiting its proof as uncertain.
  for (const order of printed) {
    await station.waitForEvent('printing.label', (entry) => entry.orderId === order.orderId && entry.state === 'printed');
  }
}, 90_000);

afterAll(async () => {
  await station?.dispose();
  await zebra?.stop();
  await sandbox?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('CLI cancel against the sandbox', () => {
  it('refuses without a reason or an operator (usage), and changes nothing', async () => {
    const order = printed[0] as TodaysOrder;
    const noReason = await runCliIn(station.dataDir, cliOptions, ['cancel', order.orderRef, '--operator', 'Anna']);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toMatch(/--reason/);
    const noOperator = await runCliIn(station.dataDir, cliOptions, ['cancel', order.orderRef, '--reason', 'x']);
    expect(noOperator.code).toBe(2);
    expect(((await controlCall(sandbox, `/environments/test/orders/${order.orderId}`)) as { status: string }).status).not.toBe('cancelled');
  });

  it('cancels a printed order at the service and voids its label', async () => {
    const order = printed[1] as TodaysOrder;
    const result = await runCliIn(station.dataDir, cliOptions, ['cancel', order.barcode, '--reason', 'customer called', '--operator', 'Anna']);
    // (stderr may carry the CLI station's log lines; a refusal would print its [CODE] there.)
    expect(result.stderr).not.toMatch(/\[[A-Z_]+\]/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${order.orderRef} (order ${order.orderId}): cancelled; 1 label(s) voided`);
    expect(((await controlCall(sandbox, `/environments/test/orders/${order.orderId}`)) as { status: string }).status).toBe('cancelled');
    const again = await runCliIn(station.dataDir, cliOptions, ['lookup', order.orderRef, '--local']);
    expect(again.stdout).toMatch(/printable NO: .*cancelled at .* by Anna \(customer called\)/);
  });

  it('shows the service’s words and exits 1 for an order beyond in_transit', async () => {
    const order = printed[2] as TodaysOrder;
    await controlCall(sandbox, `/environments/test/orders/${order.orderId}/status`, { method: 'POST', body: { status: 'in_transit' } });
    await controlCall(sandbox, `/environments/test/orders/${order.orderId}/status`, { method: 'POST', body: { status: 'completed' } });
    const result = await runCliIn(station.dataDir, cliOptions, ['cancel', order.orderRef, '--reason', 'too late', '--operator', 'Anna']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[CANCEL_REFUSED]');
    expect(result.stderr).toMatch(/can no longer be cancelled: its status is completed/);
    expect(result.stderr).toMatch(/- status: /);
  });
});

describe('CLI day-close against the sandbox', () => {
  it('writes a handover PDF whose pages carry every printed, non-voided parcel’s barcode, and only those', async () => {
    const out = join(scratch, 'handover.pdf');
    const result = await runCliIn(station.dataDir, cliOptions, ['day-close', '--out', out]);
    expect(result.stderr).not.toMatch(/\[[A-Z_]+\]/);
    expect(result.code).toBe(0);
    const voided = printed[1] as TodaysOrder;
    const completed = printed[2] as TodaysOrder;
    // The completed order stays on the list: the station printed it and never heard otherwise (no webhook).
    const expected = printed.filter((order) => order !== voided).map((order) => order.barcode);
    expect(result.stdout).toContain(`${expected.length} parcels`);
    expect(result.stdout).toMatch(new RegExp(`Not for the driver \\(1\\):\\n.*${voided.barcode}: voided by Anna: customer called`));
    const decoded = barcodesOnPdf(out);
    expect(decoded.sort()).toEqual(expected.sort());
    expect(decoded).toContain(completed.barcode);
    // The copy kept in the data folder is the same list.
    expect(readdirSync(join(station.dataDir, 'handover')).filter((name) => name.endsWith('.pdf'))).toHaveLength(1);
  }, 60_000);

  it('prints the handover on the Zebra as long labels whose barcodes zbar reads from the printed label', async () => {
    const before = zebra.printed().length;
    const result = await runCliIn(station.dataDir, cliOptions, ['day-close', '--printer', 'Bench Zebra']);
    expect(result.stderr).not.toMatch(/\[[A-Z_]+\]/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Printed on Bench Zebra (Zebra long labels).');
    await zebra.waitForLabels(before + 1);
    const png = join(scratch, 'handover-label.png');
    writeFileSync(png, await zebra.renderPng(before));
    const decoded = execFileSync('zbarimg', ['--quiet', '--raw', png], { encoding: 'utf8' }).split('\n').filter((line) => line.trim() !== '');
    const voided = printed[1] as TodaysOrder;
    expect(decoded.sort()).toEqual(printed.filter((order) => order !== voided).map((order) => order.barcode).sort());
  }, 60_000);
});
