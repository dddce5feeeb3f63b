import type { JournalEntryData, PrintOutcomeData, SecondCopyData } from '../../../shared/contract/printing';
import { expectOnly, numberOption, option } from '../args';
import { exitCodes, UsageError, type CliCommand, type CliContext } from '../command';
import { json } from '../output';
import { openCalls, type StationCalls } from '../station-calls';
import { printerIdFrom } from './printer-choice';

const DEFAULT_WAIT_LIMIT_S = 300;

export const printCommand: CliCommand = {
  name: 'print',
  summary: 'Print the label of a scanned order (an order printed before, here or elsewhere, asks for --reprint); waits while the printer has a fault',
  usage: [
    'print <scan> [--printer <id|name>] [--reprint <reason>] [--override <reason>] [--operator <name>] [--json]',
    '  --printer    the printer to use (default: the printer for single labels)',
    "  --reprint    print an order printed before (here, or elsewhere by the service's word); the reason goes into the journal",
    '  --override   a lead prints a label for a delivered, returned, lost or cancelled order; the reason goes into the journal',
    '  --operator   who asks (default: the operator in the settings)',
    '  --json       the outcome as JSON, once the label is settled (printed, failed or uncertain) as without --json',
    `  --wait-limit longest wait in seconds for the printer to show the label printed, or for a fault to clear (default ${DEFAULT_WAIT_LIMIT_S})`,
    'The command ends when the printer has shown the label printed (exit 0), or its fate is otherwise settled (exit 1).',
    'At the wait limit, or on Ctrl+C, a label already in the printer is left as sent and the command says so (exit 3).',
  ].join('\n'),
  valueOptions: ['printer', 'reprint', 'override', 'operator', 'wait-limit'],
  async run(context) {
    expectOnly(context.args, { flags: ['json'], options: ['printer', 'reprint', 'override', 'operator', 'wait-limit'] });
    const waitLimitS = numberOption(context.args, 'wait-limit') ?? DEFAULT_WAIT_LIMIT_S;
    if (!(waitLimitS > 0)) throw new UsageError('--wait-limit is a number of seconds above 0.');
    const [scan, ...rest] = context.args.positionals;
    if (scan === undefined || rest.length > 0) throw new UsageError('Give exactly one scan (quote it if it has spaces).');
    const calls = await openCalls(context);
    const printerId = await printerIdFrom(calls, option(context.args, 'printer'));
    const operator = option(context.args, 'operator');
    const reprint = option(context.args, 'reprint');
    const override = option(context.args, 'override');
    const input = {
      scan,
      ...(printerId !== undefined ? { printerId } : {}),
      ...(reprint !== undefined ? { reprint: { reason: reprint, ...(operator !== undefined ? { operator } : {}) } } : {}),
      ...(override !== undefined ? { override: { reason: override, ...(operator !== undefined ? { operator } : {}) } } : {}),
    };
    const outcome = await calls.call('printing.print', input);
    if (!outcome) return exitCodes.failed;
    // Stopped by Ctrl+C, or the wait limit passed: whichever comes first.
    const stop = Promise.race([context.stopped(), new Promise<void>((resolve) => setTimeout(resolve, waitLimitS * 1000).unref())]);
    if (context.args.flags.has('json')) return printJson(context, calls, outcome, stop);
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
    if (outcome.outcome === 'waiting') return waitForPrinter(context, calls, outcome, name, stop);
    context.print(`Printed ${name} on ${outcome.printer.name} in ${Math.round(outcome.elapsedMs)} ms (journal entry ${outcome.entry.id}${outcome.reprint ? ', a reprint' : ''}).`);
    if (!outcome.proofFollows) {
      context.warn(`${outcome.printer.name} is reached through a print queue that cannot be asked: the journal keeps the label as sent, not printed.`);
      return exitCodes.ok;
    }
    // The printer has the label; the command stays until the printer shows it printed, so the
    // journal says so (leaving earlier would leave it unproven, and uncertain).
    const proven = await settledEntry(calls, outcome.entry, stop);
    if (proven === null) {
      context.warn(`Stopped before ${outcome.printer.name} showed ${name} printed: the journal lists it as uncertain; say whether it came out (journal entry ${outcome.entry.id}).`);
      return exitCodes.unsettled;
    }
    if (proven.secondCopy) context.warn(secondCopyWords(name, proven.secondCopy));
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
async function waitForPrinter(context: CliContext, calls: StationCalls, outcome: Waiting, name: string, stop: Promise<void>): Promise<number> {
  context.warn(`Waiting for the printer ${outcome.printer.name}: ${outcome.sentence} ${name} prints when it is ready; press Ctrl+C to cancel it.`);
  const result = await settledEntry(calls, outcome.entry, stop);
  if (result === null) {
    await calls.result('printing.cancel', { runId: outcome.runId });
    const run = await calls.result('printing.run', { runId: outcome.runId });
    const latest = run.ok ? run.value.entries.find((entry) => entry.id === outcome.entry.id) : undefined;
    if (latest?.state !== 'failed') {
      context.warn(`${name} was already in the printer when you cancelled: it prints once the fault is cleared (journal entry ${outcome.entry.id}).`);
      return exitCodes.unsettled;
    }
    context.warn(`Cancelled: ${name} was not printed (journal entry ${outcome.entry.id}).`);
    return exitCodes.failed;
  }
  if (result.secondCopy) context.warn(secondCopyWords(name, result.secondCopy));
  if (result.state === 'printed') {
    context.print(`Printed ${name} on ${outcome.printer.name} once the printer was ready (journal entry ${result.id}).`);
    return exitCodes.ok;
  }
  context.warn(`${name} did not print: ${result.reason ?? result.state} (journal entry ${result.id}).`);
  return exitCodes.failed;
}

/**
 * --json: the same wait as the words, then one JSON object: the outcome with `entry` as the
 * journal has it at the end, and `settled` (false when the wait limit or Ctrl+C came first). A
 * script that reads it never leaves a label the printer had taken to be read as uncertain at the
 * next start because the command left before the proof came.
 */
async function printJson(context: CliContext, calls: StationCalls, outcome: PrintOutcomeData, stop: Promise<void>): Promise<number> {
  if (outcome.outcome === 'duplicate' || outcome.outcome === 'elsewhere' || (outcome.outcome === 'printed' && !outcome.proofFollows)) {
    context.print(json({ ...outcome, settled: true }));
    return outcome.outcome === 'printed' ? exitCodes.ok : exitCodes.failed;
  }
  let final = await settledEntry(calls, outcome.entry, stop);
  if (final === null && outcome.outcome === 'waiting') {
    // Not yet in the printer: the label is cancelled rather than left to print out of the blue.
    await calls.result('printing.cancel', { runId: outcome.runId });
    final = (await currentEntry(calls, outcome.entry)) ?? null;
    if (final?.state === 'failed') {
      context.print(json({ ...outcome, entry: final, settled: true }));
      return exitCodes.failed;
    }
  }
  if (final === null || final.state === 'sent' || final.state === 'queued' || final.state === 'fetched') {
    context.print(json({ ...outcome, entry: final ?? (await currentEntry(calls, outcome.entry)) ?? outcome.entry, settled: false }));
    return exitCodes.unsettled;
  }
  context.print(json({ ...outcome, entry: final, settled: true }));
  return final.state === 'printed' ? exitCodes.ok : exitCodes.failed;
}

async function currentEntry(calls: StationCalls, label: JournalEntryData): Promise<JournalEntryData | undefined> {
  const journal = await calls.result('printing.journal', label.orderId ? { orderId: label.orderId } : {});
  return journal.ok ? journal.value.entries.find((entry) => entry.id === label.id) : undefined;
}

/** What the packer is told about a label the printer may have put out twice. */
export function secondCopyWords(name: string, secondCopy: SecondCopyData): string {
  const fault = { 'paper-out': 'ran out of labels', 'head-open': 'had its printhead opened', 'ribbon-out': 'ran out of ribbon' }[secondCopy.fault];
  return secondCopy.certainty === 'certain'
    ? `The printer ${fault} while printing ${name} and printed it again once it could: two labels of ${name} came out, the first one cut short. Put one whole label on the parcel and throw the other away.`
    : `The printer ${fault} while printing ${name} and may have printed it twice. If two labels of ${name} came out, put one whole label on the parcel and throw the other away.`;
}

/** The label once its fate is settled (printed, failed or uncertain), or null when the command is stopped first. */
async function settledEntry(calls: StationCalls, label: JournalEntryData, stopped: Promise<unknown>): Promise<JournalEntryData | null> {
  const entryId = label.id;
  const unsettled = (entry: JournalEntryData) => entry.state === 'queued' || entry.state === 'fetched' || entry.state === 'sent';
  let unsubscribe = (): void => undefined;
  const settled = new Promise<JournalEntryData>((resolve) => {
    unsubscribe = calls.on('printing.label', (entry) => {
      if (entry.id === entryId && !unsettled(entry)) resolve(entry);
    });
  });
  // It may have settled before the subscription.
  const known = await currentEntry(calls, label);
  try {
    if (known && !unsettled(known)) return known;
    return await Promise.race([settled, stopped.then(() => null)]);
  } finally {
    unsubscribe();
  }
}
