/**
 * `npm run web` (and `npm start` where Electron is not installed): the station in a browser.
 * Prints plain sentences for people: the link, which environment it runs on and where its data
 * lives. With `--json`, the first line is one JSON object ({ url, launchUrl, environment,
 * dataDir }) for scripts and tests instead.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { version } from '../../../package.json';
import { productName } from '../composition';
import { createLogger } from '../logging/logger';
import { logStrayErrors } from '../logging/stray-errors';
import { defaultDataDir } from '../paths';
import { readWebHostArgs, webHostUsage } from './cli-options';
import { startStationWebHost } from './station-web-host';
import { errorText } from '../../shared/error-text';

const environmentWords = {
  sandbox: 'the embedded sandbox — practice orders and a virtual Zebra, nothing ships (Setup › Environment leaves it)',
  test: 'TEST — the delivery service\'s test environment, no courier comes',
  live: 'LIVE — real orders, real couriers',
} as const;

async function main(): Promise<void> {
  const command = readWebHostArgs(process.argv.slice(2));
  if (command.kind === 'help') {
    process.stdout.write(webHostUsage);
    return;
  }
  if (command.kind === 'refused') {
    process.stderr.write(`${command.problem}\n\n${webHostUsage}`);
    process.exitCode = 2;
    return;
  }
  const here = dirname(fileURLToPath(import.meta.url));
  const logger = createLogger((line) => process.stderr.write(`${line}\n`));
  const strayErrors = logStrayErrors(logger);
  const dataDir = command.dataDir ? resolve(command.dataDir) : defaultDataDir(productName);
  const { station, refusal, host, close } = await startStationWebHost({
    dataDir,
    rendererDir: command.rendererDir ?? resolve(here, '../renderer'),
    port: command.port,
    version,
    logger,
    strayErrors,
  });
  const environment = station?.settings.environment() ?? null;
  if (command.json) process.stdout.write(`${JSON.stringify({ url: host.url, launchUrl: host.launchUrl, environment, dataDir })}\n`);
  process.stdout.write(
    [
      `Packing Station is at ${host.launchUrl}`,
      `  (the link opens the station once; the page stays signed in for up to 14 hours, also when the web host is restarted on the same data folder)`,
      environment ? `Running on: ${environmentWords[environment]}` : `It cannot open its data: ${refusal?.message ?? ''} The page says the same.`,
      `Data folder: ${dataDir} (database, settings, handover lists in handover/)`,
      '',
    ].join('\n'),
  );

  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`The web host could not start: ${errorText(error)}\n`);
  process.exit(1);
});
