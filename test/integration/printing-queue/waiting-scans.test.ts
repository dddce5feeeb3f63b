/**
 * Scenario 2 of the exactly-once issue: scans to a printer that is out of paper. Neither the
 * station's own scan nor a second process's (the CLI on the same data folder) is reported or
 * journaled as printed: each answers "waiting for the printer" with the reason and what to do,
 * and prints once the paper is back — or is cancelled by the packer, and never comes out.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OrderStatusSchema } from '../../../src/shared/api/schemas';
import type { JournalEntryData, PrintOutcomeData, RunSummaryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { startCli } from './cli-process';
import { barcodeOfZpl, createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from './support';

describe('scans to a printer in a fault wait for it (scenario 2)', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let station: PrintingStation;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 300 });
    const started = await startZebra();
    zebra = started.zebra;
    // The sandbox's test environment over HTTP (a second process cannot share an embedded sandbox).
    station = await createPrintingStation(sandbox, started.port, {}, {}, 'test');
    station.station.settings.setOperator('Sam');
    // Drafts: a scan prints them at once (an `expected` order was printed elsewhere and asks first).
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft').slice(0, 6);
    const index = station.station.services.orders;
    await index.transaction(async (tx) => {
      for (const { orderId, orderRef, barcode, bundleId, status } of orders) {
        await index.upsert('test', { orderId, orderRef, barcode, bundleId, status: OrderStatusSchema.parse(status) }, 'import', tx);
      }
    });
  });

  beforeEach(async () => {
    await zebra.clearFaults();
  });

  afterAll(async () => {
    await station?.dispose();
    await zebra?.stop();
    await sandbox?.close();
  });

  const printedBarcodes = () => zebra.printed().map((label) => barcodeOfZpl(label.zpl));
  const entryOf = async (entryId: number, runId: string) =>
    (await station.call<{ entries: JournalEntryData[] }>('printing.run', { runId })).entries.find((entry) => entry.id === entryId);

  it('a scan here and a scan from the CLI wait while the paper is out, and both print once when it is back', async () => {
    const [here, there] = [orders[0] as TodaysOrder, orders[1] as TodaysOrder];
    await zebra.setPaperOut(true);

    const started = Date.now();
    const waiting = await station.call<PrintOutcomeData>('printing.print', { scan: here.orderRef });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(waiting.outcome).toBe('waiting');
    if (waiting.outcome !== 'waiting') return;
    expect(waiting.fault.code).toBe('PAPER_OUT');
    expect(waiting.sentence).toMatch(/out of labels.*Load a roll/);
    expect(waiting.inPrinter).toBe(false);
    expect(waiting.entry.state).not.toBe('printed');

    // A second process that never saw the fault asks the printer before sending, and waits too.
    const cli = startCli(sandbox, station.dataDir, ['print', there.orderRef, '--printer', station.printerId]);
    await cli.saidOnStderr(/Waiting for the printer Bench Zebra: The printer is out of labels\. Load a roll/);
    expect(zebra.stats().formatsReceived, 'nothing was sent to the printer while it was out of paper').toBe(0);
    expect((await entryOf(waiting.entry.id, waiting.runId))?.state).toBe('fetched');

    await zebra.setPaperOut(false);
    const printed = await station.waitForEvent('printing.label', (entry) => entry.id === waiting.entry.id && entry.state === 'printed', 10_000);
    expect(printed.orderRef).toBe(here.orderRef);
    expect(await cli.exit).toBe(0);
    expect(cli.output.stdout).toMatch(new RegExp(`Printed ${there.orderRef} on Bench Zebra once the printer was ready`));

    expect(printedBarcodes().sort()).toEqual([here.barcode, there.barcode].sort());
    const journal = await station.call<{ entries: JournalEntryData[] }>('printing.journal', { orderId: there.orderId });
    expect(journal.entries.map((entry) => entry.state)).toEqual(['printed']);
  });

  it('a waiting scan the packer cancels is journaled as cancelled by them and never comes out', async () => {
    const [cancelled, next] = [orders[2] as TodaysOrder, orders[3] as TodaysOrder];
    const before = zebra.printed().length;
    await zebra.setHeadOpen(true);
    const waiting = await station.call<PrintOutcomeData>('printing.print', { scan: cancelled.orderRef });
    expect(waiting.outcome).toBe('waiting');
    if (waiting.outcome !== 'waiting') return;
    expect(waiting.fault.code).toBe('HEAD_OPEN');

    const summary = await station.call<RunSummaryData>('printing.cancel', { runId: waiting.runId });
    expect(summary.state).toBe('cancelled');
    const entry = await entryOf(waiting.entry.id, waiting.runId);
    expect(entry?.state).toBe('failed');
    expect(entry?.reason).toBe('Cancelled by Sam before it was sent.');

    // The head is closed and the next scan prints: the cancelled one, ahead of it in line, did not.
    await zebra.setHeadOpen(false);
    const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: next.orderRef });
    expect(outcome.outcome).toBe('printed');
    await zebra.waitForLabels(before + 1);
    await station.waitForEvent('printing.label', (label) => label.orderId === next.orderId && label.state === 'printed', 10_000);
    expect(printedBarcodes().slice(before)).toEqual([next.barcode]);
  });

  it('Ctrl+C on a CLI print waiting for the printer cancels it', async () => {
    const order = orders[4] as TodaysOrder;
    const before = zebra.printed().length;
    await zebra.setPaused(true);
    const cli = startCli(sandbox, station.dataDir, ['print', order.orderRef, '--printer', station.printerId]);
    await cli.saidOnStderr(/Waiting for the printer .*paused/);
    cli.pressCtrlC();
    expect(await cli.exit).toBe(1);
    expect(cli.output.stderr).toMatch(new RegExp(`Cancelled: ${order.orderRef} was not printed`));
    const journal = await station.call<{ entries: JournalEntryData[] }>('printing.journal', { orderId: order.orderId });
    expect(journal.entries.map((entry) => [entry.state, entry.reason])).toEqual([['failed', 'Cancelled by Sam before it was sent.']]);
    await zebra.setPaused(false);
    expect(zebra.printed()).toHaveLength(before);
  });
});
