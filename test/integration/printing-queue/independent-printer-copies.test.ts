/**
 * The station against a Zebra written for this test from Zebra's documentation, not the project's
 * virtual Zebra (test/support/independent-zebra.ts): ^JZY reprints a label that media out or head
 * open cut short, once the fault is cleared, and its label counter counts whole labels only. Zebra
 * does not say whether ~HS eee still counts the format being printed, so each case runs on a printer
 * that does and on one that does not. Every label that came out twice must be marked "a second copy
 * may have come out" in the run's summary and the history, none called certain (nothing documented
 * shows it), and no label marked that cannot have been under the head; with ^JZN nothing comes out
 * twice and nothing is marked.
 */
import { describe, expect, it } from 'vitest';
import type { JournalEntryData, RunSummaryData } from '../../../src/shared/contract/printing';
import { IndependentZebra, type IndependentZebraOptions } from '../../support/independent-zebra';
import { waitUntil } from '../../support/wait-until';
import { barcodeOfZpl, createPrintingStation, sandboxForTheFile, type PrintingStation, type TodaysOrder } from './support';

const bufferCounts = ['until-printed', 'until-printing'] as const;

describe('second copies on a printer modelled from Zebra’s documentation, counting whole labels only', () => {
  const { sandbox: sandboxOf, freshBundles, cleanups } = sandboxForTheFile(600);

  async function bench(options: IndependentZebraOptions): Promise<{ zebra: IndependentZebra; station: PrintingStation }> {
    const zebra = new IndependentZebra(options);
    const port = await zebra.start();
    const station = await createPrintingStation(sandboxOf(), port, {}, { maxFormatsInBuffer: 3 });
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

  /** The barcodes in the order the printer began them (each once). */
  const printOrder = (zebra: IndependentZebra): string[] => [...new Set(zebra.out.map((label) => barcodeOfZpl(label.format) ?? '(none)'))];

  /** Runs the bundles; once `after` whole labels are out and `when` holds, the fault stops the printer, then clears. */
  async function runWithFault(
    zebra: IndependentZebra,
    station: PrintingStation,
    bundleIds: string[],
    fault: 'media-out' | 'head-open',
    after: number,
    when: 'under-the-head' | 'between-labels' = 'under-the-head',
  ): Promise<RunSummaryData> {
    const started = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
    const ready = (): boolean => (when === 'under-the-head' ? zebra.labelUnderHead : zebra.betweenLabels);
    await waitUntil(() => zebra.out.filter((label) => label.whole).length >= after && ready(), `${after} labels out and then ${when}`, 30_000, 1);
    if (fault === 'media-out') zebra.setMediaOut(true);
    else zebra.setHeadOpen(true);
    const kind = fault === 'head-open' ? 'head-open' : 'paper-out';
    await station.waitForEvent('printing.progress', (progress) => progress.runId === started.runId && progress.pauseReason?.fault?.kind === kind, 20_000);
    if (fault === 'media-out') zebra.setMediaOut(false);
    else zebra.setHeadOpen(false);
    const summary = await station.waitForEvent('printing.finished', (finished) => finished.runId === started.runId, 60_000);
    // A printer that stops counting a format as it begins printing it is still printing the last one.
    await waitUntil(() => zebra.idle, 'the printer has printed everything', 10_000);
    return summary;
  }

  /**
   * Every label out twice is marked "may have"; none is "certain"; at most two are marked, the cut
   * one and one next to it (the two the buffer count cannot tell apart); every label marked came
   * out once or twice.
   */
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
    const order = printOrder(zebra);
    const cutAt = order.indexOf(cutBarcode);
    const neighbours = new Set([order[cutAt - 1], cutBarcode, order[cutAt + 1]]);
    expect(summary.secondCopies.length, 'the cut label and at most one next to it').toBeLessThanOrEqual(2);
    for (const entry of summary.secondCopies) expect(neighbours.has(entry.barcode ?? ''), `${entry.barcode} was nowhere near the head`).toBe(true);
    const history = await station.call<{ entries: JournalEntryData[] }>('printing.journal', { limit: 100 });
    expect(history.entries.find((entry) => entry.barcode === cutBarcode)).toMatchObject({ state: 'printed', secondCopy: { certainty: 'possible', fault } });
    return cutBarcode;
  }

  it.each(bufferCounts)('26 labels at 3 a second, media out after 6 with the seventh under the head, eee counting formats %s: the label printed twice is marked "may have", in the summary and the history', async (formatsInBuffer) => {
    const { zebra, station } = await bench({ labelMs: 333, formatsInBuffer });
    const { bundleIds, orders: runOrders } = freshBundles(26);
    const summary = await runWithFault(zebra, station, bundleIds, 'media-out', 6);
    await expectEveryTwiceMarked(zebra, station, summary, runOrders, 'paper-out');
    expect(zebra.labelCount, 'the counter counted whole labels only').toBe(26);
  });

  it.each(bufferCounts)('the head opened in the middle of a label, eee counting formats %s, on firmware with messy answers that knows neither ezpl.reprint_mode nor its label counter over SGD: the label printed twice is marked "may have"', async (formatsInBuffer) => {
    const { zebra, station } = await bench({
      labelMs: 100,
      formatsInBuffer,
      lineEnd: '\n',
      sgdPadding: true,
      sgdTrailer: '\r\n',
      unknownVariables: ['ezpl.reprint_mode', 'odometer.total_label_count', 'device.uptime'],
    });
    const { bundleIds, orders: runOrders } = freshBundles(10);
    const summary = await runWithFault(zebra, station, bundleIds, 'head-open', 3);
    await expectEveryTwiceMarked(zebra, station, summary, runOrders, 'head-open');
  });

  it.each(bufferCounts)('media out while the printer rests between two labels, eee counting formats %s: nothing comes out twice, and at most the two labels either side of the stop are marked "may have"', async (formatsInBuffer) => {
    const { zebra, station } = await bench({ labelMs: 150, restBetweenLabelsMs: 250, formatsInBuffer });
    const { bundleIds, orders: runOrders } = freshBundles(8);
    const summary = await runWithFault(zebra, station, bundleIds, 'media-out', 3, 'between-labels');
    expect(zebra.out.every((label) => label.whole && !label.reprint), 'nothing was cut short').toBe(true);
    const out = copiesOut(zebra);
    for (const order of runOrders) expect(out.get(order.barcode), order.orderRef).toBe(1);
    expect(summary.counts).toMatchObject({ total: 8, printed: 8, uncertain: 0 });
    // The last label out before the stop and the first after it: the buffer count cannot say which was under the head.
    const order = printOrder(zebra);
    const either = new Set(order.slice(2, 4));
    expect(summary.secondCopies.length).toBeLessThanOrEqual(2);
    for (const entry of summary.secondCopies) {
      expect(entry.secondCopy?.certainty, `${entry.barcode}: nothing documented shows a second copy`).toBe('possible');
      expect(either.has(entry.barcode ?? ''), `${entry.barcode} was nowhere near the head`).toBe(true);
    }
  });

  it.each(bufferCounts)('^JZN, eee counting formats %s: the cut-short label is not printed again, and nothing is marked as printed twice', async (formatsInBuffer) => {
    const { zebra, station } = await bench({ labelMs: 150, formatsInBuffer });
    zebra.reprintAfterError = false;
    const { bundleIds, orders: runOrders } = freshBundles(6);
    const summary = await runWithFault(zebra, station, bundleIds, 'media-out', 2);
    expect(zebra.out.filter((label) => !label.whole)).toHaveLength(1);
    expect(zebra.out.some((label) => label.reprint)).toBe(false);
    const out = copiesOut(zebra);
    for (const order of runOrders) expect(out.get(order.barcode), order.orderRef).toBe(1);
    expect(summary.counts).toMatchObject({ total: 6, printed: 6, uncertain: 0 });
    expect(summary.secondCopies).toEqual([]);
  });
});
