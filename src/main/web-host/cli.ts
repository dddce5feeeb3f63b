/**
 * `npm run web`: the station in a browser. Prints one JSON line first ({ url, launchUrl }) so
 * scripts and tests can find it, then a plain sentence for people.
 */
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { version } from '../../../package.json';
import { composeStation, productName } from '../composition';
import { createLogger } from '../logging/logger';
import { defaultDataDir } from '../paths';
import { startWebHost } from './server';
import { keptSessionKey } from './session-key';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      'renderer-dir': { type: 'string' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not ${values.port}`);
  const here = dirname(fileURLToPath(import.meta.url));
  const logger = createLogger((line) => process.stderr.write(`${line}\n`));
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(productName);
  const station = await composeStation({
    dataDir,
    host: 'web',
    version,
    logger,
  });
  await station.start({ webhooks: true, scale: true });
  // composeStation made the data folder and narrowed it to this user; the session key lives there.
  const host = await startWebHost({
    station,
    rendererDir: values['renderer-dir'] ?? resolve(here, '../renderer'),
    port,
    sessionKey: keptSessionKey(dataDir),
    handoverDir: join(dataDir, 'handover'),
  });
  process.stdout.write(`${JSON.stringify({ url: host.url, launchUrl: host.launchUrl })}\n`);
  process.stdout.write(`Packing Station is at ${host.launchUrl} (the link opens the station once; the page stays signed in for up to 14 hours, also when the web host is restarted on the same data folder).\n`);

  const stop = async () => {
    await host.close();
    await station.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`The web host could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
