import type { JournalEntryData, PrintOutcomeData } from '../../../shared/contract/printing';
import type { Station } from '../../composition';
import { expectOnly, option } from '../args';
import { exitCodes, UsageError, type CliCommand, type CliContext } from '../command';
import { json, valueOf } from '../output';
import { printerIdFrom } from './printer-choice';

export const printCommand: CliCommand = {
  name: 'print',
  summary: 'Print the label of a scanned order (an order printed before, here or elsewhere, asks for --reprint); waits while the printer has a fault',
  usage: [
    'print <scan> [--printer <id|name>] [--reprint <reason>] [--override <reason>] [--operator <name>] [--json]',
    '  --printer    the printer to use (default: the printer for single labels)',
    "  --reprint    print an order printed before (here, or elsewhere by the service's word); the reason goes into the journal",
    '  --override   a lead prints a label for a delivered, returned, lost or cancelled order; the reason goes into the journal',
    '  --operator   who asks (default: the operator in the settings)',
    '  --json       the outcome as JSON',
  ].join('\n'),
  valueOptions: ['printer', 'reprint', 'override', 'operator'],
  async run(context) {
    expectOnly(context.args, { flags: ['json'], options: ['printer', 'reprint', 'override', 'operator'] });
    const [scan, ...rest] = context.args.positionals;
    if (scan === undefined || rest.length > 0) throw new UsageError('Give exactly one scan (quote it if it has spaces).');
    const station = await context.openStation();
    const printerId = await printerIdFrom(station, option(context.args, 'printer'));
    const operator = option(context.args, 'operator');
    const reprint = option(context.args, 'reprint');
    const override = option(context.args, 'override');
    const input = {
      scan,
      ...(printerId !== undefined ? { printerId } : {}),
      ...(reprint !== undefined ? { reprint: { reason: reprint, ...(operator !== undefined ? { operator } : {}) } } : {}),
      ...(override !== undefined ? { override: { reason: override, ...(operator !== undefined ? { operator } : {}) } } : {}),
    };
    const outcome = valueOf<PrintOutcomeData>(context, await station.dispatcher.dispatch('printing.print', input, { host: 'web' }));
    if (!outcome) return exitCodes.failed;
    if (context.args.flags.has('json')) {
      context.print(json(outcome));
      return outcome.outcome === 'printed' ? exitCodes.ok : exitCodes.failed;
    }
    const name = outcome.order.orderRef ?? outcome.order.orderId;
    if (outcome.outcome === 'duplicate') {
      const previous = outcome.previous;
      context.warn(
        `${name} was printed before: ${previous.printedAt} on ${previous.printerName}${previous.operator ? ` by ${previous.operator}` : ''} (journal entry ${previous.entryId}, ${previous.state}). Nothing was printed; use --reprint <reason> to print it again.`,
      );
      return exitCodes.failed;
    }
    if (outcome.outcome === 'elsewhere') {
      context.warn(
        `${name} is known to the service as ${outcome.status}: its label was printed, but not at this station. Nothing was printed; check where the parcel is, and use --reprint <reason> to print it here anyway.`,
      );
      return exitCodes.failed;
    }
    if (outcome.outcome === 'waiting') return waitForPrinter(context, station, outcome, name);
    context.print(`Printed ${name} on ${outcome.printer.name} in ${Math.round(outcome.elapsedMs)} ms (journal entry ${outcome.entry.id}${outcome.reprint ? ', a reprint' : ''}).`);
    if (!outcome.proofFollows) context.warn(`${outcome.printer.name} is reached through a print queue that cannot be asked: the journal keeps the label as sent, not printed.`);
    return exitCodes.ok;
  },
};

type Waiting = Extract<PrintOutcomeData, { outcome: 'waiting' }>;

/**
 * The label waits for the printer: say why and what to do, then stay until it reached the printer
 * (or its fate is settled otherwise); Ctrl+C cancels it.
 */
async function waitForPrinter(context: CliContext, station: Station, outcome: Waiting, name: string): Promise<number> {
  context.warn(`Waiting for the printer ${outcome.printer.name}: ${outcome.sentence} ${name} prints when it is ready; press Ctrl+C to cancel it.`);
  const settled = new Promise<JournalEntryData>((resolve) => {
    const unsubscribe = station.events.subscribe((event, payload) => {
      if (event !== 'printing.label') return;
      const entry = payload as JournalEntryData;
      if (entry.id !== outcome.entry.id || entry.state === 'queued' || entry.state === 'fetched' || entry.state === 'sent') return;
      unsubscribe();
      resolve(entry);
    });
  });
  const result = await Promise.race([settled, context.stopped().then(() => null)]);
  if (result === null) {
    await station.dispatcher.dispatch('printing.cancel', { runId: outcome.runId }, { host: 'web' });
    const run = await station.dispatcher.dispatch('printing.run', { runId: outcome.runId }, { host: 'web' });
    const latest = run.ok ? (run.value as { entries: JournalEntryData[] }).entries.find((entry) => entry.id === outcome.entry.id) : undefined;
    if (latest?.state !== 'failed') {
      context.warn(`${name} was already in the printer when you cancelled: it prints once the fault is cleared (journal entry ${outcome.entry.id}).`);
    } else {
      context.warn(`Cancelled: ${name} was not printed (journal entry ${outcome.entry.id}).`);
    }
    return exitCodes.failed;
  }
  if (result.state === 'printed') {
    context.print(`Printed ${name} on ${outcome.printer.name} once the printer was ready (journal entry ${result.id}).`);
    return exitCodes.ok;
  }
  context.warn(`${name} did not print: ${result.reason ?? result.state} (journal entry ${result.id}).`);
  return exitCodes.failed;
}
