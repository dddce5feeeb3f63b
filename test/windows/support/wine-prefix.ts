/**
 * A fresh Wine prefix for one run of the Windows stage, copied from the template
 * scripts/test-windows.sh made (Wine's first boot, Windows 10 as its version, the ProcessPrng
 * stand-in). The copy hard-links Wine's own files, which nothing writes, and copies the registry,
 * which every process may rewrite, so the template stays as it was.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { wineEnv } from './windows-node';

export interface RunPrefix {
  path: string;
  /** %APPDATA% of the prefix's user, as a Linux path. */
  appDataLinux(): string;
  /** Stops the prefix's Wine server (and every Windows process in it) and removes the prefix. */
  remove(): Promise<void>;
}

export function freshPrefix(template: string, path: string, wineserver: string): RunPrefix {
  rmSync(path, { recursive: true, force: true });
  execFileSync('cp', ['-al', template, path]);
  for (const file of ['system.reg', 'user.reg', 'userdef.reg']) execFileSync('cp', ['--remove-destination', join(template, file), join(path, file)]);
  // One Wine server for the whole run: each Windows process then starts without booting Wine's services again.
  const env = wineEnv({ prefix: path, env: {} });
  spawn(wineserver, ['-p'], { env, stdio: 'ignore' }).unref();
  return {
    path,
    appDataLinux() {
      const users = readdirSync(join(path, 'drive_c', 'users')).filter((name) => name !== 'Public');
      if (users.length !== 1) throw new Error(`expected one user in the Wine prefix, found ${users.join(', ')}`);
      return join(path, 'drive_c', 'users', users[0] ?? '', 'AppData', 'Roaming');
    },
    async remove() {
      await new Promise<void>((resolve) => spawn(wineserver, ['-k'], { env, stdio: 'ignore' }).once('exit', () => resolve()));
      rmSync(path, { recursive: true, force: true });
    },
  };
}
