import { z } from 'zod';
import { healthPath, type WebhookReceiverStatus } from '../../orders/webhook-receiver';
import { expectOnly, numberOption, option } from '../args';
import { exitCodes, UsageError, type CliCommand, type CliContext } from '../command';
import { openSharedStore, storePasswordVariable } from '../../store';
import { errorText } from '../../../shared/error-text';

const TlsModeSchema = z.enum(['disable', 'require', 'verify-full']);

export const webhooksCommand: CliCommand = {
  name: 'webhooks',
  summary: 'Run the webhook receiver in this terminal (or as a warehouse service) until stopped',
  usage: [
    'webhooks serve [--host <address>] [--port <n>] [--show-addresses]',
    '  --show-addresses prints the addresses to register (they hold the secret path); without it they are not printed',
    '  address and port default to the settings (127.0.0.1:8787); the setting that keeps the receiver on in the app is not changed',
    'webhooks serve --store postgres://user@host:port/database[?sslmode=verify-full&sslrootcert=<ca.pem>] [--tls disable|require|verify-full] [--ca <ca.pem>] [--unverified-server] [--host <address>] [--port <n>]',
    `  the warehouse's one receiver: events go into the shared store (migrated on start); the password comes from ${storePasswordVariable} or the OS keychain`,
  ].join('\n'),
  valueOptions: ['host', 'port', 'store', 'tls', 'ca'],
  async run(context) {
    const [action, ...rest] = context.args.positionals;
    if (action !== 'serve' || rest.length > 0) throw new UsageError('The webhooks command has one action: serve.');
    expectOnly(context.args, { options: ['host', 'port', 'store', 'tls', 'ca'], flags: ['unverified-server', 'show-addresses'] });
    const port = numberOption(context.args, 'port');
    if (port !== undefined && (port < 0 || port > 65535)) throw new UsageError('--port should be 0 to 65535.');
    const storeAddress = option(context.args, 'store');
    const tlsText = option(context.args, 'tls');
    const tls = tlsText === undefined ? undefined : TlsModeSchema.safeParse(tlsText);
    if (tls && !tls.success) throw new UsageError('--tls should be disable, require or verify-full.');
    if (storeAddress === undefined && (tls !== undefined || option(context.args, 'ca') !== undefined)) throw new UsageError('--tls and --ca go with --store.');

    // The warehouse's one receiver: an error no request caught is logged and counted, never the end of it.
    const strayErrors = context.keepServingAfterStrayErrors();
    const store = storeAddress === undefined ? undefined : await openStore(context, storeAddress, tls?.data);
    if (store === null) return exitCodes.failed;
    const station = await context.openStation({ ...(store ? { store } : {}), strayErrors });
    const receiver = station.host.webhookReceiver;
    let status: WebhookReceiverStatus;
    try {
      status = await receiver.open({ host: option(context.args, 'host'), port });
    } catch (error) {
      context.warn(errorText(error));
      return exitCodes.failed;
    }
    const hostInUrl = status.host.includes(':') ? `[${status.host}]` : status.host;
    // The addresses carry the path secret: printed only when asked, so a service's journal does not keep them.
    if (context.args.flags.has('show-addresses')) {
      context.print(`Webhook receiver listening on ${hostInUrl}:${status.port}. Register these addresses with the service operator:`);
      for (const { environment, path } of status.paths) context.print(`  ${environment.padEnd(8)}http://${hostInUrl}:${status.port}${path}`);
    } else {
      context.print(`Webhook receiver listening on ${hostInUrl}:${status.port} for ${status.paths.map((entry) => entry.environment).join(', ')}.`);
      context.print('The addresses to register with the service operator hold a secret: run once with --show-addresses to see them.');
    }
    context.print(`Its health, from this machine: http://${hostInUrl === '0.0.0.0' || hostInUrl === '[::]' ? '127.0.0.1' : hostInUrl}:${status.port}${healthPath}`);
    context.print('Press Ctrl+C to stop.');
    await context.stopped();
    await receiver.close();
    await receiver.drained();
    const final = receiver.status();
    context.print(`Stopped. ${final.requests.accepted} events accepted (${final.events.applied} applied, ${final.events.duplicates} duplicates, ${final.events.ignoredBackward + final.events.ignoredTerminal} ignored as old news), ${final.requests.rejected} requests rejected.`);
    return exitCodes.ok;
  },
};

/** The shared store, migrated; null (after saying why) when it cannot be opened. */
async function openStore(context: CliContext, address: string, tls: 'disable' | 'require' | 'verify-full' | undefined) {
  try {
    const acceptUnverifiedServer = context.args.flags.has('unverified-server');
    if (acceptUnverifiedServer) context.warn('Warning: with sslmode require or disable the receiver does not check who answers at the store\'s address; whoever does receives the password.');
    const opened = await openSharedStore({
      address,
      tls,
      caFile: option(context.args, 'ca'),
      acceptUnverifiedServer,
      env: context.env,
      keychainService: context.keychainService,
      applicationName: 'packing-station webhooks',
    });
    context.afterStation(() => opened.engine.close());
    const { host, port: storePort, database, user } = opened.address;
    context.print(`Shared store ${user}@${host}:${storePort}/${database} open and up to date (password from the ${opened.passwordFrom}).`);
    return opened.engine;
  } catch (error) {
    context.warn(errorText(error));
    return null;
  }
}
