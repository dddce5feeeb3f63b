import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

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
  const env = { ...process.env };
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

export const removeDataDir = (dataDir: string): void => rmSync(dataDir, { recursive: true, force: true });
