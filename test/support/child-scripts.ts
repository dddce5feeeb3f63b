/**
 * The programs tests start as processes of their own (a station killed mid-run, a bench of the
 * warehouse fleet, the CLI, the sandbox's CLI…) run as JavaScript bundled once per test run, not
 * through tsx: tsx resolves and transforms every module of a child in a loader thread at each
 * start, about 1.2 s of processor more than the bundle (1.8 against 0.6 s for a CLI command on the
 * 2-core machine), and an integration run starts some 65 of them.
 *
 * The integration project's globalSetup (test/support/child-scripts-global-setup.ts) bundles them
 * into a folder of its own under the project (the bundles import the project's node_modules) and
 * names it in STATION_TEST_CHILDREN, which the test workers inherit; a benchmark that starts them
 * calls buildChildScripts itself. Each bundle is the sources as they are now: nothing is reused
 * from an earlier run.
 */
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Every program a test starts, by its source path from the project's root. */
const childSources = [
  'src/main/cli/index.ts',
  'src/sandbox/cli.ts',
  'test/integration/printing-crash/station-child.ts',
  'test/integration/printing-queue/cli-child.ts',
  'test/integration/upload/cli-child.ts',
  'test/integration/store/crash-writer.ts',
  'test/integration/keys/keychain-child.ts',
  'test/support/bench-fleet-child.ts',
] as const;
export type ChildSource = (typeof childSources)[number];

const projectRoot = resolve(import.meta.dirname, '..', '..');
const childrenVariable = 'STATION_TEST_CHILDREN';
const bundleName = (source: string) => source.replace(/\.ts$/, '').replaceAll('/', '.');

export interface ChildScripts {
  dir: string;
  remove(): void;
}

/**
 * Bundles every child into a fresh folder and names it in this process's environment (inherited
 * by what it starts). The manifest reader's worker is bundled beside them, where the station's
 * code looks for it in a bundled build (src/main/spreadsheets/spreadsheet-parser.ts).
 */
export async function buildChildScripts(): Promise<ChildScripts> {
  const runs = join(projectRoot, '.cache', 'test-children');
  removeRunsOfGoneProcesses(runs);
  const dir = join(runs, `run-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const entryPoints = Object.fromEntries([...childSources.map((source) => [bundleName(source), join(projectRoot, source)]), ['spreadsheet-parser', join(projectRoot, 'src/main/spreadsheets/spreadsheet-parser-worker.ts')]]);
  await build({
    entryPoints,
    outdir: dir,
    bundle: true,
    // One copy of the shared code, and lazy imports stay lazy (the CLI's start-up test counts them).
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  process.env[childrenVariable] = dir;
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A run stopped before its teardown (Ctrl+C) leaves its folder: removed once its process is gone. */
function removeRunsOfGoneProcesses(runs: string): void {
  const entries = existsSync(runs) ? readdirSync(runs) : [];
  for (const name of entries) {
    const pid = Number(/^run-(\d+)-/.exec(name)?.[1]);
    if (Number.isInteger(pid) && !processAlive(pid)) rmSync(join(runs, name), { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The bundled script of a child, to run with `node <script> …`. */
export function childScript(source: ChildSource): string {
  const dir = process.env[childrenVariable];
  if (!dir) throw new Error(`${childrenVariable} is not set: run the test through vitest's integration project, or call buildChildScripts() first`);
  const script = join(dir, `${bundleName(source)}.js`);
  if (!existsSync(script)) throw new Error(`${script} is missing: the child scripts were removed before this test ended`);
  return script;
}
