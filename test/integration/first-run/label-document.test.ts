/**
 * Label previews of labels that did not go out as the service's ZPL: a bundle printed as images of
 * its PDF pages (the station did not know its orders), and an order whose carrier has no ZPL. Each
 * preview, read like a scanner reads a label, is that label's barcode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import type { LabelDocumentData, PrintOutcomeData, RunSummaryData, JournalEntryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import { decodeBarcodesFromPdf } from '../../support/barcode';
import { createPrintingStation, startTestSandbox, startZebra, stationOrders, type TodaysOrder } from '../printing-queue/support';

describe('label previews of labels printed from PDFs', () => {
  let sandbox: RunningSandbox;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 200 });
    orders = await stationOrders(sandbox);
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  const readBack = async (document: LabelDocumentData): Promise<string[]> => {
    expect(document.format).toBe('pdf');
    const bytes = Buffer.from(document.base64, 'base64');
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
    const [page] = await decodeBarcodesFromPdf(bytes);
    return (page ?? []).map((barcode) => barcode.data);
  };

  it('shows each page of a bundle printed as images as its own one-page PDF, in the bundle’s order', async () => {
    const { zebra, port } = await startZebra();
    const station = await createPrintingStation(sandbox, port, {}, {}, 'test');
    try {
      const printable = orders.filter((order) => order.status !== 'cancelled');
      const byBundle = new Map<string, TodaysOrder[]>();
      for (const order of printable) byBundle.set(order.bundleId, [...(byBundle.get(order.bundleId) ?? []), order]);
      const [bundleId, members] = [...byBundle.entries()].find(([id, list]) => list.length >= 2 && list.length <= 3 && orders.filter((order) => order.bundleId === id).length === list.length) ?? ['', []];
      const summary = await station.call<RunSummaryData>('printing.printBundles', { bundleIds: [bundleId] });
      expect(summary.bundles[0]?.route).toBe('pdf-raster');
      await station.waitForEvent('printing.finished', (event) => event.runId === summary.runId, 60_000);
      const { entries } = await station.call<{ entries: JournalEntryData[] }>('printing.run', { runId: summary.runId });
      const read: string[] = [];
      for (const entry of entries) {
        const document = await station.call<LabelDocumentData>('printing.labelDocument', { entryId: entry.id });
        // The page as the service made it: A6, turned as the company's orientation says.
        expect([document.widthMm, document.heightMm].sort((a, b) => a - b).map(Math.round)).toEqual([105, 148]);
        read.push(...(await readBack(document)));
      }
      expect(read).toEqual(members.map((order) => order.barcode));
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });

  it('shows the PDF of an order whose carrier has no ZPL, which printed as an image', async () => {
    const { zebra, port } = await startZebra();
    const station = await createPrintingStation(sandbox, port);
    try {
      const order = orders.find((candidate) => !candidate.zplAvailable && candidate.status === 'draft');
      expect(order).toBeDefined();
      const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order!.orderRef });
      if (outcome.outcome !== 'printed') throw new Error('expected the order to print');
      const document = await station.call<LabelDocumentData>('printing.labelDocument', { entryId: outcome.entry.id });
      expect(await readBack(document)).toEqual([order!.barcode]);
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });
});
