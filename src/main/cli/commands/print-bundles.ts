import type { JournalEntryData, RunProgressData, RunSummaryData } from '../../../shared/contract/printing';
import { expectOnly, option } from '../args';
import { exitCodes, UsageError, type CliCommand, type CliContext } from '../command';
import { json, valueOf } from '../output';
import { printerIdFrom } from './printer-choice';
import { createProgressBar } from './progress-bar';

const shownEntries = 20;

export const printBundlesCommand: CliCommand = {
  name: 'print-bundles',
  summary: 'Print the labels of bundles at shift start, with a progress bar; or resume an unfinished run',
  usage: [
    'print-bundles <bundleId>... [--printer <id|name>] [--reverse] [--reprint <reason>] [--operator <name>] [--json]',
    'print-bundles --resume [<runId>]',
    '  --printer    the printer to use (default: the printer for bundles)',
    '  --reverse    print the whole run back to front, so the printed stack reads in order',
    '  --accept-roll  start although the printer reports a roll the A6 label does not fit',
    '  --reprint    also print orders and bundles printed before; the reason goes into the journal',
    '  --operator   who asks (default: the operator in the settings)',
    '  --resume     carry on with a run the station was stopped in (the only one, or the run id given)',
    '  --json       the end-of-run summary as JSON',
    'Ctrl+C stops the command; the run is kept and --resume carries on without resending.',
  ].join('\n'),
  valueOptions: ['printer', 'reprint', 'operator'],
  async run(context) {
    expectOnly(context.args, { flags: ['reverse', 'resume', 'json', 'accept-roll'], options: ['printer', 'reprint', 'operator'] });
    const resume = context.args.flags.has('resume');
    const positionals = context.args.positionals;
    if (resume && positionals.length > 1) throw new UsageError('--resume takes at most one run id.');
    if (!resume && positionals.length === 0) throw new UsageError('Give one or more bundle ids.');
    const station = await context.openStation();
    const dispatch = (name: string, input: unknown) => station.dispatcher.dispatch(name, input, { host: 'web' });

    let runId: string | null = null;
    const early: { name: string; payload: unknown }[] = [];
    let onEvent: ((name: string, payload: unknown) => void) | null = null;
    const unsubscribe = station.events.subscribe((name, payload) => {
      if (onEvent) onEvent(name, payload);
      else early.push({ name, payload });
    });
    try {
      let summary: RunSummaryData | null;
      if (resume) {
        const listed = valueOf<{ runs: RunSummaryData[] }>(context, await dispatch('printing.runs', { unfinished: true }));
        if (!listed) return exitCodes.failed;
        const wanted = positionals[0];
        const candidates = wanted ? listed.runs.filter((run) => run.runId === wanted) : listed.runs;
        if (candidates.length !== 1) {
          context.warn(
            candidates.length === 0
              ? 'There is no unfinished run to resume.'
              : `There are ${candidates.length} unfinished runs; name one: ${candidates.map((run) => run.runId).join(', ')}`,
          );
          return exitCodes.failed;
        }
        summary = valueOf<RunSummaryData>(context, await dispatch('printing.resume', { runId: candidates[0]?.runId }));
      } else {
        const printerId = await printerIdFrom(station, option(context.args, 'printer'));
        const reprint = option(context.args, 'reprint');
        const operator = option(context.args, 'operator');
        summary = valueOf<RunSummaryData>(
          context,
          await dispatch('printing.printBundles', {
            bundleIds: positionals,
            ...(printerId !== undefined ? { printerId } : {}),
            ...(context.args.flags.has('reverse') ? { reverse: true } : {}),
            ...(context.args.flags.has('accept-roll') ? { acceptRoll: true } : {}),
            ...(reprint !== undefined ? { reprint: { reason: reprint, ...(operator !== undefined ? { operator } : {}) } } : {}),
          }),
        );
      }
      if (!summary) return exitCodes.failed;
      runId = summary.runId;
      describePlan(context, summary);

      const bar = createProgressBar(context, 'Printing');
      const finished = new Promise<RunSummaryData>((resolve) => {
        onEvent = (name, payload) => {
          if (name === 'printing.progress') {
            const progress = payload as RunProgressData;
            if (progress.runId !== runId) return;
            const note = progress.state === 'paused' && progress.pauseReason ? `PAUSED: ${progress.pauseReason.message} ${progress.pauseReason.action}` : undefined;
            bar.update(progress.done, progress.total, note);
          } else if (name === 'printing.finished' && (payload as RunSummaryData).runId === runId) {
            resolve(payload as RunSummaryData);
          }
        };
        for (const event of early.splice(0)) onEvent(event.name, event.payload);
      });
      bar.update(summary.counts.total - summary.counts.queued - summary.counts.fetched, summary.counts.total);
      const ended = await Promise.race([finished, context.stopped().then(() => null)]);
      bar.finish();
      if (!ended) {
        context.warn(`Stopped. Labels already sent are recorded; carry on with: print-bundles --resume ${runId}`);
        return exitCodes.failed;
      }
      if (context.args.flags.has('json')) context.print(json(ended));
      else describeEnd(context, ended);
      return ended.state === 'finished' && ended.counts.failed === 0 && ended.uncertain.length === 0 ? exitCodes.ok : exitCodes.failed;
    } finally {
      unsubscribe();
    }
  },
};

