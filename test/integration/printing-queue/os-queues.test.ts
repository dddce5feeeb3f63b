/**
 * Printers behind the OS queue, through a private cupsd: a PDF printer gets single orders as the
 * service's PDF label and bundles as the service's bundle PDFs; a raw queue in front of a Zebra
 * gets ZPL. The queue can say only that the OS took a job, so such labels end as "sent".
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintOutcomeData, RunSummaryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import { VirtualZebra } from '../../../src/sandbox/printer';
import { decodeBarcodesFromPdf } from '../../support/barcode';
import { startCaptureServer, startPrivateCups, type CaptureServer, type PrivateCups } from '../../support/cups';
import { barcodeOfZpl, bundlesWithLabels, createPrintingStation, startTestSandbox, stationOrders, type PrintingStation, type TodaysOrder } from './support';

function pdfIn(bytes: Buffer): Buffer {
  const start = bytes.indexOf('%PDF-');
  const end = bytes.lastIndexOf('%%EOF');
  return bytes.subarray(start, end + 5);
}

describe('printers behind the OS queue (private cupsd)', () => {
  let sandbox: RunningSandbox;
  let cups: PrivateCups;
  let capture: CaptureServer;
  let zebra: VirtualZebra;
  let station: PrintingStation;
  let orders: TodaysOrder[];
  let pdfPrinterId: string;
  let rawPrinterId: string;
  // Bundles printed here already: the duplicate guard would rightly leave them out of a later run.
  const printedBundles = new Set<string>();

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 300 });
    cups = await startPrivateCups();
    capture = await startCaptureServer();
    zebra = new VirtualZebra({ labelsPerSecond: 200 });
    const zebraPort = await zebra.start();
    await cups.addPdfQueue('bench_pdf', capture.port);
    await cups.addRawQueue('bench_raw', zebraPort);
    // The station's own printer list starts with a network Zebra nobody uses here.
    station = await createPrintingStation(sandbox, 9, { printing: { progressIntervalMs: 50, transports: { cupsEnv: cups.env } } });
    const add = async (name: string, address: unknown) =>
      (await station.call<{ printer: { id: string } }>('printers.add', { name, address, check: false })).printer.id;
    pdfPrinterId = await add('Office PDF', { kind: 'os-queue-pdf', queue: 'bench_pdf' });
    rawPrinterId = await add('Zebra via CUPS', { kind: 'os-queue-raw', queue: 'bench_raw' });
    orders = (await stationOrders(sandbox)).filter((order) => order.status !== 'cancelled');
  });

  afterAll(async () => {
    await station?.dispose();
    await cups?.stop();
    await capture?.stop();
    await zebra?.stop();
    await sandbox?.close();
  });

  it('prints a single order as its PDF label on a PDF printer', async () => {
    const order = orders[0] as TodaysOrder;
    const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef, printerId: pdfPrinterId });
    expect(outcome.outcome).toBe('printed');
    if (outcome.outcome !== 'printed') return;
    expect(outcome.entry).toMatchObject({ format: 'pdf', state: 'sent' });
    // The OS queue cannot be asked: the label stays "sent", and the answer says no proof follows.
    expect(outcome.proofFollows).toBe(false);
    const [job] = await capture.waitForJobs(1, 40_000);
    const pages = await decodeBarcodesFromPdf(pdfIn(job?.bytes ?? Buffer.alloc(0)));
    expect(pages.flat().map((barcode) => barcode.data)).toContain(order.barcode);
  });

  it('prints bundles as the service’s bundle PDFs on a PDF printer', async () => {
    const { bundleIds, orders: members } = bundlesWithLabels(orders.slice(1), 5);
    for (const bundleId of bundleIds) printedBundles.add(bundleId);
    const summary = await station.call<RunSummaryData>('printing.printBundles', { bundleIds, printerId: pdfPrinterId });
    expect(summary.bundles.map((bundle) => bundle.route)).toEqual(bundleIds.map(() => 'pdf'));
    const finished = await station.waitForEvent('printing.finished', (event) => event.runId === summary.runId, 60_000);
    expect(finished.counts).toMatchObject({ total: bundleIds.length, sent: bundleIds.length });
    const jobs = (await capture.waitForJobs(1 + bundleIds.length, 60_000)).slice(1);
    let pageCount = 0;
    for (const job of jobs) pageCount += (await PDFDocument.load(pdfIn(job.bytes))).getPageCount();
    expect(pageCount).toBe(members.length);
  });

  it('prints ZPL through a raw queue to a Zebra', async () => {
    const { bundleIds, orders: members } = bundlesWithLabels(orders.slice(20), 4, printedBundles);
    const summary = await station.call<RunSummaryData>('printing.printBundles', { bundleIds, printerId: rawPrinterId });
    const finished = await station.waitForEvent('printing.finished', (event) => event.runId === summary.runId, 60_000);
    expect(finished.counts).toMatchObject({ total: 4, sent: 4 });
    const labels = await zebra.waitForLabels(4, 20_000);
    expect(labels.map((label) => barcodeOfZpl(label.zpl))).toEqual(members.map((order) => order.barcode));
  });
});
