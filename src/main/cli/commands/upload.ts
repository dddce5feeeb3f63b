/**
 * Spreadsheet upload from a terminal, on the same calls as the screen: the preview first (rows
 * ready, with errors and why, skipped and why), then the creation with a progress line, the
 * result as the dashboard names it, the report workbook and optionally the labels (one PDF, or
 * printed as a normal print run). Ctrl+C pauses the upload; `upload --resume` carries on.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join, parse, resolve } from 'node:path';
import type { CallInput, CallName, CallOutput } from '../../../shared/contract';
import type { RunSummaryData } from '../../../shared/contract/printing';
import type { UploadPreview, UploadResult, UploadStatus } from '../../../shared/contract/upload';
import { problemInWords, skipInWords } from '../../shipping/upload-rows';
import { expectOnly, option } from '../args';
import { exitCodes, UsageError, type CliCommand, type CliContext } from '../command';
import { json } from '../output';
import { openCalls, stationCalls } from '../station-calls';
import { printerIdFrom } from './printer-choice';

const resultWords: Record<UploadResult, string> = { completed: 'Completed', 'completed-with-errors': 'Completed with errors', failed: 'Failed' };
const shownProblems = 20;

async function call<K extends CallName>(context: CliContext, name: K, input: CallInput<K>): Promise<CallOutput<K> | null> {
  return (await openCalls(context)).call(name, input);
}

function previewLines(preview: UploadPreview): string[] {
  const { status } = preview;
  const { counts, skipReasons } = status;
  const lines = [
    `${status.fileName}: ${counts.total} rows — ${counts.ready} ready, ${counts.invalid} with errors, ${counts.skipped} skipped; ${status.batches.length} batch${status.batches.length === 1 ? '' : 'es'} of at most 1,000.`,
  ];
  if (counts.skipped > 0) {
    lines.push(
      `  skipped: ${skipReasons.createdBefore} already created, ${skipReasons.unknownBefore} sent before with an unknown outcome, ${skipReasons.repeatedInFile} repeated in this file, ${skipReasons.inProgress} being created elsewhere`,
    );
  }
  const withErrors = preview.rows.filter((row) => row.state === 'invalid');
  for (const row of withErrors.slice(0, shownProblems)) lines.push(`  row ${row.row}${row.orderRef ? ` (${row.orderRef})` : ''}: ${row.problems.map(problemInWords).join('; ')}`);
  if (counts.invalid > shownProblems) lines.push(`  … and ${counts.invalid - shownProblems} more rows with errors (the report lists every one).`);
  // Created before for another location: the ledger keys on orderRef alone, so say where.
  const elsewhere = preview.rows.filter((row) => row.skip?.code === 'created-before' && row.skip.locationId && row.skip.rowLocationId && row.skip.locationId !== row.skip.rowLocationId);
  for (const row of elsewhere.slice(0, shownProblems)) lines.push(`  row ${row.row}${row.orderRef ? ` (${row.orderRef})` : ''}: skipped, ${skipInWords(row.skip!)}`);
  return lines;
}

const progressLine = (status: UploadStatus): string => {
  const batch = status.batches.find((entry) => entry.result === null) ?? status.batches.at(-1);
  return (
    `Upload ${status.uploadId}: processed ${status.processed}/${status.processable}, successful ${status.successful}, failed ${status.counts.failed + status.counts.unknown}` +
    `${batch ? `, batch ${batch.batch}/${status.batches.length}` : ''}, ${status.ratePerSecond.toFixed(1)} rows/s`
  );
};

export const uploadCommand: CliCommand = {
  name: 'upload',
  summary: 'Create orders from a spreadsheet (.xlsx, .xls, .csv): preview, then create in batches, safe to run twice',
  usage: [
    'upload <file> --location ID [--location ID]... [--print PRINTER] [--labels-pdf out.pdf] [--report out.xlsx] [--preview] [--json]',
    'upload --resume [uploadId] [--print PRINTER] [--labels-pdf out.pdf] [--report out.xlsx] [--json]',
    'upload --status [uploadId] [--json]',
    'upload --cancel <uploadId>',
    '  --location     a location of your company the rows may name (give each one)',
    '  --print        print the labels of the created orders on this printer, as one print run',
    '  --labels-pdf   write one PDF of the labels of the created orders',
    '  --report       where the report workbook goes (default: next to the file)',
    '  --preview      check the rows and show the preview; send nothing',
    '  --resume       carry on with an upload that was paused or interrupted (the latest when no id is given)',
  ].join('\n'),
  valueOptions: ['location', 'print', 'labels-pdf', 'report', 'cancel'],
  async run(context) {
    expectOnly(context.args, { flags: ['json', 'preview', 'resume', 'status'], options: ['location', 'print', 'labels-pdf', 'report', 'cancel'] });
    const flags = context.args.flags;
    const asJson = flags.has('json');
    const [first, ...rest] = context.args.positionals;
    if (rest.length > 0) throw new UsageError('Give one file (or one upload id).');

    const cancelId = option(context.args, 'cancel');
    if (cancelId !== undefined) {
      const status = await call(context, 'upload.cancel', { uploadId: cancelId });
      if (!status) return exitCodes.failed;
      context.print(asJson ? json(status) : `Upload ${status.uploadId} cancelled: ${status.counts.cancelled} rows not sent.`);
      return exitCodes.ok;
    }
    if (flags.has('status')) {
      const status = await call(context, 'upload.status', first !== undefined ? { uploadId: first } : {});
      if (status === null) return exitCodes.failed;
      context.print(asJson ? json(status) : status ? `${progressLine(status)} — ${status.state}${status.result ? `, ${resultWords[status.result]}` : ''}` : 'No upload yet.');
      return exitCodes.ok;
    }

    const station = await context.openStation();
    const calls = stationCalls(context, station);
    const printerId = await printerIdFrom(calls, option(context.args, 'print'));
    let uploadId: string;
    let reportBase: string;
    if (flags.has('resume')) {
      const status = await call(context, 'upload.status', first !== undefined ? { uploadId: first } : {});
      if (!status) {
        if (status === null && first === undefined) context.warn('There is no upload to resume.');
        return exitCodes.failed;
      }
      uploadId = status.uploadId;
      reportBase = join(process.cwd(), parse(status.fileName).name);
    } else {
      if (first === undefined) throw new UsageError('Give the spreadsheet to upload.');
      const locations = context.args.options.get('location') ?? [];
      if (locations.length === 0) throw new UsageError('Give --location with each location of your company the rows may name.');
      const path = resolve(first);
      const preview = await call(context, 'upload.prepare', { source: { kind: 'picked', handle: station.host.pickFile(path) }, locations });
      if (!preview) return exitCodes.failed;
      for (const line of previewLines(preview)) (asJson ? context.warn : context.print)(line);
      if (flags.has('preview')) {
        if (asJson) context.print(json(preview));
        return exitCodes.ok;
      }
      uploadId = preview.status.uploadId;
      reportBase = join(dirname(path), parse(path).name);
    }

    const finishedRuns = new Map<string, RunSummaryData>();
    const interactive = context.io.stderr.isTTY === true;
    let lastLine = 0;
    const stopFollowingRuns = calls.on('printing.finished', (summary) => finishedRuns.set(summary.runId, summary));
    const stopFollowingUpload = calls.on('upload.progress', (status) => {
      if (status.uploadId !== uploadId) return;
      const line = progressLine(status);
      if (interactive) context.io.stderr.write(`\r${line}`);
      else if (Date.now() - lastLine >= 500) {
        lastLine = Date.now();
        context.warn(line);
      }
    });
    try {
      context.warn(`Upload ${uploadId} started.`);
      const started = await call(context, 'upload.start', { uploadId, ...(printerId !== undefined ? { printerId } : {}) });
      if (!started) return exitCodes.failed;
      let interrupted = false;
      await Promise.race([
        station.host.uploadSettled(uploadId),
        context.stopped().then(async () => {
          interrupted = true;
          await call(context, 'upload.pause', { uploadId });
          await station.host.uploadSettled(uploadId);
        }),
      ]);
      if (interactive) context.io.stderr.write('\n');
      const status = await call(context, 'upload.status', { uploadId });
      if (!status) return exitCodes.failed;
      if (interrupted || status.state === 'paused') {
        context.warn(`Upload ${uploadId} is paused after ${status.processed} of ${status.processable} rows; carry on with: upload --resume ${uploadId}`);
        if (asJson) context.print(json({ status }));
        return exitCodes.failed;
      }

      const reportPath = resolve(option(context.args, 'report') ?? `${reportBase} ${uploadId} report.xlsx`);
      const report = await call(context, 'upload.report', { uploadId });
      if (report) await writeFile(reportPath, Buffer.from(report.base64, 'base64'));
      let labelsPath: string | null = null;
      const labelsOption = option(context.args, 'labels-pdf');
      if (labelsOption !== undefined && status.successful > 0) {
        const labels = await call(context, 'upload.labels', { uploadId });
        if (labels) {
          labelsPath = resolve(labelsOption);
          await writeFile(labelsPath, Buffer.from(labels.base64, 'base64'));
          context.warn(`${labels.labels} labels written to ${labelsPath}`);
        }
      }
      let printed: RunSummaryData | null = null;
      if (status.printRunId) {
        const runId = status.printRunId;
        context.warn(`Printing the labels (run ${runId})…`);
        printed =
          finishedRuns.get(runId) ??
          (await Promise.race([
            new Promise<RunSummaryData>((resolveRun) => {
              const stop = calls.on('printing.finished', (summary) => {
                if (summary.runId !== runId) return;
                stop();
                resolveRun(summary);
              });
              const already = finishedRuns.get(runId);
              if (already) {
                stop();
                resolveRun(already);
              }
            }),
            context.stopped().then(() => null),
          ]));
      }

      if (asJson) context.print(json({ status, reportPath: report ? reportPath : null, labelsPath, printRun: printed }));
      else {
        context.print(`${status.result ? resultWords[status.result] : status.state}: ${status.successful} created, ${status.failedTotal} failed (${status.counts.invalid} with errors, ${status.counts.failed} refused by the service, ${status.counts.unknown} of unknown outcome, ${status.counts.cancelled} cancelled), ${status.counts.skipped} skipped.`);
        for (const batch of status.batches) {
          if (status.batches.length > 1) context.print(`  batch ${batch.batch} (rows ${batch.firstRow}–${batch.lastRow}): ${batch.result ? resultWords[batch.result] : 'not finished'}, ${batch.counts.created} created`);
        }
        if (report) context.print(`Report: ${reportPath}`);
        if (printed) context.print(`Labels printed: ${printed.counts.printed} of ${printed.counts.total}.`);
      }
      return status.result === 'completed' ? exitCodes.ok : exitCodes.failed;
    } finally {
      stopFollowingRuns();
      stopFollowingUpload();
    }
  },
};
