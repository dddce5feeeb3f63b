import { expectOnly } from '../args';
import { exitCodes, UsageError, type CliCommand } from '../command';
import { json } from '../output';
import { openCalls } from '../station-calls';

export const lookupCommand: CliCommand = {
  name: 'lookup',
  summary: 'Resolve a scan (order ref, parcel barcode or order id) to its order',
  usage: 'lookup <scan> [--local] [--json]\n  --local   only the order index: no direct try against the Delivery API\n  --json    the answer as JSON',
  async run(context) {
    expectOnly(context.args, { flags: ['local', 'json'] });
    const [scan, ...rest] = context.args.positionals;
    if (scan === undefined || rest.length > 0) throw new UsageError('Give exactly one scan (quote it if it has spaces).');
    const result = await (await openCalls(context)).call('orders.lookup', { scan, remote: !context.args.flags.has('local') });
    if (!result) return exitCodes.failed;
    if (context.args.flags.has('json')) {
      context.print(json(result));
      return exitCodes.ok;
    }
    const { order } = result;
    context.print(`Order ${order.orderId} (${order.environment}, matched by ${result.matchedBy.join(' and ')})`);
    const rows: [string, string | null][] = [
      ['ref', order.orderRef],
      ['barcode', order.barcode],
      ['bundle', order.bundleId],
      ['recipient', order.recipient],
      ['status', order.status ?? 'not known'],
    ];
    for (const [name, value] of rows) if (value !== null) context.print(`  ${name.padEnd(10)}${value}`);
    context.print(result.printable.allowed ? '  printable yes' : `  printable NO: ${result.printable.message ?? ''}`);
    return exitCodes.ok;
  },
};
