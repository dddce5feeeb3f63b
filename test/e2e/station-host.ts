import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { createLogger } from '../../src/main/logging/logger';
import { startStationWebHost } from '../../src/main/web-host/station-web-host';

export interface WebHostProcess {
  url: string;
  launchUrl: string;
  dataDir: string;
}

export interface StationHost extends WebHostProcess {
  /** Closes the station as its window closing would (SIGTERM); the data folder stays. */
  stop(): Promise<void>;
}

export interface StationHostOptions {
  /** A data folder to reuse (a station started again); a fresh one by default. */
  dataDir?: string;
  /**
   * Runs the station with a real OS keychain: an unlocked GNOME Keyring in a private D-Bus
   * session (scripts/with-keyring.sh), fresh for this station, as on a desktop.
   */
  keyring?: boolean;
  /** The port to listen on (a station restarted where its pages expect it); a free one by default. */
  port?: number;
  /** With keyring: the keyring's folder to reuse (a station started again keeps its secrets); kept after stop. */
  keyringHome?: string;
  /** Added to the station's environment: the computer it runs on (no print system, another CUPS server). */
  env?: Record<string, string>;
}

/**
 * Starts the built web host (out/main/web.js) as its own process, as `npm run web` would, and
 * reads the address it prints. Options cover the tests that need more: a station closed and
 * started again on the same data, or a keychain that can hold an API key.
 */
export async function startStationHost(options: StationHostOptions = {}): Promise<StationHost> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'station-e2e-'));
  const node = [process.execPath, 'out/main/web.js', '--json', '--data-dir', dataDir, ...(options.port ? ['--port', String(options.port)] : [])];
  const [command, ...args] = options.keyring ? ['dbus-run-session', '--', 'bash', 'scripts/with-keyring.sh', ...node] : node;
  const env = { ...process.env, ...options.env };
  // A keyring of its own, gone with the test.
  if (options.keyring) env.XDG_DATA_HOME = options.keyringHome ?? mkdtempSync(join(tmpdir(), 'station-e2e-keyring-'));
  // Its own process group, so stopping it reaches D-Bus and the keyring too.
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'], env, detached: true });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`web host exited with ${code}: ${stderr}`)));
  });
  const { url, launchUrl } = JSON.parse(firstLine) as { url: string; launchUrl: string };
  return {
    url,
    launchUrl,
    dataDir,
    async stop() {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await exited;
      if (env.XDG_DATA_HOME !== process.env.XDG_DATA_HOME && env.XDG_DATA_HOME && !options.keyringHome) rmSync(env.XDG_DATA_HOME, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh station and its web host in this process (the test worker's), as `npm run web` composes
 * and serves it (src/main/web-host/station-web-host.ts), on the built screen. Started as a process
 * of its own, a station costs about 0.8 s of processor before it answers (Node and every module
 * of the station read again); here, where the worker has read them once, about 40 ms. What a
 * process of its own adds (a window closed with SIGTERM, a keychain in a D-Bus session of its
 * own, a restart on the same folder) is what startStationHost is for.
 */
/** package.json's version, read once per worker: the screen shows it as the station's. */
const stationVersion = z.object({ version: z.string() }).parse(JSON.parse(readFileSync('package.json', 'utf8'))).version;

export async function startStationInProcess(): Promise<StationHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-e2e-'));
  // What the web host would print on its error output: nobody reads it while a test passes.
  const logger = createLogger(() => undefined);
  const { host, close } = await startStationWebHost({ dataDir, rendererDir: resolve('out/renderer'), port: 0, version: stationVersion, logger });
  return { url: host.url, launchUrl: host.launchUrl, dataDir, stop: close };
}

export const removeDataDir = (dataDir: string): void => rmSync(dataDir, { recursive: true, force: true });
