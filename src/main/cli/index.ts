/**
 * The station from a terminal: `npx packing-station <command>`. Each command builds the same
 * composition root as the app.
 */
import { version } from '../../../package.json';
import { composeStation, productName } from '../composition';
import { createLogger } from '../logging/logger';
import { defaultDataDir } from '../paths';

const usage = `Packing Station ${version}

Usage: packing-station <command> [options]

Commands:
  info        Show the station's version, environment and whether an API key is set
  help        Show this help
`;

async function main(argv: string[]): Promise<number> {
  const [command] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(usage);
    return 0;
  }
  if (command === 'info') {
    const logger = createLogger((line) => process.stderr.write(`${line}\n`), { level: 'warn' });
    const station = await composeStation({ dataDir: defaultDataDir(productName), host: 'web', version, logger });
    try {
      const result = await station.dispatcher.dispatch('app.info', {}, { host: 'web' });
      if (!result.ok) {
        process.stderr.write(`${result.error.message}\n`);
        return 1;
      }
      process.stdout.write(`${JSON.stringify(result.value, null, 2)}\n`);
      return 0;
    } finally {
      await station.close();
    }
  }
  process.stderr.write(`Unknown command "${command}".\n\n${usage}`);
  return 2;
}

main(process.argv.slice(2)).then((code) => process.exit(code));
