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
    if (!outcome.proofFollows) {
      context.warn(`${outcome.printer.name} is reached through a print queue that cannot be asked: the journal keeps the label as sent, not printed.`);
      return exitCodes.ok;
    }
    // The printer has the label; the command stays until the printer shows it printed, so the
    // journal says so (leaving earlier would leave it unproven, and uncertain).
    const proven = await settledEntry(station, outcome.entry, context.stopped());
    if (proven === null) {
      context.warn(`Stopped before ${outcome.printer.name} showed ${name} printed: the journal lists it as uncertain; say whether it came out (journal entry ${outcome.entry.id}).`);
      return exitCodes.failed;
    }
    if (proven.state === 'printed') return exitCodes.ok;
    context.warn(`${name} may not have printed: ${proven.reason ?? proven.state} (journal entry ${proven.id}).`);
    return exitCodes.failed;
  },
};

type Waiting = Extract<PrintOutcomeData, { outcome: 'waiting' }>;

/**
 * The label waits for the printer: say why and what to do, then stay until it reached the printer
 * (or its fate is settled otherwise); Ctrl+C cancels it.
 */
async function waitForPrinter(context: CliContext, station: Station, outcome: Waiting, name: string): Promise<number> {
  context.warn(`Waiting for the printer ${outcome.printer.name}: ${outcome.sentence} ${name} prints when it is ready; press Ctrl+C to cancel it.`);
  const result = await settledEntry(station, outcome.entry, context.stopped());
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

/** The label once its fate is settled (printed, failed or uncertain), or null when the command is stopped first. */
async function settledEntry(station: Station, label: JournalEntryData, stopped: Promise<unknown>): Promise<JournalEntryData | null> {
  const entryId = label.id;
  const unsettled = (entry: JournalEntryData) => entry.state === 'queued' || entry.state === 'fetched' || entry.state === 'sent';
  let unsubscribe = (): void => undefined;
  const settled = new Promise<JournalEntryData>((resolve) => {
    unsubscribe = station.events.subscribe((event, payload) => {
      if (event !== 'printing.label') return;
      const entry = payload as JournalEntryData;
      if (entry.id === entryId && !unsettled(entry)) resolve(entry);
    });
  });
  // It may have settled before the subscription.
  const journal = await station.dispatcher.dispatch('printing.journal', label.orderId ? { orderId: label.orderId } : {}, { host: 'web' });
  const known = journal.ok ? (journal.value as { entries: JournalEntryData[] }).entries.find((entry) => entry.id === entryId) : undefined;
  try {
    if (known && !unsettled(known)) return known;
    return await Promise.race([settled, stopped.then(() => null)]);
  } finally {
    unsubscribe();
  }
}
