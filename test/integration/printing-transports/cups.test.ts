import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandRunner } from '../../../src/main/printing/transports/command-runner';
import { createCupsQueueTransport, listCupsQueues } from '../../../src/main/printing/transports/cups';
import { createPrinterTransports } from '../../../src/main/printing/transports/printer-transports';
import { PrinterTransportError } from '../../../src/main/printing/transports/transport';
import { VirtualZebra } from '../../../src/sandbox/printer';
import { startCaptureServer, startPrivateCups, type CaptureServer, type PrivateCups } from '../../support/cups';

const runner = createCommandRunner();
const zpl = (text: string): string => `^XA^FO50,50^A0N,40,40^FD${text}^FS^XZ`;

async function twoPagePdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage([298, 420]).drawText('Label 1 of 2', { x: 40, y: 380 });
  document.addPage([298, 420]).drawText('Label 2 of 2', { x: 40, y: 380 });
  return document.save();
}

async function caught(promise: Promise<unknown>): Promise<PrinterTransportError> {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(PrinterTransportError);
  return error as PrinterTransportError;
}

describe('CUPS through a private cupsd', () => {
  let cups: PrivateCups;
  let zebra: VirtualZebra;
  let capture: CaptureServer;

  beforeAll(async () => {
    cups = await startPrivateCups();
    zebra = new VirtualZebra({ name: 'CUPS Zebra', labelsPerSecond: 200 });
    const port = await zebra.start();
    capture = await startCaptureServer();
    await cups.addRawQueue('bench_zebra', port);
    await cups.addPdfQueue('bench_pdf', capture.port);
    await cups.addRawQueue('closed_queue', port);
    await cups.admin('cupsreject', ['closed_queue']);
    await cups.admin('cupsdisable', ['closed_queue']);
  });

  afterAll(async () => {
    await cups?.stop();
    await zebra?.stop();
    await capture?.stop();
  });

  it('prints raw ZPL with lp -o raw: the virtual Zebra receives the exact formats', async () => {
    const transport = createCupsQueueTransport({ queue: 'bench_zebra', format: 'zpl', runner, env: cups.env });
    const labels = [zpl('ORDER 1001'), zpl('ORDER 1002')];
    const result = await transport.send(new TextEncoder().encode(labels.join('\n')), { jobName: 'Orders 1001-1002' });

    expect(result.jobId).toMatch(/^bench_zebra-\d+$/);
    expect(result.confirmed).toBe(false);
    const printed = await zebra.waitForLabels(2, 20_000);
    expect(printed.map((label) => label.zpl)).toEqual(labels);
  });

  it('sends a PDF to a PDF queue: the driver passes a two-page PDF to the printer socket', async () => {
    const transport = createCupsQueueTransport({ queue: 'bench_pdf', format: 'pdf', runner, env: cups.env });
    const result = await transport.send(await twoPagePdf(), { jobName: 'Bundle B-7' });
    expect(result.jobId).toMatch(/^bench_pdf-\d+$/);

    const [job] = await capture.waitForJobs(1, 40_000);
    const bytes = job?.bytes ?? Buffer.alloc(0);
    const start = bytes.indexOf('%PDF-');
    const end = bytes.lastIndexOf('%%EOF');
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const received = await PDFDocument.load(bytes.subarray(start, end + 5));
    expect(received.getPageCount()).toBe(2);
  });

  it('refuses to send something that is not a PDF to a PDF queue', async () => {
    const transport = createCupsQueueTransport({ queue: 'bench_pdf', format: 'pdf', runner, env: cups.env });
    const error = await caught(transport.send(new TextEncoder().encode(zpl('not a pdf'))));
    expect(error.code).toBe('PRINTER_ERROR');
    expect(error.failure).toBe('rejected');
    expect(error.delivery).toBe('none');
  });

  it('says plainly when the queue does not exist', async () => {
    const transport = createCupsQueueTransport({ queue: 'no_such_queue', format: 'zpl', runner, env: cups.env });
    const error = await caught(transport.send(new TextEncoder().encode(zpl('x'))));
    expect(error.code).toBe('PRINTER_NOT_FOUND');
    expect(error.message).toBe('There is no print queue "no_such_queue" on this computer. Choose one from the list of printers.');
    expect(error.delivery).toBe('none');
  });

  it('says plainly when the queue rejects jobs', async () => {
    const transport = createCupsQueueTransport({ queue: 'closed_queue', format: 'zpl', runner, env: cups.env });
    const error = await caught(transport.send(new TextEncoder().encode(zpl('x'))));
    expect(error.code).toBe('PRINTER_OFFLINE');
    expect(error.failure).toBe('not-accepting');
    expect(error.message).toContain('is not accepting jobs');
  });

  it('tells a stopped print service apart from a missing queue', async () => {
    const env = { CUPS_SERVER: `${cups.socketPath}.missing` };
    const transport = createCupsQueueTransport({ queue: 'bench_zebra', format: 'zpl', runner, env });
    const error = await caught(transport.send(new TextEncoder().encode(zpl('x'))));
    expect(error.code).toBe('PRINTER_OFFLINE');
    expect(error.failure).toBe('service-unavailable');
    expect(error.message).toBe('The print service (CUPS) is not running. Start it (or ask IT to), then try again.');
  });

  it('says which package to install when lp is missing', async () => {
    const transport = createCupsQueueTransport({ queue: 'bench_zebra', format: 'zpl', runner, env: { ...cups.env, PATH: '/nonexistent' } });
    const error = await caught(transport.send(new TextEncoder().encode(zpl('x'))));
    expect(error.code).toBe('PRINTER_ERROR');
    expect(error.message).toContain('cups-client');
  });

  it('lists the queues with their state and whether they take jobs', async () => {
    const queues = await listCupsQueues({ runner, env: cups.env });
    const byName = new Map(queues.map((queue) => [queue.name, queue]));
    expect([...byName.keys()].sort()).toEqual(['bench_pdf', 'bench_zebra', 'closed_queue']);
    expect(byName.get('bench_zebra')).toMatchObject({ system: 'cups', accepting: true });
    expect(byName.get('bench_zebra')?.state).toMatch(/^(idle|printing)$/);
    expect(byName.get('closed_queue')).toMatchObject({ state: 'disabled', accepting: false });

    await cups.admin('lpadmin', ['-d', 'bench_zebra']);
    const again = await listCupsQueues({ runner, env: cups.env });
    expect(again.find((queue) => queue.isDefault)?.name).toBe('bench_zebra');
  });

  it('reports a stopped print service when listing queues as no print system, not as a printer fault', async () => {
    const error = await caught(listCupsQueues({ runner, env: { CUPS_SERVER: `${cups.socketPath}.missing` } }));
    expect(error.failure).toBe('service-unavailable');
    expect(error.code).toBe('NO_PRINT_SYSTEM');
    expect(error.facts).toEqual({ subject: 'not-running', system: 'cups' });
  });

  it('reports a computer without CUPS as no print system when listing queues', async () => {
    const error = await caught(listCupsQueues({ runner, env: { PATH: '/nonexistent' } }));
    expect(error.code).toBe('NO_PRINT_SYSTEM');
    expect(error.facts).toEqual({ subject: 'not-installed', system: 'cups' });
    expect(error.message).toContain('cups-client');
  });

  it('gives the same transport for the same queue through the registry', async () => {
    const transports = createPrinterTransports({ platform: 'linux', runner, cupsEnv: cups.env });
    const first = transports.forPrinter({ kind: 'os-queue-raw', queue: 'bench_zebra' });
    expect(transports.forPrinter({ kind: 'os-queue-raw', queue: 'bench_zebra' })).toBe(first);
    expect(transports.forPrinter({ kind: 'os-queue-pdf', queue: 'bench_zebra' })).not.toBe(first);
    const before = zebra.stats().labelsPrinted;
    await first.send(new TextEncoder().encode(zpl('REGISTRY')));
    await zebra.waitForLabels(before + 1, 20_000);
    expect(zebra.printed().at(-1)?.zpl).toBe(zpl('REGISTRY'));
    expect((await transports.listOsQueues()).map((queue) => queue.name)).toContain('bench_zebra');
    await transports.closeAll();
  });
});
