// `npm start`: builds the station and opens it — as the desktop app where Electron is installed,
// otherwise in the browser through the web host (with a plain note why).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
// Errors only: a build's size and timing notes are for developers, not for someone starting the station.
const build = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'error'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) process.exit(build.status ?? 1);

let electron = null;
try {
  const dir = dirname(require.resolve('electron/package.json'));
  if (existsSync(join(dir, 'path.txt'))) electron = require('electron');
} catch {
  electron = null;
}

const [command, args] = electron
  ? [electron, ['.']]
  : (console.log('No Electron binary on this machine: starting the station in the browser instead (web host).'),
    [process.execPath, ['out/main/web.js', ...process.argv.slice(2)]]);
const child = spawn(command, args, { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
