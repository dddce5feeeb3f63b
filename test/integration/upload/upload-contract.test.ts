/**
 * The upload's calls as the screen makes them (through the contract's dispatcher) on a station
 * with the sandbox's test environment and a virtual Zebra: pause, resume and cancel; the labels as
 * one print run and as one PDF; files refused as a whole.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import type { UploadPreview, UploadStatus } from '../../../src/shared/contract/upload';
import { barcodeOfZpl, controlCall, createPrintingStation, startZebra, type PrintingStation } from '../printing-queue/support';
import { sharedStringsBomb } from '../imports/hostile-xlsx';
import { header, readReport, sandboxOrdersByRef, uploadRows, writeCsv } from './support';

describe('spreadsheet upload through the contract', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let zebraPort: number;
  let bench: PrintingStation | null = null;

  beforeAll(async () => {
    // 20 ms per answer, so a run of a few hundred rows lasts long enough to pause and cancel.
    sandbox = await startSandbox({ printers: 0, seedSize: 'small', faults: { latencyMs: 20, labelDelayMs: 0 }, rateLimit: { requestsPerSecond: 0 } });
    ({ zebra, port: zebraPort } = await startZebra());
  });

  afterEach(async () => {
    await bench?.dispose();
    bench = null;
  });

  afterAll(async () => {
    await zebra.stop();
    await sandbox.close();
  });

  const prepare = async (station: PrintingStation, name: string, rows: readonly Record<string, string>[], columns: readonly string[] = header) => {
    const path = join(station.dataDir, name);
    writeCsv(path, rows, columns);
    const base64 = Buffer.from(await import('node:fs/promises').then((fs) => fs.readFile(path))).toString('base64');
    return station.call<UploadPreview>('upload.prepare', { source: { kind: 'content', fileName: name, base64 }, locations: ['1101'] });
  };
  const processedAtLeast = (station: PrintingStation, uploadId: string, count: number) =>
    station.waitForEvent('upload.progress', (status) => status.uploadId === uploadId && status.processed >= count);

  it('pauses (nothing more is sent), resumes, and cancels: rows not sent are cancelled and listed in the failures sheet', async () => {
    bench = await createPrintingStation(sandbox, zebraPort, {}, {}, 'test');
    const station = bench;
    const { rows } = uploadRows('PAUSE', 300, 0, '1101', '1201');
    const preview = await prepare(station, 'pause.csv', rows);
    const uploadId = preview.status.uploadId;
    await station.call('upload.start', { uploadId });
    await processedAtLeast(station, uploadId, 30);
    const pausing = await station.call<UploadStatus>('upload.pause', { uploadId });
    expect(pausing.state).toBe('paused');
    await station.station.services.uploads.settled(uploadId);
    const paused = await station.call<UploadStatus>('upload.status', { uploadId });
    expect(paused.state).toBe('paused');
    expect(paused.processed).toBeLessThan(300);
    // Paused means paused: the service holds exactly the rows the station says it created.
    const atPause = await sandboxOrdersByRef(sandbox, 'PAUSE');
    expect(atPause.size).toBe(paused.counts.created);

    await station.call('upload.start', { uploadId });
    await processedAtLeast(station, uploadId, paused.processed + 30);
    await station.call('upload.cancel', { uploadId });
    await station.station.services.uploads.settled(uploadId);
    const cancelled = await station.call<UploadStatus>('upload.status', { uploadId });
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.result).toBe('completed-with-errors');
    expect(cancelled.counts.cancelled).toBeGreaterThan(0);
    expect(cancelled.counts.created + cancelled.counts.cancelled).toBe(300);
    expect((await sandboxOrdersByRef(sandbox, 'PAUSE')).size).toBe(cancelled.counts.created);

    const report = await station.call<{ base64: string }>('upload.report', { uploadId });
    const path = join(station.dataDir, 'pause-report.xlsx');
    writeFileSync(path, Buffer.from(report.base64, 'base64'));
    const failed = (await readReport(path)).get('Failed Orders')!.rows;
    expect(failed).toHaveLength(cancelled.counts.cancelled);
    expect(failed.every((row) => row.reason === 'the upload was cancelled before this row was sent')).toBe(true);
    await expect(station.call('upload.start', { uploadId })).rejects.toMatchObject({ data: { code: 'CONFLICT', facts: { subject: 'upload-cancelled', state: 'cancelled' } } });
  }, 90_000);

  it('prints the created orders\' labels as one print run on the Zebra, and merges them into one PDF', async () => {
    bench = await createPrintingStation(sandbox, zebraPort, {}, {}, 'test');
    const station = bench;
    const before = zebra.printed().length;
    const { rows } = uploadRows('LABELS', 5, 0, '1101', '1201');
    const preview = await prepare(station, 'labels.csv', rows);
    const uploadId = preview.status.uploadId;
    await station.call('upload.start', { uploadId, printerId: station.printerId });
    await station.station.services.uploads.settled(uploadId);
    const status = await station.call<UploadStatus>('upload.status', { uploadId });
    expect(status.result).toBe('completed');
    expect(status.printRunId).not.toBeNull();
    const finished = await station.waitForEvent('printing.finished', (summary) => summary.runId === status.printRunId, 60_000);
    expect(finished.counts.printed).toBe(5);
    const created = await station.station.services.uploads.rows('test', uploadId);
    const printedBarcodes = zebra
      .printed()
      .slice(before)
      .map((label) => barcodeOfZpl(label.zpl));
    expect(printedBarcodes.sort()).toEqual(created.map((row) => row.barcode).sort());

    const labels = await station.call<{ base64: string; labels: number }>('upload.labels', { uploadId });
    expect(labels.labels).toBe(5);
    expect((await PDFDocument.load(Buffer.from(labels.base64, 'base64'))).getPageCount()).toBe(5);
  }, 90_000);

  it('waits out the service\'s rate limit when the client\'s own retries are spent: every row created once, none failed', async () => {
    // The client gives up on a 429 at once, so the upload itself must slow down and send again.
    bench = await createPrintingStation(sandbox, zebraPort, { clientOptions: { retry: { maxAttempts: 1 } } }, {}, 'test');
    const station = bench;
    await controlCall(sandbox, '/settings', { method: 'PATCH', body: { rateLimit: { requestsPerSecond: 10, burst: 4 } } });
    try {
      const { rows } = uploadRows('LIMIT', 16, 0, '1101', '1201');
      const preview = await prepare(station, 'limit.csv', rows);
      const uploadId = preview.status.uploadId;
      await station.call('upload.start', { uploadId });
      await station.station.services.uploads.settled(uploadId);
      const status = await station.call<UploadStatus>('upload.status', { uploadId });
      expect(status.counts).toMatchObject({ created: 16, failed: 0, unknown: 0, ready: 0 });
      expect(status.result).toBe('completed');
      const atService = await sandboxOrdersByRef(sandbox, 'LIMIT');
      expect(atService.size).toBe(16);
      expect([...atService.values()].every((ids) => ids.length === 1)).toBe(true);
    } finally {
      await controlCall(sandbox, '/settings', { method: 'PATCH', body: { rateLimit: { requestsPerSecond: 0 } } });
    }
  }, 90_000);

  it('after a 429 waits the base second again once rows were created, rather than ever longer', async () => {
    // The bug this catches: every pass of the upload that met a 429 doubled the wait (1, 2, 4 … 30 s)
    // even when it had created rows before it, so a long upload crawled at a few rows a second.
    const waits: number[] = [];
    const sleep = (ms: number) => {
      waits.push(ms);
      // Time is the input: the upload's own wait, recorded and then really waited.
      return new Promise<void>((resolve) => setTimeout(resolve, ms));
    };
    bench = await createPrintingStation(sandbox, zebraPort, { clientOptions: { retry: { maxAttempts: 1 } }, uploadSleep: sleep }, {}, 'test');
    const station = bench;
    await controlCall(sandbox, '/settings', { method: 'PATCH', body: { rateLimit: { requestsPerSecond: 10, burst: 4 } } });
    try {
      const { rows } = uploadRows('PACE', 24, 0, '1101', '1201');
      const preview = await prepare(station, 'pace.csv', rows);
      const uploadId = preview.status.uploadId;
      await station.call('upload.start', { uploadId });
      await station.station.services.uploads.settled(uploadId);
      expect((await station.call<UploadStatus>('upload.status', { uploadId })).counts).toMatchObject({ created: 24, failed: 0, unknown: 0, ready: 0 });
      expect(waits.length).toBeGreaterThanOrEqual(2);
      expect(waits).toEqual(waits.map(() => 1_000));
    } finally {
      await controlCall(sandbox, '/settings', { method: 'PATCH', body: { rateLimit: { requestsPerSecond: 0 } } });
    }
  }, 90_000);

  it('takes a file of 2,050 rows as consecutive batches of 1,000, 1,000 and 50, each with its own result', async () => {
    bench = await createPrintingStation(sandbox, zebraPort, {}, {}, 'test');
    const station = bench;
    const { rows } = uploadRows('BATCH', 2050, 0, '1101', '1201');
    rows[1500] = { ...rows[1500]!, deliveryCountry: 'Nederland' };
    const preview = await prepare(station, 'batches.csv', rows);
    expect(preview.status.batches.map((batch) => [batch.batch, batch.firstRow, batch.lastRow, batch.counts.total])).toEqual([
      [1, 2, 1001, 1000],
      [2, 1002, 2001, 1000],
      [3, 2002, 2051, 50],
    ]);
    const uploadId = preview.status.uploadId;
    // Nothing here is paused, so the service answers at once: 20 ms on each of 2,050 orders would
    // be 41 s of waiting that tells nothing about the batches.
    await controlCall(sandbox, '/settings', { method: 'PATCH', body: { faults: { latencyMs: 0 } } });
    try {
      await station.call('upload.start', { uploadId });
      await station.station.services.uploads.settled(uploadId);
    } finally {
      await controlCall(sandbox, '/settings', { method: 'PATCH', body: { faults: { latencyMs: 20 } } });
    }
    const status = await station.call<UploadStatus>('upload.status', { uploadId });
    expect(status.batches.map((batch) => [batch.counts.created, batch.result])).toEqual([
      [1000, 'completed'],
      [999, 'completed-with-errors'],
      [50, 'completed'],
    ]);
    expect(status.result).toBe('completed-with-errors');
    expect((await sandboxOrdersByRef(sandbox, 'BATCH')).size).toBe(2049);
  }, 120_000);

  it('refuses a file without a required column (naming it), a broken .xls and a shared-strings bomb as a whole: nothing is stored or sent', async () => {
    bench = await createPrintingStation(sandbox, zebraPort, {}, {}, 'test');
    const station = bench;
    const { rows } = uploadRows('REFUSED', 3, 0, '1101', '1201');
    const withoutCity = header.filter((column) => column !== 'deliveryCity');
    const missing = await prepare(station, 'no-city.csv', rows, withoutCity).then(
      () => null,
      (error: { data: { code: string; details?: string[] } }) => error.data,
    );
    expect(missing).toMatchObject({ code: 'UPLOAD_COLUMNS_MISSING', details: ['deliveryCity'] });

    // An OLE compound file header followed by noise: SheetJS cannot read it, the upload says so.
    const broken = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(4096, 0x41)]);
    const refused = await station.call('upload.prepare', { source: { kind: 'content', fileName: 'orders.xls', base64: broken.toString('base64') }, locations: ['1101'] }).then(
      () => null,
      (error: { data: { code: string; message: string } }) => error.data,
    );
    expect(refused?.code).toBe('IMPORT_FAILED');
    expect(refused?.message).toContain('orders.xls cannot be read');

    // The shared-strings bomb of the import tests (4.7 MB, 12 strings of 400 MB) fails the upload the same way, bounded.
    const started = performance.now();
    const bomb = await station.call('upload.prepare', { source: { kind: 'content', fileName: 'bomb.xlsx', base64: sharedStringsBomb({ strings: 12, stringChars: 400_000_000 }).toString('base64') }, locations: ['1101'] }).then(
      () => null,
      (error: { data: { code: string; message: string } }) => error.data,
    );
    expect(bomb).toMatchObject({ code: 'IMPORT_FAILED', message: expect.stringMatching(/^bomb\.xlsx cannot be read: the file's shared text .*32 KiB/) as unknown });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(await station.call('upload.list', {})).toEqual([]);
    expect((await sandboxOrdersByRef(sandbox, 'REFUSED')).size).toBe(0);
  });
});
