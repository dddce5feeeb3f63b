/**
 * `npm run sandbox`: starts the Delivery API sandbox and its virtual printers on loopback. The
 * first line on stdout is one JSON object describing base URLs, keys, printers and the control
 * API, for scripts and tests; a human summary goes to stderr. Ctrl-C or SIGTERM stop it cleanly.
 */
import { parseArgs } from 'node:util';
import { ZodError } from 'zod';
import { keepServingAfterStrayErrors } from '../shared/stray-errors';
import { startSandbox, type SandboxOptions } from './index';
import { labelNotReadyStatuses } from './settings';

const usage = `Usage: npm run sandbox -- [options]

  --host <address>             interface to bind (default 127.0.0.1)
  --port <n>                   public API port, both environments (default: a free port)
  --control-port <n>           control API port (default: a free port)
  --control-token <text>       control API bearer token (default: random)
  --seed <text>                seed of all generated data (default "sandbox")
  --seed-size <size>           small | default | large
  --orders <n>                 today's orders per environment
  --pickup-points <n>          pickup points in the network
  --printers <n>               virtual Zebra printers (default 1)
  --printer-port <n>           port of a printer (repeat for several)
  --printer-speed <n>          labels per second of each printer
  --printer-dpi <n>            resolution of each printer: 203 | 300 | 600 (default 203)
  --printer-width <dots>       printhead width in dots (default 832)
  --printer-model <text>       model ~HI reports (default ZD421-<dpi>dpi)
  --printer-serial <text>      serial number of a printer (repeat for several)
  --printer-odometer <n>       label counter of each printer at start (default 0)
  --printer-buffer <bytes>     receive buffer of each printer (default 65536)
  --latency <ms>               latency added to every API answer
  --latency-jitter <ms>        up to this much more, at random
  --error-rate <0..1>          share of requests answered 500/502/503
  --rate-limit-rate <0..1>     share of requests answered 429
  --drop-rate <0..1>           share of connections dropped without an answer
  --drop-mode <mode>           before | after | either (processing)
  --label-delay <ms>           how long after creation a label is not ready
  --label-not-ready-status <n> ${labelNotReadyStatuses.join(' | ')}
  --rate-limit <n>             requests per second per API key (0 = off)
  --rate-limit-burst <n>       burst per API key
  --body-limit <bytes>         request bodies above this get 413
  --webhook-duplicates <0..1>  share of webhook events sent twice
  --webhook-out-of-order       deliver webhook events newest first
  --help                       this text
`;

function number(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new Error(`--${name} needs a number, got "${value}"`);
  return parsed;
}

const defined = <T extends object>(object: T): T => Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;

export function parseCliOptions(argv: string[]): SandboxOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'control-port': { type: 'string' },
      'control-token': { type: 'string' },
      seed: { type: 'string' },
      'seed-size': { type: 'string' },
      orders: { type: 'string' },
      'pickup-points': { type: 'string' },
      printers: { type: 'string' },
      'printer-port': { type: 'string', multiple: true },
      'printer-speed': { type: 'string' },
      'printer-dpi': { type: 'string' },
      'printer-width': { type: 'string' },
      'printer-model': { type: 'string' },
      'printer-serial': { type: 'string', multiple: true },
      'printer-odometer': { type: 'string' },
      'printer-buffer': { type: 'string' },
      latency: { type: 'string' },
      'latency-jitter': { type: 'string' },
      'error-rate': { type: 'string' },
      'rate-limit-rate': { type: 'string' },
      'drop-rate': { type: 'string' },
      'drop-mode': { type: 'string' },
      'label-delay': { type: 'string' },
      'label-not-ready-status': { type: 'string' },
      'rate-limit': { type: 'string' },
      'rate-limit-burst': { type: 'string' },
      'body-limit': { type: 'string' },
      'webhook-duplicates': { type: 'string' },
      'webhook-out-of-order': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  return defined({
    host: values.host,
    port: number('port', values.port),
    controlPort: number('control-port', values['control-port']),
    controlToken: values['control-token'],
    seed: values.seed,
    seedSize: values['seed-size'] as SandboxOptions['seedSize'],
    orders: number('orders', values.orders),
    pickupPoints: number('pickup-points', values['pickup-points']),
    printers: number('printers', values.printers),
    printerPorts: values['printer-port']?.map((port) => number('printer-port', port)!),
    printerLabelsPerSecond: number('printer-speed', values['printer-speed']),
    printerDpi: number('printer-dpi', values['printer-dpi']),
    printerWidthDots: number('printer-width', values['printer-width']),
    printerModel: values['printer-model'],
    printerSerials: values['printer-serial'],
    printerOdometerStart: number('printer-odometer', values['printer-odometer']),
    printerReceiveBufferBytes: number('printer-buffer', values['printer-buffer']),
    faults: defined({
      latencyMs: number('latency', values.latency),
      latencyJitterMs: number('latency-jitter', values['latency-jitter']),
      errorRate: number('error-rate', values['error-rate']),
      rateLimitRate: number('rate-limit-rate', values['rate-limit-rate']),
      dropRate: number('drop-rate', values['drop-rate']),
      dropMode: values['drop-mode'] as 'before' | 'after' | 'either' | undefined,
      labelDelayMs: number('label-delay', values['label-delay']),
      labelNotReadyStatus: number('label-not-ready-status', values['label-not-ready-status']) as 404 | undefined,
    }),
    rateLimit: defined({ requestsPerSecond: number('rate-limit', values['rate-limit']), burst: number('rate-limit-burst', values['rate-limit-burst']) }),
    webhooks: defined({ duplicateRate: number('webhook-duplicates', values['webhook-duplicates']), outOfOrder: values['webhook-out-of-order'] }),
    bodyLimitBytes: number('body-limit', values['body-limit']),
  });
}

async function main(): Promise<void> {
  let options: SandboxOptions | 'help';
  try {
    options = parseCliOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(usage);
    return;
  }
  // A test run leans on the sandbox for minutes: an error no request caught is told, counted and survived.
  keepServingAfterStrayErrors(process, ({ kind, error, stack, count }) => {
    process.stderr.write(`The sandbox kept running after an ${kind} (${count} since it started): ${stack ?? String(error)}\n`);
  });
  const startedAt = performance.now();
  let sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (error) {
    if (error instanceof ZodError) {
      const message = error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n');
      process.stderr.write(`Invalid option:\n${message}\n\n${usage}`);
      process.exit(2);
    }
    process.stderr.write(`The sandbox could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify(sandbox)}\n`);
  const test = sandbox.environments.test;
  process.stderr.write(
    [
      `Delivery API sandbox ready in ${Math.round(performance.now() - startedAt)} ms`,
      `  test: ${test.baseUrl}   live: ${sandbox.environments.live.baseUrl}`,
      `  key (${test.companies[0]?.name}): ${test.companies[0]?.apiKey}`,
      ...sandbox.printers.map((printer) => `  printer "${printer.name}": ${printer.host}:${printer.port}`),
      `  control: ${sandbox.control.baseUrl} (Authorization: Bearer ${sandbox.control.token})`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    process.stderr.write(`\n${signal}: stopping the sandbox...\n`);
    sandbox
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        process.stderr.write(`Stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