function describePlan(context: CliContext, summary: RunSummaryData): void {
  const routes = new Map<string, number>();
  for (const bundle of summary.bundles) routes.set(bundle.route, (routes.get(bundle.route) ?? 0) + 1);
  const words: Record<string, string> = { 'zpl-per-order': 'native ZPL per order', 'pdf-raster': 'PDF rasterised to ^GFA', pdf: 'PDF to a PDF printer', 'raster-per-order': 'PDF per order rasterised at the printer’s resolution' };
  const parts = [...routes].map(([route, count]) => `${count} as ${words[route] ?? route}`);
  context.warn(
    `Run ${summary.runId}: ${summary.counts.total} labels on ${summary.printerName ?? summary.printerId}${summary.reverse ? ', in reverse' : ''}${parts.length > 0 ? ` (bundles: ${parts.join(', ')})` : ''}.`,
  );
  for (const bundle of summary.bundles) if (bundle.route === 'pdf-raster') context.warn(`  ${bundle.bundleId}: ${bundle.note}`);
  for (const skipped of summary.skipped.slice(0, shownEntries)) context.warn(`  left out: ${skipped.message}`);
  if (summary.skipped.length > shownEntries) context.warn(`  … and ${summary.skipped.length - shownEntries} more left out.`);
}

function describeEnd(context: CliContext, summary: RunSummaryData): void {
  const { counts } = summary;
  const seconds = summary.finishedAt ? (Date.parse(summary.finishedAt) - Date.parse(summary.createdAt)) / 1000 : null;
  context.print(
    `Run ${summary.runId} ${summary.state}: ${counts.printed} printed, ${counts.sent} sent, ${summary.uncertain.length} uncertain, ${counts.failed} failed of ${counts.total}${seconds !== null ? ` (${seconds.toFixed(1)} s since it was started)` : ''}.`,
  );
  const list = (title: string, entries: JournalEntryData[], hint: string) => {
    if (entries.length === 0) return;
    context.print(`${title}:`);
    for (const entry of entries.slice(0, shownEntries)) {
      const what = entry.orderRef ?? entry.orderId ?? `${entry.bundleId ?? '?'} page ${entry.bundlePosition ?? '?'}`;
      context.print(`  #${entry.id} ${what}${entry.bundleId ? ` (${entry.bundlePosition ?? '?'} of ${entry.bundleCount ?? '?'} in ${entry.bundleId})` : ''}: ${entry.reason ?? ''}`);
    }
    if (entries.length > shownEntries) context.print(`  … and ${entries.length - shownEntries} more.`);
    context.print(hint);
  };
  list('Uncertain (check whether these came out)', summary.uncertain, 'Decide each in the app (printed / print again); the journal keeps them uncertain until then.');
  list('Failed', summary.failed, `Print them again with the app's "retry failed", or run the bundles again.`);
  if (summary.secondCopies.length > 0) {
    context.print('Printed twice by the printer after a fault (paper out, ribbon out or head open cut the label short and the printer printed it again):');
    for (const entry of summary.secondCopies.slice(0, shownEntries)) {
      const what = entry.orderRef ?? entry.orderId ?? `${entry.bundleId ?? '?'} page ${entry.bundlePosition ?? '?'}`;
      context.print(`  #${entry.id} ${what}: ${entry.secondCopy?.certainty === 'certain' ? 'two labels came out' : 'two labels may have come out'} (${entry.secondCopy?.fault ?? '?'})`);
    }
    if (summary.secondCopies.length > shownEntries) context.print(`  … and ${summary.secondCopies.length - shownEntries} more.`);
    context.print('Make sure each of these parcels carries one whole label; throw the extra one away.');
  }
}
