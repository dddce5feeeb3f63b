import type { PrintOutcomeData } from '../../../shared/contract/printing';
import { expectOnly, option } from '../args';
import { exitCodes, UsageError, type CliCommand } from '../command';
import { json, valueOf } from '../output';
import { printerIdFrom } from './printer-choice';

export const printCommand: CliCommand = {
  name: 'print',
  summary: 'Print the label of a scanned order (the duplicate guard asks for --reprint)',
  usage: [
    'print <scan> [--printer <id|name>] [--reprint <reason>] [--override <reason>] [--operator <name>] [--json]',
    '  --printer    the printer to use (default: the printer for single labels)',
    '  --reprint    print an order printed before; the reason goes into the journal',
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
    const printerId = printerIdFrom(station, option(context.args, 'printer'));
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
    context.print(`Printed ${name} on ${outcome.printer.name} in ${Math.round(outcome.elapsedMs)} ms (journal entry ${outcome.entry.id}${outcome.reprint ? ', a reprint' : ''}).`);
    if (outcome.printerFault) context.warn(`The printer has the label but reports: ${outcome.printerFault.message} ${outcome.printerFault.action}`);
    return exitCodes.ok;
  },
};
