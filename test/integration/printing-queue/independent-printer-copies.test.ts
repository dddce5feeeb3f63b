/**
 * The station against a Zebra written for this test from Zebra's documentation, not the project's
 * virtual Zebra (test/support/independent-zebra.ts): ^JZY reprints a label that media out or head
 * open cut short, once the fault is cleared, and its label counter counts whole labels only. Every
 * label that came out twice must be marked "a second copy may have come out" in the run's summary
 * and the history, none called certain (nothing documented shows it); with ^JZN nothing comes out
 * twice and nothing is marked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntryData, RunSummaryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import { IndependentZebra, type IndependentZebraOptions } from '../../support/independent-zebra';
import { waitUntil } from '../../support/wait-until';
import { barcodeOfZpl, bundlesWithLabels, createPrintingStation, startTestSandbox, stationOrders, type PrintingStation, type TodaysOrder } from './support';

describe('second copies on a printer modelled from Zebra’s documentation, counting whole labels only', () => {
  let sandbox: RunningSandbox;
  let orders: TodaysOrder[];
  const used = new Set<string>();
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 600 });
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status !== 'cancelled');
  });

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await sandbox?.close();
  });

  function freshBundles(labels: number): { bundleIds: string[]; orders: TodaysOrder[] } {
    const chosen = bundlesWithLabels(
      orders.filter((order) => !used.has(order.bundleId)),
      labels,
    );
    for (const order of chosen.orders) used.add(order.bundleId);
    return chosen;
  }

  async function bench(options: IndependentZebraOptions): Promise<{ zebra: IndependentZebra; station: PrintingStation }> {
    const zebra = new IndependentZebra(options);
    const port = await zebra.start();
    const station = await createPrintingStation(sandbox, port, {}, { maxFormatsInBuffer: 3 });
    cleanups.push(async () => {
      await station.dispose();
      await zebra.stop();
    });
    return { zebra, station };
  }

  /** How many times each barcode left the printer, cut-short copies included. */
  const copiesOut = (zebra: IndependentZebra): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const label of zebra.out) {
      const barcode = barcodeOfZpl(label.format) ?? '(none)';
      counts.set(barcode, (counts.get(barcode) ?? 0) + 1);
    }
    return counts;
  };

  /** Runs the bundles; once `after` whole labels are out and the next is under the head, the fault stops the printer, then clears. */
  async function runWithCut(zebra: IndependentZebra, station: PrintingStation, bundleIds: string[], fault: 'media-out' | 'head-open', after: number): Promise<RunSummaryData> {
    const started = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
    await waitUntil(() => zebra.out.filter((label) => label.whole).length >= after && zebra.labelUnderHead, `${after} labels out and the next under the head`, 30_000, 1);
    if (fault === 'media-out') zebra.setMediaOut(true);
    else zebra.setHeadOpen(true);
    const kind = fault === 'head-open' ? 'head-open' : 'paper-out';
    await station.waitForEvent('printing.progress', (progress) => progress.runId === started.runId && progress.pauseReason?.fault?.kind === kind, 20_000);
    if (fault === 'media-out') zebra.setMediaOut(false);
    else zebra.setHeadOpen(false);
    return station.waitForEvent('printing.finished', (finished) => finished.runId === started.runId, 60_000);
  }

  /** Every label out twice is marked "may have"; every label marked came out once or twice; none is "certain". */
  async function expectEveryTwiceMarked(zebra: IndependentZebra, station: PrintingStation, summary: RunSummaryData, runOrders: TodaysOrder[], fault: 'paper-out' | 'head-open'): Promise<string> {
    const cut = zebra.out.filter((label) => !label.whole);
    expect(cut, 'the fault cut one label short').toHaveLength(1);
    const cutBarcode = barcodeOfZpl(cut[0]?.format ?? '') as string;
    expect(zebra.out.filter((label) => label.reprint).map((label) => barcodeOfZpl(label.format))).toEqual([cutBarcode]);
    const out = copiesOut(zebra);
    for (const order of runOrders) expect(out.get(order.barcode), order.orderRef).toBe(order.barcode === cutBarcode ? 2 : 1);

    expect(summary.counts).toMatchObject({ total: runOrders.length, printed: runOrders.length, uncertain: 0 });
    const marked = new Map(summary.secondCopies.map((entry) => [entry.barcode, entry.secondCopy]));
    expect(marked.get(cutBarcode), `${cutBarcode} came out twice`).toEqual({ certainty: 'possible', fault });
    for (const entry of summary.secondCopies) expect(entry.secondCopy?.certainty, `${entry.barcode}: nothing documented shows a second copy`).toBe('possible');
    const history = await station.call<{ entries: JournalEntryData[] }>('printing.journal', { limit: 100 });
    expect(history.entries.find((entry) => entry.barcode === cutBarcode)).toMatchObject({ state: 'printed', secondCopy: { certainty: 'possible', fault } });
    return cutBarcode;
  }

  it('26 labels at 3 a second, media out after 6 with the seventh under the head: the label printed twice is marked "may have", in the summary and the history', async () => {
    const { zebra, station } = await bench({ labelMs: 333 });
    const { bundleIds, orders: runOrders } = freshBundles(26);
    const summary = await runWithCut(zebra, station, bundleIds, 'media-out', 6);
    await expectEveryTwiceMarked(zebra, station, summary, runOrders, 'paper-out');
    expect(zebra.labelCount, 'the counter counted whole labels only').toBe(26);
  });

  it('the head opened in the middle of a label, on firmware with messy answers that knows neither ezpl.reprint_mode nor its label counter over SGD: the label printed twice is marked "may have"', async () => {
    const { zebra, station } = await bench({
      labelMs: 100,
      lineEnd: '\n',
      sgdPadding: true,
      sgdTrailer: '\r\n',
      unknownVariables: ['ezpl.reprint_mode', 'odometer.total_label_count', 'device.uptime'],
    });
    const { bundleIds, orders: runOrders } = freshBundles(10);
    const summary = await runWithCut(zebra, station, bundleIds, 'head-open', 3);
    await expectEveryTwiceMarked(zebra, station, summary, runOrders, 'head-open');
  });

  it('^JZN: the cut-short label is not printed again, and nothing is marked as printed twice', async () => {
    const { zebra, station } = await bench({ labelMs: 150 });
    zebra.reprintAfterError = false;
    const { bundleIds, orders: runOrders } = freshBundles(6);
    const summary = await runWithCut(zebra, station, bundleIds, 'media-out', 2);
    expect(zebra.out.filter((label) => !label.whole)).toHaveLength(1);
    expect(zebra.out.some((label) => label.reprint)).toBe(false);
    const out = copiesOut(zebra);
    for (const order of runOrders) expect(out.get(order.barcode), order.orderRef).toBe(1);
    expect(summary.counts).toMatchObject({ total: 6, printed: 6, uncertain: 0 });
    expect(summary.secondCopies).toEqual([]);
  });
});
