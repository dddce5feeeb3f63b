/**
 * Runs one CLI command: finds it, parses its arguments, builds the station on demand through the
 * composition root, and always closes what it built. Returns the exit code; never throws.
 */
import { composeStation, productName, type Station, type StationOptions } from '../composition';
import { createLogger } from '../logging/logger';
import { logStrayErrors } from '../logging/stray-errors';
import type { StrayErrorSource } from '../../shared/stray-errors';
import { defaultDataDir } from '../paths';
import { parseArgs } from './args';
import { exitCodes, UsageError, type CliCommand, type CliContext, type CliIo } from './command';
import { cancelCommand } from './commands/cancel';
import { dayCloseCommand } from './commands/day-close';
import { floorCommand } from './commands/floor';
import { importCommand } from './commands/import';
import { infoCommand } from './commands/info';
import { keysCommand } from './commands/keys';
import { lookupCommand } from './commands/lookup';
import { printCommand } from './commands/print';
import { printBundlesCommand } from './commands/print-bundles';
import { printersCommand } from './commands/printers';
import { sandboxCommand } from './commands/run-sandbox';
import { scaleCommand } from './commands/scale';
import { settingsCommand } from './commands/settings';
import { checkAddressCommand, checkPostalCodeCommand, coverageCommand, creationsCommand, importToShipCommand, pickupPointsCommand, shipCommand } from './commands/ship';
import { uploadCommand } from './commands/upload';
import { webhooksCommand } from './commands/webhooks';
import { errorText } from '../../shared/error-text';

/** Every command, in the order the help lists them. Later issues add theirs here. */
export const commands: readonly CliCommand[] = [lookupCommand, printCommand, printBundlesCommand, printersCommand, floorCommand, scaleCommand, cancelCommand, dayCloseCommand, importCommand, shipCommand, importToShipCommand, uploadCommand, checkAddressCommand, checkPostalCodeCommand, coverageCommand, pickupPointsCommand, creationsCommand, keysCommand, settingsCommand, webhooksCommand, sandboxCommand, infoCommand];

export interface RunOptions {
  version: string;
  io: CliIo;
  env?: NodeJS.ProcessEnv;
  /** Resolves when the user asks the process to stop (Ctrl+C, SIGTERM). */
  stopSignal: Promise<void>;
  /** Extra station options (tests pass an in-memory key store or a shared sandbox). */
  stationOptions?: Partial<StationOptions>;
  /** The process whose stray errors a serving command keeps going after (the CLI's own entry passes it). */
  strayErrorSource?: StrayErrorSource;
}

export function usage(version: string, list: readonly CliCommand[] = commands): string {
  const width = Math.max(...list.map((command) => command.name.length)) + 2;
  return [
    `Packing Station ${version}`,
    '',
    'Usage: packing-station [--data-dir <folder>] [--verbose] <command> [options]',
    '',
    'Commands:',
    ...list.map((command) => `  ${command.name.padEnd(width)}${command.summary}`),
    `  ${'help'.padEnd(width)}Show this help, or the options of one command: help <command>`,
    '',
    'The data folder defaults to the one the desktop app uses (PACKING_STATION_DATA_DIR overrides it).',
    '',
  ].join('\n');
}

/** A command's usage: each form prefixed with the program name, option notes indented under it. */
export function formatUsage(command: CliCommand): string {
  const lines = command.usage.split('\n').map((line) => (line.startsWith(' ') ? `      ${line.trimStart()}` : `  packing-station ${line}`));
  return ['Usage:', ...lines].join('\n');
}

export async function runCli(argv: readonly string[], options: RunOptions): Promise<number> {
  const { io } = options;
  const write = (stream: NodeJS.WritableStream, text: string) => stream.write(`${text}\n`);
  // Global options come before the command.
  let dataDir: string | undefined;
  let verbose = false;
  let index = 0;
  for (; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    if (arg === '--data-dir') dataDir = argv[(index += 1)];
    else if (arg.startsWith('--data-dir=')) dataDir = arg.slice('--data-dir='.length);
    else if (arg === '--verbose') verbose = true;
    else break;
  }
  const name = argv[index];
  const rest = argv.slice(index + 1);
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const about = commands.find((command) => command.name === rest[0]);
    write(io.stdout, about ? formatUsage(about) : usage(options.version));
    return exitCodes.ok;
  }
  if (dataDir === '') {
    write(io.stderr, '--data-dir needs a folder.');
    return exitCodes.usage;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    write(io.stderr, `Unknown command "${name}".\n\n${usage(options.version)}`);
    return exitCodes.usage;
  }

  const logger = createLogger((line) => write(io.stderr, line), { level: verbose ? 'info' : 'warn' });
  const stations: Station[] = [];
  const closers: (() => Promise<void>)[] = [];
  const context: CliContext = {
    io,
    args: { positionals: [], options: new Map(), flags: new Set() },
    async openStation(overrides = {}) {
      const existing = stations[0];
      if (existing) return existing;
      const station = await composeStation({
        dataDir: dataDir ?? defaultDataDir(productName, options.env ?? process.env),
        host: 'web',
        version: options.version,
        logger,
        ...options.stationOptions,
        ...overrides,
      });
      stations.push(station);
      return station;
    },
    stopped: () => options.stopSignal,
    print: (line) => write(io.stdout, line),
    warn: (line) => write(io.stderr, line),
    env: options.env ?? process.env,
    keychainService: options.stationOptions?.keychainService ?? 'packing-station',
    afterStation: (close) => closers.push(close),
    keepServingAfterStrayErrors: () => (options.strayErrorSource ? logStrayErrors(logger, options.strayErrorSource) : undefined),
  };
  try {
    context.args = parseArgs(rest, command.valueOptions);
    if (context.args.flags.has('help')) {
      write(io.stdout, formatUsage(command));
      return exitCodes.ok;
    }
    return await command.run(context);
  } catch (error) {
    if (error instanceof UsageError) {
      write(io.stderr, `${error.message}\n\n${formatUsage(command)}`);
      return exitCodes.usage;
    }
    write(io.stderr, `The command failed: ${errorText(error)}`);
    return exitCodes.failed;
  } finally {
    for (const station of stations) await station.close();
    for (const close of closers) await close().catch(() => undefined);
  }
}
