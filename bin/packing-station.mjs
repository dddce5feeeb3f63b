#!/usr/bin/env node
// The station's command line. Runs the built CLI (out/main/cli.js); builds it first if needed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'out', 'main', 'cli.js');
if (!existsSync(cli)) {
  const build = spawnSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(pathToFileURL(cli).href);
