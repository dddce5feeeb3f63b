import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPrinter } from '../../../src/main/printing/check';
import { readPrinterIdentity } from '../../../src/main/printing/status/printer-identity';
import { PrinterStatusReader, readPrinterStatus, statusError } from '../../../src/main/printing/status/printer-status';
import { buildTestLabel } from '../../../src/main/printing/test-label';
import { createNetworkZebraTransport } from '../../../src/main/printing/transports/network-zebra';
import { PrinterTransportError } from '../../../src/main/printing/transports/transport';
import { VirtualZebra, type VirtualZebraOptions } from '../../../src/sandbox/printer';
import { decodeBarcodesFromPng } from '../../support/barcode';

const encoder = new TextEncoder();
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function virtualPrinter(options: VirtualZebraOptions = {}) {
  const zebra = new VirtualZebra({ labelsPerSecond: 200, ...options });
  const port = await zebra.start();
  cleanups.push(() => zebra.stop());
  const transport = createNetworkZebraTransport({ host: '127.0.0.1', port, queryTimeoutMs: 500 });
  cleanups.push(() => transport.close());
  return { zebra, transport, port };
}

describe('status read-back over TCP', () => {
  it('reads a ready printer as ready', async () => {
    const { transport } = await virtualPrinter();
    const report = await readPrinterStatus(transport);
    expect(report.ready).toBe(true);
    expect(report.faults).toEqual([]);
    expect(report.extended?.errors.present).toBe(false);
    expect(statusError(report)).toBeNull();
  });

  it.each([
    ['paper out', { paperOut: true }, 'PAPER_OUT', 'The printer is out of labels. Load a roll, then press Resume.'],
    ['head open', { headOpen: true }, 'HEAD_OPEN', 'The printhead is open. Close the printhead until it clicks.'],
    ['paused', { paused: true }, 'PRINTER_PAUSED', 'The printer is paused. Press Resume (the pause key) on the printer.'],
    ['ribbon out', { ribbonOut: true }, 'RIBBON_OUT', 'The printer is out of ribbon. Load a new ribbon, then press Resume.'],
  ] as const)('turns %s into its error code and what to do', async (_name, faults, code, sentence) => {
    const { zebra, transport } = await virtualPrinter();
    await zebra.setFaults(faults);
    const report = await readPrinterStatus(transport);
    expect(report.ready).toBe(false);
    expect(report.faults.map((fault) => fault.code)).toEqual([code]);
    const error = statusError(report);
    expect(error?.code).toBe(code);
    expect(error?.message).toBe(sentence);
  });

  it('puts the fault that needs hands before a pause', async () => {
    const { zebra, transport } = await virtualPrinter();
    await zebra.setFaults({ paused: true, headOpen: true, paperOut: true });
    const report = await readPrinterStatus(transport);
    expect(report.faults.map((fault) => fault.code)).toEqual(['HEAD_OPEN', 'PAPER_OUT', 'PRINTER_PAUSED']);
  });

  it('sees paper running out after a number of labels', async () => {
    const { zebra, transport } = await virtualPrinter();
    await zebra.runOutOfPaperAfter(2);
    await transport.send(encoder.encode('^XA^FDone^FS^XZ^XA^FDtwo^FS^XZ^XA^FDthree^FS^XZ'), { confirm: false });
    await zebra.waitForLabels(2);
    const report = await readPrinterStatus(transport);
    expect(report.faults[0]?.code).toBe('PAPER_OUT');
    expect(report.host?.formatsInBuffer).toBe(1);
  });

  it('counts the formats waiting in the printer', async () => {
    const { zebra, transport } = await virtualPrinter({ labelsPerSecond: 1 });
    await zebra.setPaused(true);
    const result = await transport.send(encoder.encode('^XA^FD1^FS^XZ^XA^FD2^FS^XZ^XA^FD3^FS^XZ^XA^FD4^FS^XZ'));
    expect(result.status?.formatsInBuffer).toBe(4);
    expect(result.status?.paused).toBe(true);
  });

  it('treats silence as a fault: PRINTER_OFFLINE', async () => {
    const { zebra, transport } = await virtualPrinter();
    await zebra.ignoreStatusQueries(true);
    const error = await readPrinterStatus(transport).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PrinterTransportError);
    expect((error as PrinterTransportError).code).toBe('PRINTER_OFFLINE');
    expect((error as PrinterTransportError).failure).toBe('no-answer');
  });

  it('reads an older printer that answers ~HS but not ~HQES, and stops asking it ~HQES', async () => {
    const old = await oldFirmwarePrinter();
    const transport = createNetworkZebraTransport({ host: '127.0.0.1', port: old.port, queryTimeoutMs: 300 });
    cleanups.push(() => transport.close());
    const reader = new PrinterStatusReader(transport);

    const first = await reader.read();
    expect(first.extended).toBeNull();
    expect(first.faults.map((fault) => fault.code)).toEqual(['PAPER_OUT']);
    expect(reader.answersExtendedStatus).toBe(false);

    const started = Date.now();
    await reader.read();
    expect(Date.now() - started).toBeLessThan(250);
    expect(old.queries.filter((query) => query === '~HQES')).toHaveLength(1);
  });

  it('reads what the printer is: model, resolution, width, languages', async () => {
    const { transport } = await virtualPrinter();
    const identity = await readPrinterIdentity(transport);
    expect(identity).toMatchObject({ model: 'ZD421-203dpi', firmware: 'V84.20.18Z', dpi: 203, printWidthDots: 832, languages: ['zpl'] });
  });
});

