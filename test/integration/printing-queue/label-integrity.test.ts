/**
 * Label integrity: what reached the virtual Zebra, rendered offline and read back by a barcode
 * reader, is the order's parcel barcode. Native ZPL in both pinned orientations, and a bundle
 * PDF rasterised into ^GFA graphics (compressed, and plain hex for printers that refuse it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintOutcomeData, RunSummaryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import { decodeBarcodesFromPng } from '../../support/barcode';
import { createPrintingStation, startTestSandbox, startZebra, stationOrders, type TodaysOrder } from './support';

describe('label integrity: the printed label scans as the order’s barcode', () => {
  let sandbox: RunningSandbox;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 200 });
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status !== 'cancelled');
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it.each(['landscape', 'portrait'] as const)('native ZPL for a printer pinned to %s', async (orientation) => {
    const { zebra, port } = await startZebra();
    const station = await createPrintingStation(sandbox, port, {}, { orientation });
    try {
      // Drafts: a scan prints them at once (an `expected` order was printed elsewhere and asks first).
      const order = orders.filter((candidate) => candidate.status === 'draft')[orientation === 'landscape' ? 3 : 4] as TodaysOrder;
      const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef });
      expect(outcome.outcome).toBe('printed');
      const [label] = await zebra.waitForLabels(1);
      expect(label?.zpl).toContain(orientation === 'landscape' ? '^FWR' : '^FWN');
      const decoded = await decodeBarcodesFromPng(await zebra.renderPng(label?.index ?? 0));
      expect(decoded.map((barcode) => barcode.data)).toContain(order.barcode);
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });

  it.each(['compressed', 'hex'] as const)('a bundle PDF rasterised to ^GFA (%s) when the station does not know the bundle’s orders', async (gfaEncoding) => {
    const { zebra, port } = await startZebra();
    const station = await createPrintingStation(sandbox, port, {}, { gfaEncoding }, 'test');
    try {
      const byBundle = new Map<string, TodaysOrder[]>();
      for (const order of orders) byBundle.set(order.bundleId, [...(byBundle.get(order.bundleId) ?? []), order]);
      const [bundleId, members] = [...byBundle.entries()].find(([, list]) => list.length >= 2 && list.length <= 3) ?? ['', []];
      const summary = await station.call<RunSummaryData>('printing.printBundles', { bundleIds: [bundleId] });
      expect(summary.bundles).toEqual([expect.objectContaining({ bundleId, route: 'pdf-raster', labels: members.length })]);
      expect(summary.bundles[0]?.note).toMatch(/does not know this bundle's orders/);
      const finished = await station.waitForEvent('printing.finished', (event) => event.runId === summary.runId, 60_000);
      expect(finished.failed.map((entry) => entry.reason)).toEqual([]);
      const labels = zebra.printed();
      expect(labels).toHaveLength(members.length);
      const read: string[] = [];
      for (const label of labels) {
        expect(label.zpl).toContain('^GFA');
        const data = /\^GFA,\d+,\d+,\d+,([^^]*)\^FS/.exec(label.zpl)?.[1] ?? '';
        if (gfaEncoding === 'hex') expect(data).toMatch(/^[0-9A-F\s]+$/);
        else expect(data).toMatch(/[G-Zg-z,!:]/);
        const decoded = await decodeBarcodesFromPng(await zebra.renderPng(label.index));
        read.push(...decoded.map((barcode) => barcode.data));
      }
      // Pages in the bundle's own order: "1 of n" first.
      expect(read).toEqual(members.map((order) => order.barcode));
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });
});
