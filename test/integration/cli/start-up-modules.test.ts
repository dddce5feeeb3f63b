import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { childScript } from '../../support/child-scripts';

// Every CLI command and every web host start composes the whole station. Code only some calls
// need — the embedded sandbox, the PDF and spreadsheet writers — is read when first used: on
// Windows each file opened at start costs far more (the Windows stage measured a command's start
// going from 15–40 s to 2–3 s under Wine when these stopped loading eagerly).

const dataDirs: string[] = [];
afterEach(() => {
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('a command that needs none of them loads neither the sandbox nor pdf-lib, exceljs or bwip-js', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-start-up-'));
  dataDirs.push(dataDir);
  // NODE_DEBUG=module names every CommonJS file Node loads (the packages below are CommonJS).
  const result = spawnSync(process.execPath, [childScript('src/main/cli/index.ts'), '--data-dir', dataDir, 'settings'], {
    env: { ...process.env, NODE_DEBUG: 'module' },
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(result.status, result.stderr.slice(-2000)).toBe(0);
  const loaded = (pkg: string) => result.stderr.split('\n').filter((line) => line.includes(`node_modules/${pkg}/`)).length;
  // The trace does list what a start needs (the API client), so an empty list proves something.
  expect(loaded('undici')).toBeGreaterThan(10);
  expect({ pdfLib: loaded('pdf-lib'), exceljs: loaded('exceljs'), bwipJs: loaded('bwip-js') }).toEqual({ pdfLib: 0, exceljs: 0, bwipJs: 0 });
});
