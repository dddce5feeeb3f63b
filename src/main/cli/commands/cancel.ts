import { expectOnly, option } from '../args';
import { exitCodes, UsageError, type CliCommand } from '../command';
import { json } from '../output';
import { openCalls } from '../station-calls';

export const cancelCommand: CliCommand = {
  name: 'cancel',
  summary: 'Have the service cancel an order (or its whole bundle) and void its label',
  usage:
    'cancel <scan> --reason <why> --operator <name> [--bundle] [--confirm LIVE] [--json]\n' +
    '  --reason    why it is cancelled (kept with the order and its label)\n' +
    '  --operator  who cancels it\n' +
    '  --bundle    cancel every order of the scanned order\'s bundle (or of <scan> as a bundle id)\n' +
    '  --confirm   LIVE, required when the station is on the live environment\n' +
    '  --json      the answer as JSON',
  valueOptions: ['reason', 'operator', 'confirm'],
  async run(context) {
    expectOnly(context.args, { flags: ['bundle', 'json'], options: ['reason', 'operator', 'confirm'] });
    const [scan, ...rest] = context.args.positionals;
    if (scan === undefined || rest.length > 0) throw new UsageError('Give exactly one scan (quote it if it has spaces).');
    const reason = option(context.args, 'reason')?.trim();
    const operator = option(context.args, 'operator')?.trim();
    if (!reason) throw new UsageError('Say why with --reason.');
    if (!operator) throw new UsageError('Say who cancels with --operator.');
    const confirm = option(context.args, 'confirm');
    const input = { scan, reason, operator, ...(confirm !== undefined ? { confirm } : {}) };
    const calls = await openCalls(context);
    const result = context.args.flags.has('bundle') ? await calls.call('supervision.cancelBundle', input) : await calls.call('supervision.cancel', input);
    if (!result) return exitCodes.failed;
    if (context.args.flags.has('json')) {
      context.print(json(result));
      return exitCodes.ok;
    }
    const outcomes = 'results' in result ? result.results : [result];
    if ('results' in result) context.print(`Bundle ${result.bundleId}: ${outcomes.length} orders`);
    for (const outcome of outcomes) {
      const name = outcome.orderRef ? `${outcome.orderRef} (order ${outcome.orderId})` : `Order ${outcome.orderId}`;
      if (outcome.outcome === 'cancelled') context.print(`${name}: cancelled; ${outcome.labelsVoided} label(s) voided. Keep the parcel off the pallet.`);
      else if (outcome.outcome === 'already') context.print(`${name}: was already cancelled from this station.`);
      else context.print(`${name}: NOT cancelled (last known status ${outcome.status ?? 'unknown'}): ${outcome.message ?? 'the service gave no reason'}`);
    }
    return outcomes.some((outcome) => outcome.outcome === 'refused') ? exitCodes.failed : exitCodes.ok;
  },
};
