/**
 * Scenario 3 of the exactly-once issue: bundles printed from their PDF (pages rasterised to ^GFA,
 * orders unknown to the station), then a manifest import teaches the station those orders. The
 * duplicate guard must know each order's label whichever route printed it: a scan of one of the
 * orders answers "duplicate" with the earlier print, running the same bundles again prints
 * nothing, and the virtual Zebra printed each label exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintOutcomeData, RunSummaryData } from '../../../src/shared/contract/printing';
import type { ImportReportData } from '../../../src/shared/contract/imports';
import type { RunningSandbox } from '../../../src/sandbox';
import { decodeBarcodesFromPng } from '../../support/barcode';
import { createPrintingStation, startTestSandbox, startZebra, stationOrders, type TodaysOrder } from '../printing-queue/support';

function manifestCsv(orders: readonly TodaysOrder[]): string {
  return ['orderId,orderRef,barcode,bundleId', ...orders.map((order) => [order.orderId, order.orderRef, order.barcode, order.bundleId].join(','))].join('\n');
}

describe('one label identity: a bundle page printed as an image is its order’s label once the order is known', () => {
  let sandbox: RunningSandbox;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 200 });
    orders = await stationOrders(sandbox);
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('raster bundle run → manifest import → scan is a duplicate → the same bundles again print nothing → each label printed once', async () => {
    const { zebra, port } = await startZebra();
    const station = await createPrintingStation(sandbox, port, {}, {}, 'test');
    try {
      const byBundle = new Map<string, TodaysOrder[]>();
      for (const order of orders) byBundle.set(order.bundleId, [...(byBundle.get(order.bundleId) ?? []), order]);
      const chosen = [...byBundle.entries()].filter(([, members]) => members.length >= 2 && members.length <= 4 && members.every((order) => order.status !== 'cancelled')).slice(0, 3);
      const bundleIds = chosen.map(([bundleId]) => bundleId);
      const members = chosen.flatMap(([, list]) => list);
      expect(members.length).toBeGreaterThanOrEqual(6);

      // 1. Orders unknown: every bundle goes out as ^GFA page images.
      const first = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
      expect(first.bundles.map((bundle) => bundle.route)).toEqual(bundleIds.map(() => 'pdf-raster'));
      const finished = await station.waitForEvent('printing.finished', (event) => event.runId === first.runId, 90_000);
      expect(finished.counts.total).toBe(members.length);
      expect(finished.failed).toEqual([]);
      const firstEntries = await station.call<{ entries: { id: number; orderId: string | null; format: string }[] }>('printing.journal', {});
      expect(firstEntries.entries.every((entry) => entry.orderId === null && entry.format === 'gfa')).toBe(true);

      // 2. The manifest teaches the station those orders (and their bundles).
      const report = await station.call<ImportReportData>('imports.manifest', {
        source: { kind: 'content', fileName: 'today.csv', base64: Buffer.from(manifestCsv(members)).toString('base64') },
      });
      expect(report.failed).toBe(0);
      expect(report.inserted + report.updated).toBe(members.length);

      // 3. One order scanned: a duplicate, with the page that printed it.
      const scanned = members[1] as TodaysOrder;
      const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: scanned.orderRef });
      expect(outcome.outcome).toBe('duplicate');
      if (outcome.outcome !== 'duplicate') return;
      const previous = firstEntries.entries.find((entry) => entry.id === outcome.previous.entryId);
      expect(previous?.format).toBe('gfa');

      // 4. The same bundles again: now known per order, every order left out as printed before.
      const again = await station.station.dispatcher.dispatch('printing.printBundles', { bundleIds }, { host: 'web' });
      expect(again.ok).toBe(false);
      if (again.ok) return;
      expect(again.error.code).toBe('ALREADY_PRINTED');

      // 5. The printer's record: each order's barcode exactly once.
      const printed = zebra.printed();
      expect(printed).toHaveLength(members.length);
      const read: string[] = [];
      for (const label of printed) read.push(...(await decodeBarcodesFromPng(await zebra.renderPng(label.index))).map((barcode) => barcode.data));
      expect([...read].sort()).toEqual(members.map((order) => order.barcode).sort());
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  }, 180_000);
});
