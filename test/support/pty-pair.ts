/**
 * A pseudo-terminal pair from socat (Debian's `socat`, installed by scripts/install-test-deps.sh):
 * two linked device paths, as a USB serial adapter and the scale behind it would be. What is
 * written to one end is read at the other.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from './wait-until';

export interface PtyPair {
  /** The end the station opens. */
  station: string;
  /** The end the virtual scale opens. */
  device: string;
  close(): Promise<void>;
}

export async function openPtyPair(): Promise<PtyPair> {
  const folder = mkdtempSync(join(tmpdir(), 'scale-pty-'));
  const station = join(folder, 'station');
  const device = join(folder, 'scale');
  const child = spawn('socat', [`pty,raw,echo=0,link=${station}`, `pty,raw,echo=0,link=${device}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (error) => (stderr += error.message));
  await waitUntil(() => (existsSync(station) && existsSync(device)) || child.exitCode !== null || stderr.includes('ENOENT'), 'socat to make a pty pair', 10_000);
  if (!existsSync(station)) throw new Error(`socat made no pty pair: ${stderr}`);
  return {
    station,
    device,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
