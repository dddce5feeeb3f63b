/**
 * `npm start` as a new user runs it on a machine without Electron's binary (issue 23, item 11):
 * no bundler warnings and no raw JSON line, and it says where the station is, that it runs on the
 * sandbox, and where its data lives.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { waitUntil } from '../../support/wait-until';

const require = createRequire(import.meta.url);
const electronInstalled = (() => {
  try {
    return existsSync(join(dirname(require.resolve('electron/package.json')), 'path.txt'));
  } catch {
    return false;
  }
})();

// Where Electron is installed `npm start` opens the desktop app instead: nothing to read here.
it.skipIf(electronInstalled)('npm start says where the station is, that it runs on the sandbox and where its data is, with no bundler notes or JSON', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-npm-start-'));
  const child = spawn('npm', ['start', '--silent', '--', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitUntil(() => output.includes('Data folder:'), 'npm start to say where its data is', 120_000);
    expect(output).toMatch(/Packing Station is at http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(output).toContain('Running on: the embedded sandbox');
    expect(output).toContain(`Data folder: ${dataDir}`);
    expect(output).not.toMatch(/^\{/m);
    expect(output).not.toContain('Some chunks are larger');
    expect(output).not.toContain('PLUGIN_TIMINGS');
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // Already gone.
    }
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
