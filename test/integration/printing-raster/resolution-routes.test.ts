/**
 * Scenario 4 of the exactly-once issue: the service's ZPL is 203 dpi only. A 300 dpi printer gets
 * each order's PDF label rasterised at 300 dpi (a full A6 ^GFA image whose barcode scans), a head
 * too narrow for A6 is refused with the reason, and a printer swapped for a 300 dpi one at the
 * same address is noticed on the next connection, and its labels follow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrinterData } from '../../../src/shared/contract/printers';
import type { JournalEntryData, PrintOutcomeData, RunSummaryData } from '../../../src/shared/contract/printing';
import type { StationErrorData } from '../../../src/shared/errors';
import { runCliIn } from '../../support/cli';
import { memoryKeyStore } from '../../support/station';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { decodeBarcodesFromPng } from '../../support/barcode';
import { bundlesWithLabels, controlCall, createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from '../printing-queue/support';
import { waitUntil } from '../../support/wait-until';

/** Width and height in dots of the ^GFA graphic of a format. */
function graphicSize(zpl: string): { width: number; height: number } | null {
  const match = /\^GFA,(\d+),(\d+),(\d+),/.exec(zpl);
  if (!match) return null;
  const [, total, , perRow] = match.map(Number) as [number, number, number, number];
  return { width: perRow * 8, height: total / perRow };
}

