/**
 * The station in a browser, as `npm run web` starts it: the station composed on its data folder
 * and started (webhooks, the bench scale), then served by the web host with the session key kept
 * in that folder. The command line (cli.ts) prints its address; the end-to-end tests start one
 * in their own process for each test.
 */
import { join } from 'node:path';
import { composeStation, type Station } from '../composition';
import { isUnopenedStore, unopenedStation } from '../contract/unopened-station';
import type { StationError } from '../../shared/errors';
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
  /** Null when the station could not open its store: the page then shows `refusal`, in its own words. */
  station: Station | null;
  refusal: StationError | null;
  host: RunningWebHost;
  /** Closes the web host, then the station (its data folder stays). */
  close(): Promise<void>;
}

export async function startStationWebHost(options: StationWebHostOptions): Promise<StationWebHost> {
  const { dataDir } = options;
  let station: Station;
  try {
    station = await composeStation({ dataDir, host: 'web', version: options.version, logger: options.logger, strayErrors: options.strayErrors });
  } catch (error) {
    if (!isUnopenedStore(error)) throw error;
    // A newer station's data: the page says what to do (update this bench), and nothing opens the store.
    const host = await startWebHost({ station: unopenedStation(error, options.logger), rendererDir: options.rendererDir, port: options.port, sessionKey: keptSessionKey(dataDir) });
    return { station: null, refusal: error, host, close: () => host.close() };
  }
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
    refusal: null,
    host,
    async close() {
      await host.close();
      await station.close();
    },
  };
}
