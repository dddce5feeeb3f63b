/**
 * What the upload tells the screen when it refuses, through the contract's dispatcher as the
 * screen calls it: a stable code with facts the screen words in its language (the English message
 * stays for the log and the CLI). An upload whose state refuses start, pause or cancel is a
 * CONFLICT naming the state; a file refused as a whole says why as a subject with the file's name;
 * an orderRef created before for another location is skipped with both locations.
 */
import { closeSync, ftruncateSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import type { UploadPreview, UploadStatus } from '../../../src/shared/contract/upload';
import type { StationErrorData } from '../../../src/shared/errors';
import { createPrintingStation, startZebra, type PrintingStation } from '../printing-queue/support';
import { runCliIn } from '../../support/cli';
import { memoryKeyStore } from '../../support/station';
import { goodRow, header, readReport, sandboxOrdersByRef, stationFolder, stationKeys, uploadRows, writeCsv } from './support';

describe('the upload’s refusals and skips as codes and facts', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let zebraPort: number;
  let bench: PrintingStation | null = null;

  beforeAll(async () => {
    sandbox = await startSandbox({ printers: 0, seedSize: 'small', faults: { labelDelayMs: 0 }, rateLimit: { requestsPerSecond: 0 } });
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

  const content = (station: PrintingStation, fileName: string, bytes: Buffer, locations = ['1101']) =>
    station.call<UploadPreview>('upload.prepare', { source: { kind: 'content', fileName, base64: bytes.toString('base64') }, locations });
  const csvBytes = (station: PrintingStation, name: string, rows: readonly Record<string, string>[], columns: readonly string[] = header) => {
    const path = join(station.dataDir, name);
    writeCsv(path, rows, columns);
    return import('node:fs/promises').then((fs) => fs.readFile(path));
  };
  /** The error a call answers with (the test fails if it succeeds). */
  const refusal = (call: Promise<unknown>): Promise<StationErrorData> =>
    call.then(
      () => {
        throw new Error('the call was expected to be refused');
      },
      (error: { data: StationErrorData }) => error.data,
    );

  it('start, pause and cancel refused by the upload’s state are CONFLICT with the state, not INVALID_INPUT', async () => {
    bench = await createPrintingStation(sandbox, zebraPort, {}, {}, 'test');
    const station = bench;

    const finished = await content(station, 'finished.csv', await csvBytes(station, 'finished.csv', uploadRows('STATE-F', 2, 0, '1101', '1201').rows));
    const finishedId = finished.status.uploadId;
    await station.call('upload.start', { uploadId: finishedId });
    await station.station.services.uploads.settled(finishedId);
    expect((await station.call<UploadStatus>('upload.status', { uploadId: finishedId })).state).toBe('finished');
    for (const [call, action] of [['upload.start', 'start'], ['upload.pause', 'pause'], ['upload.cancel', 'cancel']] as const) {
      const error = await refusal(station.call(call, { uploadId: finishedId }));
      expect(error, call).toMatchObject({ code: 'CONFLICT', facts: { subject: 'upload-finished', state: 'finished', id: finishedId, action } });
    }

    const cancelled = await content(station, 'cancelled.csv', await csvBytes(station, 'cancelled.csv', uploadRows('STATE-C', 2, 0, '1101', '1201').rows));
    const cancelledId = cancelled.status.uploadId;
    await station.call('upload.cancel', { uploadId: cancelledId });
    expect(await refusal(station.call('upload.start', { uploadId: cancelledId }))).toMatchObject({ code: 'CONFLICT', facts: { subject: 'upload-cancelled', state: 'cancelled' } });
    const again = await refusal(station.call('upload.cancel', { uploadId: cancelledId }));
    expect(again).toMatchObject({ code: 'CONFLICT', facts: { subject: 'upload-cancelled', state: 'cancelled' } });
    // The CLI and the log keep their English sentence.
    expect(again.message).toBe(`Upload ${cancelledId} is cancelled already.`);

    const paused = await content(station, 'paused.csv', await csvBytes(station, 'paused.csv', uploadRows('STATE-P', 2, 0, '1101', '1201').rows));
    const pausedId = paused.status.uploadId;
    expect((await station.call<UploadStatus>('upload.pause', { uploadId: pausedId })).state).toBe('paused');
    expect(await refusal(station.call('upload.pause', { uploadId: pausedId }))).toMatchObject({ code: 'CONFLICT', facts: { subject: 'upload-paused', state: 'paused' } });
    expect((await sandboxOrdersByRef(sandbox, 'STATE-C')).size + (await sandboxOrdersByRef(sandbox, 'STATE-P')).size).toBe(0);
  });

  it('a file refused as a whole says why as a subject with the file’s name: empty, no header, unsupported, unreadable, too big, a stale choice, missing columns', async () => {
    bench = await createPrintingStation(sandbox, zebraPort, {}, {}, 'test');
    const station = bench;
    const { pickedFiles } = station.station.services;

    expect(await refusal(content(station, 'nothing.csv', Buffer.alloc(0)))).toMatchObject({ code: 'IMPORT_FAILED', facts: { subject: 'empty', file: 'nothing.csv' } });
    expect(await refusal(content(station, 'blank.csv', Buffer.from('\n\n\n')))).toMatchObject({ code: 'IMPORT_FAILED', facts: { subject: 'no-header', file: 'blank.csv' } });
    expect(await refusal(content(station, 'orders.pdf', Buffer.from('%PDF-1.7 not a spreadsheet')))).toMatchObject({ code: 'IMPORT_FAILED', facts: { subject: 'unsupported', file: 'orders.pdf' } });
    const brokenXls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(4096, 0x41)]);
    expect(await refusal(content(station, 'orders.xls', brokenXls))).toMatchObject({ code: 'IMPORT_FAILED', facts: { subject: 'unreadable', file: 'orders.xls' } });

    // 21 MiB on disk (sparse): refused by its size before a byte is read, with the size and the limit.
    const big = join(station.dataDir, 'week.csv');
    const handle = openSync(big, 'w');
    ftruncateSync(handle, 21 * 1024 * 1024);
    closeSync(handle);
    const tooBig = await refusal(station.call('upload.prepare', { source: { kind: 'picked', handle: pickedFiles.register(big) }, locations: ['1101'] }));
    expect(tooBig).toMatchObject({ code: 'IMPORT_FAILED', facts: { subject: 'too-big', file: 'week.csv', mb: 20, sizeMb: 21 } });
    expect(tooBig.message).toBe('week.csv is larger than 20 MB; split it into smaller files.');

    const stale = await refusal(station.call('upload.prepare', { source: { kind: 'picked', handle: 'a'.repeat(40) }, locations: ['1101'] }));
    expect(stale).toMatchObject({ code: 'IMPORT_FAILED', facts: { subject: 'choice-expired' } });

    const rows = uploadRows('COLUMNS', 2, 0, '1101', '1201').rows;
    const missing = await refusal(content(station, 'columns.csv', await csvBytes(station, 'columns.csv', rows, header.filter((column) => column !== 'deliveryCity' && column !== 'deliveryStreet'))));
    expect(missing).toMatchObject({ code: 'UPLOAD_COLUMNS_MISSING', details: ['deliveryStreet', 'deliveryCity'], facts: { subject: 'listed', columns: 'deliveryStreet, deliveryCity', count: 2 } });
    expect(await station.call('upload.list', {})).toEqual([]);
  });

  it('refs that differ only by a zero-width space, a word joiner or case are one ref: one order is created, not three', async () => {
    bench = await createPrintingStation(sandbox, zebraPort, {}, {}, 'test');
    const station = bench;
    const base = goodRow('LOOK', 1, '1101');
    const rows = [base, { ...base, orderRef: `LOOK-\u200B00001`, deliveryNumber: '2' }, { ...base, orderRef: `LOOK-00001\u2060`, deliveryNumber: '3' }, { ...base, orderRef: 'look-00001', deliveryNumber: '4' }];
    const preview = await content(station, 'look-alikes.csv', await csvBytes(station, 'look-alikes.csv', rows));
    // Before: three rows were ready, and three orders were created for one ref.
    expect(preview.status.counts).toMatchObject({ total: 4, ready: 1, invalid: 3 });
    const problems = preview.rows.map((row) => [row.row, row.problems.map((problem) => problem.code)]);
    expect(problems).toEqual([
      // The invisible character, and the ref it hides is row 2's.
      [3, ['cell', 'duplicate']],
      [4, ['cell', 'duplicate']],
      [5, ['duplicate']],
    ]);
    await station.call('upload.start', { uploadId: preview.status.uploadId });
    await station.station.services.uploads.settled(preview.status.uploadId);
    const created = [...(await sandboxOrdersByRef(sandbox, 'LOOK')).values(), ...(await sandboxOrdersByRef(sandbox, 'look')).values()].flat();
    expect(created).toHaveLength(1);
  });

  it('an orderRef created before at another location is skipped with both locations; at the same location it is plainly "already created"', async () => {
    bench = await createPrintingStation(sandbox, zebraPort, {}, {}, 'test');
    const station = bench;
    const first = [goodRow('ELSE', 1, '1101'), goodRow('ELSE', 2, '1101')];
    const created = await content(station, 'first.csv', await csvBytes(station, 'first.csv', first));
    await station.call('upload.start', { uploadId: created.status.uploadId });
    await station.station.services.uploads.settled(created.status.uploadId);

    // The same two orderRefs again, the first now naming the company's other location (Venlo).
    const second = [{ ...goodRow('ELSE', 1, '1102'), deliveryPostalCode: '5928 PR', deliveryCity: 'Venlo' }, goodRow('ELSE', 2, '1101')];
    const preview = await content(station, 'second.csv', await csvBytes(station, 'second.csv', second), ['1101', '1102']);
    expect(preview.status.counts).toMatchObject({ total: 2, ready: 0, skipped: 2 });
    const byRef = new Map(preview.rows.map((row) => [row.orderRef, row]));
    expect(byRef.get('ELSE-00001')?.skip).toMatchObject({ code: 'created-before', locationId: '1101', rowLocationId: '1102' });
    expect(byRef.get('ELSE-00002')?.skip).toMatchObject({ code: 'created-before', locationId: '1101', rowLocationId: '1101' });

    const uploadId = preview.status.uploadId;
    await station.call('upload.start', { uploadId });
    await station.station.services.uploads.settled(uploadId);
    const report = await station.call<{ base64: string }>('upload.report', { uploadId });
    const path = join(station.dataDir, 'second-report.xlsx');
    writeFileSync(path, Buffer.from(report.base64, 'base64'));
    const skipped = (await readReport(path)).get('Skipped Rows')!.rows;
    expect(skipped.map((row) => [row.orderRef, row.reason])).toEqual([
      ['ELSE-00001', 'already created at location 1101; this row names location 1102'],
      ['ELSE-00002', 'already created'],
    ]);
    // The stricter key holds: each orderRef exists once at the service.
    expect([...(await sandboxOrdersByRef(sandbox, 'ELSE')).values()].map((ids) => ids.length)).toEqual([1, 1]);
  });

  it('the CLI’s preview names the rows created before at another location, in English', async () => {
    const dataDir = await stationFolder(sandbox, 'elsewhere-cli');
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const cli = (...argv: string[]) => runCliIn(dataDir, { keyStore: memoryKeyStore({ test: stationKeys(sandbox) }) }, argv);
    const first = join(dataDir, 'first.csv');
    writeCsv(first, [goodRow('CLIELSE', 1, '1101')]);
    expect((await cli('upload', first, '--location', '1101', '--report', join(dataDir, 'first-report.xlsx'))).code).toBe(0);
    const second = join(dataDir, 'second.csv');
    writeCsv(second, [{ ...goodRow('CLIELSE', 1, '1102'), deliveryPostalCode: '5928 PR', deliveryCity: 'Venlo' }]);
    const preview = await cli('upload', second, '--location', '1101', '--location', '1102', '--preview');
    expect(preview.stdout).toContain('row 2 (CLIELSE-00001): skipped, already created at location 1101; this row names location 1102');
  });
});