describe('labels follow the printer’s resolution and head width', () => {
  let sandbox: RunningSandbox;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 200 });
    // Drafts: a scan prints them at once (an `expected` order was printed elsewhere and asks first).
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft');
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('a 300 dpi printer prints the order’s label as a full A6 image at 300 dpi whose barcode scans', async () => {
    const { zebra, port } = await startZebra({ dpi: 300, printWidthDots: 1248 });
    const station = await createPrintingStation(sandbox, port);
    try {
      const added = await station.call<{ printer: PrinterData }>('printers.add', {
        name: 'Bench 300',
        address: { kind: 'network-zebra', host: '127.0.0.1', port },
        defaultForSingle: true,
      });
      expect(added.printer.route).toMatchObject({ kind: 'raster', dpi: 300 });
      const order = orders[5] as TodaysOrder;
      const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef });
      expect(outcome.outcome).toBe('printed');
      if (outcome.outcome !== 'printed') return;
      expect(outcome.entry.format).toBe('gfa');
      const [label] = await zebra.waitForLabels(1);
      expect(label?.zpl).toContain('^PW1240^LL1748');
      expect(label?.zpl).not.toContain('^BC');
      const size = graphicSize(label?.zpl ?? '');
      expect(size?.width).toBeGreaterThanOrEqual(1232);
      expect(size?.height).toBeGreaterThanOrEqual(1740);
      const decoded = await decodeBarcodesFromPng(await zebra.renderPng(label?.index ?? 0));
      expect(decoded.map((barcode) => barcode.data)).toContain(order.barcode);
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });

  it('a 600 dpi printer and an order whose label the service has only as ZPL: says so (LABEL_NEEDS_PDF with its facts), not "rejected as invalid"', async () => {
    const { zebra, port } = await startZebra({ dpi: 600, printWidthDots: 2496 });
    const station = await createPrintingStation(sandbox, port, {}, {}, 'test');
    try {
      const added = await station.call<{ printer: PrinterData }>('printers.add', {
        name: 'Bench 600',
        address: { kind: 'network-zebra', host: '127.0.0.1', port },
        defaultForSingle: true,
      });
      expect(added.printer.route).toMatchObject({ kind: 'raster', dpi: 600 });
      const order = orders[11] as TodaysOrder;
      // The service has this order's label as ZPL alone: it refuses the PDF.
      const zpl = Buffer.from('^XA^PW832^LL1184^FO50,50^A0N,40,40^FDZPL only^FS^XZ');
      await controlCall(sandbox, `/environments/test/orders/${encodeURIComponent(order.orderId)}/label`, { method: 'PUT', body: { format: 'zpl', base64: zpl.toString('base64'), pdf: false } });

      const refused = await station.call('printing.print', { scan: order.orderId, printerId: added.printer.id }).then(
        () => null,
        (error: { data: StationErrorData }) => error.data,
      );
      expect(refused?.code).toBe('LABEL_NEEDS_PDF');
      expect(refused?.facts).toEqual({ orderId: order.orderId, printerName: 'Bench 600', dpi: 600 });
      expect(refused?.message).toMatch(/Bench 600 prints at 600 dpi, so it needs the label of order .* as a PDF.*only as 203 dpi ZPL/);
      expect(zebra.stats().formatsReceived, 'nothing was sent').toBe(0);
      const journal = await station.call<{ entries: JournalEntryData[] }>('printing.journal', { orderId: order.orderId });
      expect(journal.entries.map((entry) => [entry.state, entry.reason?.split(':')[0]])).toEqual([['failed', 'LABEL_NEEDS_PDF']]);

      // The command line says the same.
      const cli = await runCliIn(station.dataDir, { keyStore: memoryKeyStore({ test: { key: sandbox.environments.test.companies[0]?.apiKey ?? '', address: sandbox.environments.test.baseUrl } }) }, [
        'print',
        order.orderId,
        '--printer',
        'Bench 600',
      ]);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toMatch(/Bench 600 prints at 600 dpi, so it needs the label of order .* as a PDF/);
      expect(cli.stderr).not.toMatch(/rejected the request as invalid/);
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });

  it('prints the test label at 300 dpi on a 300 dpi printer: full width, and its barcode scans', async () => {
    const { zebra, port } = await startZebra({ dpi: 300, printWidthDots: 1248 });
    const station = await createPrintingStation(sandbox, port);
    try {
      const added = await station.call<{ printer: PrinterData }>('printers.add', {
        name: 'Bench 300',
        address: { kind: 'network-zebra', host: '127.0.0.1', port },
      });
      const test = await station.call<{ barcode: string | null }>('printers.test', { id: added.printer.id });
      const [label] = await zebra.waitForLabels(1);
      // Drawn for 203 dpi it would be 832 dots wide: 68 % of the head, with the frame's right edge short.
      expect(label?.zpl).toContain('^PW1230');
      const decoded = await decodeBarcodesFromPng(await zebra.renderPng(label?.index ?? 0));
      expect(decoded.map((barcode) => barcode.data)).toContain(test.barcode);
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });

  it('prints an order scanned by its id at 300 dpi too, although the lookup fetched its label as ZPL', async () => {
    const { zebra, port } = await startZebra({ dpi: 300, printWidthDots: 1248 });
    // The test environment's index is empty: the scan is recognised by fetching the order's label.
    const station = await createPrintingStation(sandbox, 9, {}, {}, 'test');
    try {
      await station.call('printers.add', { name: 'Bench 300', address: { kind: 'network-zebra', host: '127.0.0.1', port }, defaultForSingle: true });
      const order = orders[9] as TodaysOrder;
      const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderId });
      expect(outcome.outcome).toBe('printed');
      const [label] = await zebra.waitForLabels(1);
      expect(label?.zpl).toContain('^PW1240^LL1748');
      expect(label?.zpl).not.toContain('^BC');
      const decoded = await decodeBarcodesFromPng(await zebra.renderPng(label?.index ?? 0));
      expect(decoded.map((barcode) => barcode.data)).toContain(order.barcode);
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });

  it('asks the printer who it is once per connection, before that connection’s first label, not for every label', async () => {
    const { zebra, port } = await startZebra({ labelsPerSecond: 200 });
    const station = await createPrintingStation(sandbox, port);
    try {
      const { bundleIds, orders: members } = bundlesWithLabels(await stationOrders(sandbox), 5);
      const summary = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
      await station.waitForEvent('printing.finished', (event) => event.runId === summary.runId, 60_000);
      expect(zebra.printed()).toHaveLength(members.length);
      const carriedLabels = zebra.received().map((connection) => connection.bytes.toString('latin1')).filter((text) => text.includes('^XA'));
      expect(carriedLabels.length).toBeGreaterThan(0);
      for (const text of carriedLabels) {
        expect(text.split('device.unique_id').length - 1).toBe(1);
        expect(text.indexOf('device.unique_id')).toBeLessThan(text.indexOf('^XA'));
      }
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });

  it('refuses a printer whose head is narrower than the label, with its width, and saves nothing', async () => {
    const { zebra, port } = await startZebra({ dpi: 300, printWidthDots: 832 });
    const station = await createPrintingStation(sandbox, port);
    try {
      const result = await station.station.dispatcher.dispatch(
        'printers.add',
        { name: 'Narrow', address: { kind: 'network-zebra', host: '127.0.0.1', port } },
        { host: 'web' },
      );
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe('PRINTER_TOO_NARROW');
      expect(result.error.message).toContain('832 dots (70 mm)');
      const listed = await station.call<{ printers: PrinterData[] }>('printers.list', {});
      expect(listed.printers.map((printer) => printer.name)).not.toContain('Narrow');
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });

  /**
   * `before` is an order no other test printed: once printed, the service has it as `expected`,
   * and another station's scan of it would ask first (printed elsewhere).
   */
  const swapBench = async (station: PrintingStation, zebra: VirtualZebra, port: number, before: TodaysOrder) => {
    const added = await station.call<{ printer: PrinterData }>('printers.add', {
      name: 'Swapped bench',
      address: { kind: 'network-zebra', host: '127.0.0.1', port },
      defaultForSingle: true,
    });
    expect(added.printer.route.kind).toBe('native-zpl');
    expect((await station.call<PrintOutcomeData>('printing.print', { scan: before.orderRef })).outcome).toBe('printed');
    const [native] = await zebra.waitForLabels(1);
    expect(native?.zpl).toContain('^BC');
    // The swap happens once the station has finished with the first printer.
    const activity = station.station.printActivity;
    if (!activity.isQueueIdle()) await new Promise<void>((resolve) => activity.onQueueIdle(resolve));
    return added.printer;
  };

  /** Like a printer unplugged from the network: the station has seen its connection close. */
  const connectionClosed = (station: PrintingStation, printer: PrinterData) => {
    const transport = station.station.services.printing.transports.forPrinter(printer.address) as { connected?: boolean };
    return waitUntil(() => transport.connected === false, 'the station to see its printer connection gone', 5000, 10);
  };

  it('notices a 300 dpi printer swapped in at the same address and prints its next label as a 300 dpi image', async () => {
    const { zebra, port } = await startZebra({ serial: 'D8J224500001' });
    const station = await createPrintingStation(sandbox, port);
    try {
      const printer = await swapBench(station, zebra, port, orders[6] as TodaysOrder);
      const printedBefore = zebra.printed().length;
      await zebra.replaceWith({ dpi: 300, printWidthDots: 1248, serial: 'D8J224500002' });
      await connectionClosed(station, printer);
      const after = orders[7] as TodaysOrder;
      const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: after.orderRef });
      expect(outcome.outcome).toBe('printed');
      const [image] = (await zebra.waitForLabels(printedBefore + 1)).slice(printedBefore);
      expect(image?.zpl).toContain('^PW1240^LL1748');
      expect(image?.zpl).toContain('^GFA');
      const decoded = await decodeBarcodesFromPng(await zebra.renderPng(image?.index ?? 0));
      expect(decoded.map((barcode) => barcode.data)).toContain(after.barcode);
      const listed = await station.call<{ printers: PrinterData[] }>('printers.list', {});
      const swapped = listed.printers.find((candidate) => candidate.id === printer.id);
      expect(swapped?.options).toMatchObject({ dpi: 300, printWidthDots: 1248, serialNumber: 'D8J224500002' });
      expect(swapped?.route.kind).toBe('raster');
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });

  it('notices another 203 dpi printer by its serial number alone, and refuses labels when its head is too narrow', async () => {
    const { zebra, port } = await startZebra({ serial: 'D8J224500003' });
    const station = await createPrintingStation(sandbox, port);
    try {
      const printer = await swapBench(station, zebra, port, orders[10] as TodaysOrder);
      const printedBefore = zebra.printed().length;
      await zebra.replaceWith({ serial: 'D8J224500004', printWidthDots: 609 });
      await connectionClosed(station, printer);
      const result = await station.station.dispatcher.dispatch('printing.print', { scan: (orders[8] as TodaysOrder).orderRef }, { host: 'web' });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe('PRINTER_TOO_NARROW');
      expect(result.error.message).toContain('609 dots (76 mm)');
      expect(zebra.printed()).toHaveLength(printedBefore);
    } finally {
      await station.dispose();
      await zebra.stop();
    }
  });
});
