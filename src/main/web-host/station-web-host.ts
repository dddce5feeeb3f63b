/**
 * The station in a browser, as `npm run web` starts it: the station composed on its data folder
 * and started (webhooks, the bench scale), then served by the web host with the session key kept
 * in that folder. The command line (cli.ts) prints its address; the end-to-end tests start one
 * in their own process for each test.
 */
import { join } from 'node:path';
import { composeStation, type Station } from '../composition';
import type { Logger } from '../logging/logger';
import type { StrayErrors } from '../logging/stray-errors';
import { startWebHost, type RunningWebHost } from './server';
import { keptSessionKey } from './session-key';

export interface StationWebHostOptions {
  dataDir: string;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 for a free port. */
  port: number;
  version: string;
  logger: Logger;
  /** The process's stray errors as the command line counts them (the receiver's health check shows the count). */
  strayErrors?: StrayErrors;
}

export interface StationWebHost {
  station: Station;
  host: RunningWebHost;
  /** Closes the web host, then the station (its data folder stays). */
  close(): Promise<void>;
}

export async function startStationWebHost(options: StationWebHostOptions): Promise<StationWebHost> {
  const { dataDir } = options;
  const station = await composeStation({ dataDir, host: 'web', version: options.version, logger: options.logger, strayErrors: options.strayErrors });
  await station.start({ webhooks: true, scale: true });
  // composeStation made the data folder and narrowed it to this user; the session key lives there.
  const host = await startWebHost({
    station,
    rendererDir: options.rendererDir,
    port: options.port,
    sessionKey: keptSessionKey(dataDir),
    handoverDir: join(dataDir, 'handover'),
  }).catch(async (error: unknown) => {
    await station.close();
    throw error;
  });
  return {
    station,
    host,
    async close() {
      await host.close();
      await station.close();
    },
  };
}
