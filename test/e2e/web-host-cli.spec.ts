/**
 * The built web host asked for help from a terminal (issue 39, item 21): `--help` prints its usage
 * and starts nothing; a mistyped option is named and answered with the usage.
 */
import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';

const run = (...args: string[]) => spawnSync(process.execPath, ['out/main/web.js', ...args], { encoding: 'utf8', timeout: 20_000 });

test('out/main/web.js --help prints the usage and starts no station', () => {
  const help = run('--help');
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('Usage: node out/main/web.js [options]');
  expect(help.stdout).toContain('--data-dir <folder>');
  expect(help.stdout).not.toContain('Packing Station is at');
  expect(help.stderr).not.toContain('Unknown option');
});

test('a mistyped option is named, with the usage, and nothing starts', () => {
  const typo = run('--prot', '8080');
  expect(typo.status).toBe(2);
  expect(typo.stderr).toContain("'--prot'");
  expect(typo.stderr).toContain('Usage: node out/main/web.js [options]');
  expect(typo.stdout).not.toContain('Packing Station is at');
});
