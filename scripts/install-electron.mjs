// Electron's own install script downloads the Electron binary. package.json denies it in
// `allowScripts` so that a machine without access to Electron's download host (CI, air-gapped
// build boxes) still installs cleanly; this script runs it instead and only warns when the
// download cannot be made. Everything but the desktop shell works without the binary.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

let electronDir;
try {
  electronDir = dirname(require.resolve('electron/package.json'));
} catch {
  process.exit(0); // production install without dev dependencies: nothing to do
}

// npm's EBADENGINE warnings on Node 20 come from Electron's own installer and packager
// (electron, @electron/get, @electron/rebuild, node-abi want Node 22.12+). No release of Electron
// that is still supported installs on Node 20, so they are said once here in plain words.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.log(
    [
      `[packing-station] Node ${process.versions.node}: the EBADENGINE warnings above are Electron's installer and packager, which want Node 22.12+.`,
      '[packing-station] The desktop app and `npm run dist` need Node 22.12+; on this Node `npm start` serves the station in the browser and every test but the Electron smoke test runs.',
    ].join('\n'),
  );
}

if (existsSync(join(electronDir, 'path.txt'))) process.exit(0);

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log('[packing-station] ELECTRON_SKIP_BINARY_DOWNLOAD is set: the Electron binary was not downloaded.');
  process.exit(0);
}

const result = spawnSync(process.execPath, ['install.js'], {
  cwd: electronDir,
  stdio: ['ignore', 'inherit', 'pipe'],
  timeout: 10 * 60 * 1000,
  encoding: 'utf8',
});

if (result.status === 0 && existsSync(join(electronDir, 'path.txt'))) process.exit(0);

const output = (result.stderr || result.error?.message || 'no output').trim().split('\n');
const reason = (output.find((line) => /error/i.test(line)) ?? output[0]).trim();
console.warn(
  [
    '[packing-station] The Electron binary could not be downloaded, so the desktop app cannot start on this machine.',
    `[packing-station]   reason: ${reason}`,
    '[packing-station] Everything else works: `npm start` serves the station in a browser instead, and every test but the',
    '[packing-station] Electron smoke test runs. Re-run `npm rebuild electron && node scripts/install-electron.mjs` once online.',
  ].join('\n'),
);
