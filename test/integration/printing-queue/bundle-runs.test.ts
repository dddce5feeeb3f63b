/**
 * Shift-start runs as the person at the bench drives them: the order within bundles, printing in
 * reverse, pause and resume, cancel and retry of what was left, the duplicate guard across runs,
 * the Delivery API going away mid-run, and a run the station was closed in, offered for resume.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntryData, RunSummaryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import { bundleOrder } from '../../../src/main/printing/bundle-print';
import type { IndexedOrder } from '../../../src/main/orders/order-index';
import { memoryKeyStore } from '../../support/station';
import { waitUntil } from '../../support/wait-until';
import {
  barcodeOfZpl,
  bundlesWithLabels,
  controlCall,
  createPrintingStation,
  startTestSandbox,
  startZebra,
  stationOrders,
  type PrintingStation,
  type TodaysOrder,
} from './support';


describe('bundle runs: order, reverse, pause, cancel, retry, duplicates, outages, resume after a stop', () => {
  let sandbox: RunningSandbox;
  let all: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 1000 });
    all = await stationOrders(sandbox);
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  const withStation = async (labelsPerSecond: number, use: (station: PrintingStation, zebra: Awaited<ReturnType<typeof startZebra>>['zebra']) => Promise<void>) => {
    const { zebra, port } = await startZebra({ labelsPerSecond });
    const station = await createPrintingStation(sandbox, port, {}, { maxFormatsInBuffer: 3 });
    try {
      await use(station, zebra);
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  };

  const barcodes = (zebra: { printed(): { zpl: string }[] }) => zebra.printed().map((label) => barcodeOfZpl(label.zpl));

  it('keeps each bundle’s order ("n of m") and prints the whole run in reverse when asked', async () => {
    await withStation(200, async (station, zebra) => {
      const multi = [...new Set(all.filter((order) => order.zplAvailable && order.status !== 'cancelled').map((order) => order.bundleId))]
        .map((bundleId) => all.filter((order) => order.bundleId === bundleId))
        .filter((members) => members.length >= 3 && members.every((order) => order.zplAvailable && order.status !== 'cancelled'))
        .slice(0, 2);
      expect(multi).toHaveLength(2);
      const bundleIds = multi.map((members) => members[0]?.bundleId ?? '');
      const summary = await station.call<RunSummaryData>('printing.printBundles', { bundleIds, reverse: true });
      expect(summary.reverse).toBe(true);
      await station.waitForEvent('printing.finished', (finished) => finished.runId === summary.runId, 20_000);
      // The sandbox lists a bundle's orders in its own "n of m" order.
      const forwards = multi.flatMap((members) => members.map((order) => order.barcode));
      expect(barcodes(zebra)).toEqual([...forwards].reverse());
      const { entries } = await station.call<{ entries: JournalEntryData[] }>('printing.run', { runId: summary.runId });
      const first = multi[0] as TodaysOrder[];
      const last = entries.at(-1) as JournalEntryData;
      expect([last.bundleId, last.bundlePosition, last.bundleCount]).toEqual([first[0]?.bundleId, 1, first.length]);
    });
  });

  it('pause takes effect within the printer’s buffer limit, and resume carries on from the first label not sent', async () => {
    await withStation(40, async (station, zebra) => {
      const { bundleIds, orders } = bundlesWithLabels(all, 60);
      const summary = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
      await zebra.waitForLabels(10, 20_000);
      const paused = await station.call<RunSummaryData>('printing.pause', { runId: summary.runId });
      expect(paused.state).toBe('paused');
      expect(paused.pauseReason?.by).toBe('user');
      const atPause = zebra.printed().length;
      // The labels still in the printer's buffer come out, and no more than the buffer held.
      await waitUntil(() => zebra.state().bufferedBytes === 0 && !zebra.state().labelInProgress, 'the printer’s buffer printed out');
      expect(zebra.printed().length - atPause).toBeLessThanOrEqual(3);
      const stillPaused = zebra.printed().length;
      // Proves that nothing more happens: at 40 labels a second a label sent now would be out within this.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(zebra.printed().length).toBe(stillPaused);

      await station.call('printing.resume', { runId: summary.runId });
      const finished = await station.waitForEvent('printing.finished', (event) => event.runId === summary.runId, 20_000);
      expect(finished.counts.printed).toBe(60);
      expect(barcodes(zebra)).toEqual(orders.map((order) => order.barcode));
    });
  });

  it('cancel stops within the buffer limit; retry of the failed labels prints the rest, each once', async () => {
    await withStation(40, async (station, zebra) => {
      const { bundleIds, orders } = bundlesWithLabels(all, 50);
      const summary = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
      await zebra.waitForLabels(8, 20_000);
      const cancelledAt = zebra.printed().length;
      await station.call('printing.cancel', { runId: summary.runId });
      const finished = await station.waitForEvent('printing.finished', (event) => event.runId === summary.runId, 20_000);
      expect(finished.state).toBe('cancelled');
      const printedAfterCancel = zebra.printed().length;
      expect(printedAfterCancel - cancelledAt).toBeLessThanOrEqual(3);
      expect(finished.counts.printed).toBe(printedAfterCancel);
      expect(finished.counts.failed).toBe(50 - printedAfterCancel);
      expect(finished.failed.every((entry) => entry.reason?.startsWith('Cancelled'))).toBe(true);

      const retry = await station.call<RunSummaryData>('printing.retryFailed', { runId: summary.runId });
      expect(retry.retryOf).toBe(summary.runId);
      expect(retry.counts.total).toBe(50 - printedAfterCancel);
      await station.waitForEvent('printing.finished', (event) => event.runId === retry.runId, 20_000);
      expect(barcodes(zebra)).toEqual(orders.map((order) => order.barcode));
    });
  });

  it('leaves out orders printed before, unless the run is a reprint with a reason', async () => {
    await withStation(200, async (station, zebra) => {
      const { bundleIds, orders } = bundlesWithLabels(all, 6);
      const first = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
      await station.waitForEvent('printing.finished', (event) => event.runId === first.runId, 20_000);
      await expect(station.call('printing.printBundles', { bundleIds })).rejects.toThrow(/ALREADY_PRINTED/);
      const again = await station.call<RunSummaryData>('printing.printBundles', { bundleIds, reprint: { reason: 'roll jammed', operator: 'Kim' } });
      await station.waitForEvent('printing.finished', (event) => event.runId === again.runId, 20_000);
      const { entries } = await station.call<{ entries: JournalEntryData[] }>('printing.run', { runId: again.runId });
      expect(entries.every((entry) => entry.reason === 'Reprint by Kim: roll jammed' && entry.reprintOf !== null && entry.operator === 'Kim')).toBe(true);
      const expected = orders.map((order) => order.barcode);
      expect(barcodes(zebra)).toEqual([...expected, ...expected]);
    });
  });

  it('waits while the Delivery API cannot be reached and carries on by itself when it is back', async () => {
    const { zebra, port } = await startZebra({ labelsPerSecond: 200 });
    const station = await createPrintingStation(sandbox, port, { clientOptions: { retry: { maxAttempts: 1 } } }, { maxFormatsInBuffer: 3 });
    try {
      const { bundleIds, orders } = bundlesWithLabels(all, 30);
      await controlCall(sandbox, '/settings', { method: 'PATCH', body: { faults: { errorRate: 1 } } });
      const summary = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
      const paused = await station.waitForEvent('printing.progress', (event) => event.runId === summary.runId && event.pauseReason?.by === 'service', 10_000);
      expect(paused.pauseReason?.code).toBe('SERVER_ERROR');
      await controlCall(sandbox, '/settings', { method: 'PATCH', body: { faults: { errorRate: 0 } } });
      const finished = await station.waitForEvent('printing.finished', (event) => event.runId === summary.runId, 20_000);
      expect(finished.counts.printed).toBe(30);
      expect(barcodes(zebra)).toEqual(orders.map((order) => order.barcode));
    } finally {
      await controlCall(sandbox, '/settings', { method: 'PATCH', body: { faults: { errorRate: 0 } } });
      await station.dispose();
      await zebra.stop();
    }
  });

  it('a run the station was closed in is offered for resume and finishes without resending', async () => {
    const { zebra, port } = await startZebra({ labelsPerSecond: 40 });
    const first = await createPrintingStation(sandbox, port, {}, { maxFormatsInBuffer: 3 });
    const { bundleIds, orders } = bundlesWithLabels(all, 40);
    const summary = await first.call<RunSummaryData>('printing.printBundles', { bundleIds });
    await zebra.waitForLabels(10, 20_000);
    await first.station.close();
    // The same data folder, a new station: the run waits for someone to resume it.
    const { composeStation } = await import('../../../src/main/composition');
    const { createLogger } = await import('../../../src/main/logging/logger');
    const { attachEmbeddedSandbox } = await import('../../../src/main/embedded-sandbox');
    const second = await composeStation({
      dataDir: first.dataDir,
      host: 'web',
      version: '0.0.0-test',
      logger: createLogger(() => undefined),
      sandbox: attachEmbeddedSandbox(sandbox),
      keyStore: memoryKeyStore(),
    });
    try {
      const listed = await second.dispatcher.dispatch('printing.runs', { unfinished: true }, { host: 'web' });
      expect(listed.ok).toBe(true);
      const runs = (listed as { value: { runs: RunSummaryData[] } }).value.runs;
      expect(runs.map((run) => [run.runId, run.state, run.resumable, run.pauseReason?.by])).toEqual([[summary.runId, 'paused', true, 'station']]);
      const finished = new Promise<RunSummaryData>((resolve) => {
        second.events.subscribe((name, payload) => {
          if (name === 'printing.finished' && (payload as RunSummaryData).runId === summary.runId) resolve(payload as RunSummaryData);
        });
      });
      const resumed = await second.dispatcher.dispatch('printing.resume', { runId: summary.runId }, { host: 'web' });
      expect(resumed.ok).toBe(true);
      const done = await finished;
      expect(done.counts.printed + done.counts.uncertain).toBe(40);
      const printed = zebra.printed().map((label) => barcodeOfZpl(label.zpl));
      const uncertain = new Set(done.uncertain.map((entry) => entry.barcode));
      for (const order of orders) {
        const count = printed.filter((barcode) => barcode === order.barcode).length;
        if (uncertain.has(order.barcode)) expect(count).toBeLessThanOrEqual(1);
        else expect(count).toBe(1);
      }
    } finally {
      await second.close();
      await first.dispose().catch(() => undefined);
      await zebra.stop();
    }
  });

  it('orders a bundle the way parcels are numbered', () => {
    const order = (orderId: string, orderRef: string | null) => ({ orderId, orderRef }) as IndexedOrder;
    const sorted = bundleOrder([order('c', 'NW1-10'), order('a', 'NW1-2'), order('b', null), order('d', 'NW1-1')]);
    expect(sorted.map((entry) => entry.orderRef)).toEqual(['NW1-1', 'NW1-2', 'NW1-10', null]);
  });
});
