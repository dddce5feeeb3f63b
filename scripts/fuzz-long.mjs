#!/usr/bin/env node
// `npm run fuzz:long`: the fuzz stage with every property run FUZZ_SCALE times more (20 unless set)
// from a fresh seed, printed first; a failure prints its seed and path, and FUZZ_SEED replays it.
// Extra arguments go to vitest (a file, -t "a test name").
import { spawnSync } from 'node:child_process';

const scale = process.env.FUZZ_SCALE ?? '20';
const seed = process.env.FUZZ_SEED ?? String(Date.now() % 2_147_483_647);
process.stdout.write(`Fuzzing ${scale} times longer than in npm test, seed ${seed} (FUZZ_SEED=${seed} replays it).\n`);
const run = spawnSync('npx', ['vitest', 'run', '--project', 'fuzz', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_SCALE: scale, FUZZ_SEED: seed },
  shell: process.platform === 'win32',
});
process.exit(run.status ?? 1);
