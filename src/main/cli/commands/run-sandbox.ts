import { createEmbeddedSandbox } from '../../embedded-sandbox';
import { expectOnly, numberOption, option } from '../args';
import { exitCodes, type CliCommand } from '../command';

export const sandboxCommand: CliCommand = {
  name: 'sandbox',
  summary: 'Start the embedded sandbox (Delivery API, control API, virtual Zebra) until Ctrl+C',
  usage: [
    'sandbox [--port <n>] [--control-port <n>] [--printer-port <n>]... [--printers <n>] [--orders <n>] [--seed <text>]',
    '  prints one JSON line: base URLs and keys of both environments, printers and the control API',
    '  (`npm run sandbox -- --help` lists every fault and rate-limit knob of the sandbox itself)',
  ].join('\n'),
  valueOptions: ['port', 'control-port', 'printer-port', 'printers', 'orders', 'seed'],
  async run(context) {
    expectOnly(context.args, { options: ['port', 'control-port', 'printer-port', 'printers', 'orders', 'seed'] });
    const printerPorts = (context.args.options.get('printer-port') ?? []).map((text) => Number(text));
    const sandbox = createEmbeddedSandbox({
      ...(numberOption(context.args, 'port') !== undefined ? { port: numberOption(context.args, 'port') } : {}),
      ...(numberOption(context.args, 'control-port') !== undefined ? { controlPort: numberOption(context.args, 'control-port') } : {}),
      ...(numberOption(context.args, 'printers') !== undefined ? { printers: numberOption(context.args, 'printers') } : {}),
      ...(numberOption(context.args, 'orders') !== undefined ? { orders: numberOption(context.args, 'orders') } : {}),
      ...(option(context.args, 'seed') !== undefined ? { seed: option(context.args, 'seed') } : {}),
      ...(printerPorts.length > 0 ? { printerPorts } : {}),
    });
    // Serves until stopped, as the standalone sandbox does: an error nobody caught is logged and counted, not the end of it.
    const strayErrors = context.keepServingAfterStrayErrors();
    // Through the composition root, as the app does: the station's sandbox environment is this sandbox.
    const station = await context.openStation({ sandbox, strayErrors });
    try {
      const running = await station.services.sandbox.start();
      await station.services.sandboxReady();
      const { close: _close, ...description } = running;
      context.print(JSON.stringify(description));
      context.warn(`Sandbox running: API ${description.environments.test.baseUrl.replace(/\/test$/, '')}/{test,live}, control API ${description.control.baseUrl}, ${description.printers.length} virtual Zebra printer(s). Press Ctrl+C to stop.`);
      context.warn(`The station's sandbox environment works as ${description.environments.test.companies[0]?.name ?? 'the first company'} (${await station.services.orders.count('sandbox')} orders today).`);
      await context.stopped();
      return exitCodes.ok;
    } catch (error) {
      context.warn(error instanceof Error ? error.message : String(error));
      return exitCodes.failed;
    } finally {
      await sandbox.close();
    }
  },
};