describe('printer check and test print', () => {
  it('passes a 203 dpi 4-inch ZPL printer', async () => {
    const { transport } = await virtualPrinter();
    const result = await checkPrinter(transport);
    expect(result.checked).toBe(true);
    expect(result.passed).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(result.status?.ready).toBe(true);
  });

  it('passes a 300 dpi 4-inch printer: its labels are rasterised at 300 dpi, not warned about', async () => {
    const { transport } = await virtualPrinter({ dpi: 300, printWidthDots: 1248 });
    const result = await checkPrinter(transport);
    expect(result.passed).toBe(true);
    expect(result.identity).toMatchObject({ dpi: 300, printWidthDots: 1248 });
  });

  it('warns plainly about a printer too narrow for A6', async () => {
    const { transport } = await virtualPrinter({ printWidthDots: 609 });
    const result = await checkPrinter(transport);
    expect(result.warnings.map((warning) => warning.issue)).toEqual(['print-width']);
    expect(result.warnings[0]?.message).toBe(
      'The printer prints 609 dots (76 mm) wide. A6 labels are 105 mm wide, so about 29 mm at the right edge would be cut off: labels are refused on it. Set the print width to its maximum, or use a 4-inch printer.',
    );
  });

  it('prints a test label whose barcode scans', async () => {
    const { zebra, transport } = await virtualPrinter();
    const test = buildTestLabel({ printerName: 'Bench 3 ^Zebra~', stationName: 'Packing 3', printedAt: new Date(2026, 0, 5, 7, 8, 9) });
    await transport.send(encoder.encode(test.zpl));
    const [printed] = await zebra.waitForLabels(1);
    expect(printed?.zpl).toBe(test.zpl.trim());
    const decoded = await decodeBarcodesFromPng(await zebra.renderPng(0));
    expect(decoded).toContainEqual({ symbology: 'CODE-128', data: 'TEST20260105070809' });
  });
});

/** A printer with firmware older than ~HQES: it answers ~HS (paper out) and stays silent to ~HQES. */
async function oldFirmwarePrinter(): Promise<{ port: number; queries: string[] }> {
  const queries: string[] = [];
  const reply = '\x02030,1,0,1245,000,0,0,0,000,0,0,0\x03\r\n\x02001,0,0,0,1,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n';
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (;;) {
        const match = /~HQES|~HS/.exec(pending);
        if (!match) break;
        queries.push(match[0]);
        if (match[0] === '~HS') socket.write(reply, 'latin1');
        pending = pending.slice(match.index + match[0].length);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, queries };
}

