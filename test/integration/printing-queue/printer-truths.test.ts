/**
 * What a Zebra does as Zebra documents it, and what the station says about it: a label that
 * paper out or head open cut short comes out again (^JZY) and the journal says a second copy may
 * have come out, whichever way the printer's counter counts the cut copy (never certain: nothing
 * documented names the label); with ^JZN one; a printer silent to ~HS in a fault gets its fault named through ~HQES; a printer that
 * serves one connection at a time, busy with a run, is "printing", not "offline"; `print --json`
 * ends with the label's final state. Each case compares the printer's own record with the journal.
 */
import { describe, expect, it } from 'vitest';
import { OrderStatusSchema } from '../../../src/shared/api/schemas';
import type { PrinterStatusData } from '../../../src/shared/contract/printers';
import type { HandoverData } from '../../../src/shared/contract/supervision';
import type { JournalEntryData, PrintOutcomeData, RunSummaryData } from '../../../src/shared/contract/printing';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { waitUntil } from '../../support/wait-until';
import { startCli } from './cli-process';
import { barcodeOfZpl, createPrintingStation, sandboxForTheFile, startZebra, type PrintingStation } from './support';

describe('printer truths', () => {
  const { sandbox: sandboxOf, freshBundles, freshOrder, cleanups } = sandboxForTheFile(600);

  async function bench(zebraOptions: Parameters<typeof startZebra>[0], environment: 'sandbox' | 'test' = 'sandbox'): Promise<{ zebra: VirtualZebra; station: PrintingStation }> {
    const { zebra, port } = await startZebra(zebraOptions);
    const station = await createPrintingStation(sandboxOf(), port, {}, { maxFormatsInBuffer: 3 }, environment);
    cleanups.push(async () => {
      await station.dispose();
      await zebra.stop();
    });
    return { zebra, station };
  }

  /** How many times each barcode left the printer, cut-short copies included. */
  const copiesOut = (zebra: VirtualZebra): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const label of zebra.printed()) {
      const barcode = barcodeOfZpl(label.zpl) ?? '(none)';
      counts.set(barcode, (counts.get(barcode) ?? 0) + 1);
    }
    return counts;
  };

  /** Runs bundles, cutting the label in progress short with `fault` once `after` labels came out; returns the finished summary. */
  async function runWithCut(zebra: VirtualZebra, station: PrintingStation, bundleIds: string[], fault: 'headOpen' | 'paperOut', after: number): Promise<RunSummaryData> {
    const started = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
    await zebra.waitForLabels(after, 30_000);
    await waitUntil(() => zebra.state().labelInProgress, 'a label coming out of the printer', 20_000, 1);
    await zebra.setFaults({ [fault]: true });
    const kind = fault === 'headOpen' ? 'head-open' : 'paper-out';
    await station.waitForEvent('printing.progress', (progress) => progress.runId === started.runId && progress.pauseReason?.fault?.kind === kind, 20_000);
    await zebra.setFaults({ [fault]: false });
    return station.waitForEvent('printing.finished', (finished) => finished.runId === started.runId, 60_000);
  }

  it('^JZY, a label counter that counts the cut copy: a label cut short by the head opening comes out twice, and the journal, the summary, the history and the day close name it "may have", with at most the label before it', async () => {
    const { zebra, station } = await bench({ labelsPerSecond: 4, labelCounter: 'every-copy' });
    const { bundleIds, orders: runOrders } = freshBundles(8);
    const summary = await runWithCut(zebra, station, bundleIds, 'headOpen', 3);

    // The printer's record: one label cut short and reprinted whole; every other label once.
    const cut = zebra.printed().filter((label) => label.cutShortBy !== null);
    expect(cut).toHaveLength(1);
    const cutBarcode = barcodeOfZpl(cut[0]?.zpl ?? '') as string;
    expect(zebra.printed().filter((label) => label.reprint).map((label) => barcodeOfZpl(label.zpl))).toEqual([cutBarcode]);
    const out = copiesOut(zebra);
    for (const order of runOrders) expect(out.get(order.barcode), order.orderRef).toBe(order.barcode === cutBarcode ? 2 : 1);
    // The buffer count cannot tell the cut label from the one before it, and the counter's extra copy
    // is read against counts that rest on it: "may have", never certain.
    const order = [...out.keys()];
    const before = order[order.indexOf(cutBarcode) - 1] as string;
    const mayHave = (barcodes: (string | null)[]): void => {
      expect(barcodes).toContain(cutBarcode);
      for (const barcode of barcodes) expect([before, cutBarcode], `${barcode} was nowhere near the head`).toContain(barcode);
    };

    // The journal: every label printed, the cut one marked, named in the summary.
    expect(summary.counts).toMatchObject({ total: 8, printed: 8, uncertain: 0 });
    mayHave(summary.secondCopies.map((entry) => entry.barcode));
    for (const entry of summary.secondCopies) expect(entry.secondCopy).toEqual({ certainty: 'possible', fault: 'head-open' });
    const history = await station.call<{ entries: JournalEntryData[] }>('printing.journal', { limit: 50 });
    const twice = history.entries.filter((entry) => entry.secondCopy !== null);
    mayHave(twice.map((entry) => entry.barcode));
    for (const entry of twice) expect([entry.state, entry.secondCopy?.certainty]).toEqual(['printed', 'possible']);
    // The day close counts them, and names the parcels to check.
    const handover = await station.call<HandoverData>('supervision.dayClose', { pdf: false });
    expect(handover.secondCopies).toEqual({ certain: 0, possible: twice.length });
    const parcels = handover.bundles.flatMap((bundle) => bundle.parcels).filter((parcel) => parcel.secondCopy !== null);
    mayHave(parcels.map((parcel) => parcel.barcode));
    for (const parcel of parcels) expect(parcel.secondCopy).toBe('possible');
  });

  it('^JZY, a label counter that counts whole labels only: 26 labels at 3 a second, paper out after 6 with a label under the head — the label printed twice is marked "may have come out twice"', async () => {
    const { zebra, station } = await bench({ labelsPerSecond: 3, labelCounter: 'whole-labels' });
    const { bundleIds, orders: runOrders } = freshBundles(26);
    const summary = await runWithCut(zebra, station, bundleIds, 'paperOut', 6);

    // The printer's record: the seventh label cut short and printed again whole; the counter counted it once.
    const cut = zebra.printed().filter((label) => label.cutShortBy !== null);
    expect(cut).toHaveLength(1);
    const cutBarcode = barcodeOfZpl(cut[0]?.zpl ?? '');
    expect(zebra.printed().filter((label) => label.reprint).map((label) => barcodeOfZpl(label.zpl))).toEqual([cutBarcode]);
    expect(zebra.state().odometer, 'the cut copy is not counted').toBe(26);
    const out = copiesOut(zebra);
    for (const order of runOrders) expect(out.get(order.barcode), order.orderRef).toBe(order.barcode === cutBarcode ? 2 : 1);

    // The journal: every label printed, and every label that came out twice marked.
    expect(summary.counts).toMatchObject({ total: 26, printed: 26, uncertain: 0 });
    const marked = new Map(summary.secondCopies.map((entry) => [entry.barcode, entry.secondCopy]));
    expect(marked.get(cutBarcode)).toEqual({ certainty: 'possible', fault: 'paper-out' });
    for (const [barcode, copies] of out) if (copies === 2) expect(marked.has(barcode), `${barcode} came out twice`).toBe(true);
    // Nothing documented shows a second copy: none is called certain, and only the cut label and the one before it are marked.
    expect(summary.secondCopies.every((entry) => entry.secondCopy?.certainty === 'possible')).toBe(true);
    const order = [...out.keys()];
    const nearTheHead = order.slice(order.indexOf(cutBarcode as string) - 1, order.indexOf(cutBarcode as string) + 1);
    for (const entry of summary.secondCopies) expect(nearTheHead, `${entry.barcode} was nowhere near the head`).toContain(entry.barcode);
    const history = await station.call<{ entries: JournalEntryData[] }>('printing.journal', { limit: 50 });
    expect(history.entries.find((entry) => entry.barcode === cutBarcode)?.secondCopy).toEqual({ certainty: 'possible', fault: 'paper-out' });
  });

  it('^JZN: the cut-short label is not printed again, and nothing is listed as printed twice', async () => {
    const { zebra, station } = await bench({ labelsPerSecond: 4 });
    zebra.setReprintAfterError(false);
    const { bundleIds, orders: runOrders } = freshBundles(6);
    const summary = await runWithCut(zebra, station, bundleIds, 'paperOut', 2);

    expect(zebra.printed().filter((label) => label.cutShortBy === 'paperOut')).toHaveLength(1);
    expect(zebra.printed().some((label) => label.reprint)).toBe(false);
    const out = copiesOut(zebra);
    for (const order of runOrders) expect(out.get(order.barcode), order.orderRef).toBe(1);
    expect(summary.counts).toMatchObject({ total: 6, printed: 6, uncertain: 0 });
    expect(summary.secondCopies).toEqual([]);
  });

  it('a printer silent to ~HS while its head is open: the run pauses for the open head (asked through ~HQES), not for "no answer"', async () => {
    const { zebra, station } = await bench({ labelsPerSecond: 20, faults: { silentHostStatusInFaults: true } });
    const { bundleIds, orders: runOrders } = freshBundles(30);
    const started = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
    await zebra.waitForLabels(10, 30_000);
    await zebra.setHeadOpen(true);
    const paused = await station.waitForEvent('printing.progress', (progress) => progress.runId === started.runId && progress.state === 'paused', 20_000);
    expect(paused.pauseReason).toMatchObject({ by: 'printer', code: 'HEAD_OPEN', fault: { kind: 'head-open' } });
    expect(paused.pauseReason?.message).toBe('The printhead is open.');
    // The status call says the same, though the printer answers no ~HS.
    const status = await station.call<PrinterStatusData>('printers.status', { id: station.printerId });
    expect(status.faults[0]?.code).toBe('HEAD_OPEN');

    await zebra.setHeadOpen(false);
    const summary = await station.waitForEvent('printing.finished', (finished) => finished.runId === started.runId, 60_000);
    // Printer and journal agree: each label once, but for a second copy the journal names.
    const out = copiesOut(zebra);
    const twice = new Map(summary.secondCopies.map((entry) => [entry.barcode, entry.secondCopy]));
    for (const order of runOrders) {
      const copies = out.get(order.barcode) ?? 0;
      const second = twice.get(order.barcode);
      if (second?.certainty === 'certain') expect(copies, order.orderRef).toBe(2);
      else if (second) expect([1, 2]).toContain(copies);
      else expect(copies, order.orderRef).toBe(1);
    }
    expect(summary.counts.printed + summary.counts.uncertain).toBe(30);
    for (const entry of summary.uncertain) expect(entry.reason).not.toMatch(/printed twice/);
  });

  it('a printer that serves one connection at a time, busy with a run: status says printing, from the run, without a second connection', async () => {
    const { zebra, station } = await bench({ labelsPerSecond: 1, faults: { oneConnectionAtATime: true } }, 'test');
    const { bundleIds, orders: runOrders } = freshBundles(40);
    const index = station.station.services.orders;
    await index.transaction(async (tx) => {
      for (const { orderId, orderRef, barcode, bundleId, status } of runOrders) {
        await index.upsert('test', { orderId, orderRef, barcode, bundleId, status: OrderStatusSchema.parse(status) }, 'import', tx);
      }
    });
    const started = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
    await zebra.waitForLabels(1, 30_000);
    const connections = zebra.stats().connectionsAccepted;

    // In the process printing the run: from its queue, at once.
    const asked = Date.now();
    const here = await station.call<PrinterStatusData>('printers.status', { id: station.printerId });
    expect(Date.now() - asked).toBeLessThan(2000);
    expect(here).toMatchObject({ state: 'printing', source: 'queue', busyWith: { runId: started.runId, kind: 'bundles' } });

    // From the CLI in another process: from the run in the journal, not "offline".
    const cli = startCli(sandboxOf(), station.dataDir, ['printers', 'status', station.printerId, '--json']);
    expect(await cli.exit).toBe(0);
    const there = JSON.parse(cli.output.stdout) as PrinterStatusData;
    expect(there).toMatchObject({ state: 'printing', source: 'run-elsewhere', faults: [], busyWith: { runId: started.runId, processId: process.pid } });
    expect(zebra.stats().connectionsAccepted, 'no second connection was opened').toBe(connections);
    expect(station.events.some((event) => event.name === 'printing.finished'), 'the run was still printing when asked').toBe(false);

    zebra.setLabelsPerSecond(1000);
    const summary = await station.waitForEvent('printing.finished', (finished) => finished.runId === started.runId, 60_000);
    expect(summary.counts).toMatchObject({ total: 40, printed: 40 });
    const out = copiesOut(zebra);
    for (const order of runOrders) expect(out.get(order.barcode), order.orderRef).toBe(1);
  });

  it('print --json from the CLI ends with the label printed, and the journal keeps it printed', async () => {
    const { zebra, station } = await bench({ labelsPerSecond: 2 }, 'test');
    const order = freshOrder((candidate) => candidate.status === 'draft');
    const index = station.station.services.orders;
    await index.transaction(async (tx) => {
      await index.upsert('test', { orderId: order.orderId, orderRef: order.orderRef, barcode: order.barcode, bundleId: order.bundleId, status: OrderStatusSchema.parse(order.status) }, 'import', tx);
    });
    const cli = startCli(sandboxOf(), station.dataDir, ['print', order.orderRef, '--printer', station.printerId, '--json']);
    expect(await cli.exit).toBe(0);
    const answer = JSON.parse(cli.output.stdout) as Extract<PrintOutcomeData, { outcome: 'printed' }> & { settled: boolean };
    expect(answer).toMatchObject({ outcome: 'printed', settled: true, entry: { state: 'printed', orderId: order.orderId } });
    expect(copiesOut(zebra).get(order.barcode)).toBe(1);
    // The command's process is gone: the journal holds the label as printed, and a station's start-up recovery leaves it so.
    await station.station.services.printing.service.recover();
    const journal = await station.call<{ entries: JournalEntryData[] }>('printing.journal', { orderId: order.orderId });
    expect(journal.entries.map((entry) => entry.state)).toEqual(['printed']);
  });
});
