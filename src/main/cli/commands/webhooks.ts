import type { WebhookReceiverStatus } from '../../orders/webhook-receiver';
import { expectOnly, numberOption, option } from '../args';
import { exitCodes, UsageError, type CliCommand } from '../command';

export const webhooksCommand: CliCommand = {
  name: 'webhooks',
  summary: "Run the webhook receiver in this terminal until Ctrl+C",
  usage: 'webhooks serve [--host <address>] [--port <n>]\n  address and port default to the settings (127.0.0.1:8787); the setting that keeps the receiver on in the app is not changed',
  valueOptions: ['host', 'port'],
  async run(context) {
    const [action, ...rest] = context.args.positionals;
    if (action !== 'serve' || rest.length > 0) throw new UsageError('The webhooks command has one action: serve.');
    expectOnly(context.args, { options: ['host', 'port'] });
    const port = numberOption(context.args, 'port');
    if (port !== undefined && (port < 0 || port > 65535)) throw new UsageError('--port should be 0 to 65535.');
    const station = await context.openStation();
    const receiver = station.services.webhooks;
    let status: WebhookReceiverStatus;
    try {
      status = await receiver.open({ host: option(context.args, 'host'), port });
    } catch (error) {
      context.warn(error instanceof Error ? error.message : String(error));
      return exitCodes.failed;
    }
    const hostInUrl = status.host.includes(':') ? `[${status.host}]` : status.host;
    context.print(`Webhook receiver listening on ${hostInUrl}:${status.port}. Register these addresses with the service operator:`);
    for (const { environment, path } of status.paths) context.print(`  ${environment.padEnd(8)}http://${hostInUrl}:${status.port}${path}`);
    context.print('Press Ctrl+C to stop.');
    await context.stopped();
    await receiver.drained();
    const final = receiver.status();
    context.print(`Stopped. ${final.requests.accepted} events accepted (${final.events.applied} applied, ${final.events.duplicates} duplicates, ${final.events.ignoredBackward + final.events.ignoredTerminal} ignored as old news), ${final.requests.rejected} requests rejected.`);
    return exitCodes.ok;
  },
};
