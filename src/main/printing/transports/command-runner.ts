// Runs an OS command (lp, lpstat, SumatraPDF) without a shell: arguments go to the program as
// they are, so a queue or file name can never be read as shell syntax.
import { spawn } from 'node:child_process';

export interface CommandOptions {
  /** Written to the command's standard input, which is then closed. */
  input?: Uint8Array;
  /** Added to (and overriding) the station's own environment. */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** Aborting kills the command; the result then has `cancelled` set. */
  signal?: AbortSignal;
}

export interface CommandResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The command was killed because it ran longer than timeoutMs. */
  timedOut: boolean;
  /** The command was killed because the signal aborted. */
  cancelled: boolean;
}

export interface CommandRunner {
  /** Rejects only when the command cannot be started (CommandNotFoundError when it does not exist). */
  run(command: string, args: readonly string[], options?: CommandOptions): Promise<CommandResult>;
}

export class CommandNotFoundError extends Error {
  constructor(readonly command: string, options?: { cause?: unknown }) {
    super(`The command "${command}" is not installed or not on the PATH`, options);
    this.name = 'CommandNotFoundError';
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_OUTPUT_CHARS = 1024 * 1024;

export function createCommandRunner(): CommandRunner {
  return {
    run(command, args, options = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn(command, [...args], {
          env: { ...process.env, ...options.env },
          stdio: ['pipe', 'pipe', 'pipe'],
          windowsHide: true,
        });
        let stdout = '';
        let stderr = '';
        let timedOut = false;
        let cancelled = false;
        const onAbort = (): void => {
          cancelled = true;
          child.kill('SIGKILL');
        };
        if (options.signal?.aborted) onAbort();
        else options.signal?.addEventListener('abort', onAbort, { once: true });
        const keep = (current: string, chunk: Buffer): string =>
          current.length >= MAX_OUTPUT_CHARS ? current : (current + chunk.toString('utf8')).slice(0, MAX_OUTPUT_CHARS);
        child.stdout.on('data', (chunk: Buffer) => (stdout = keep(stdout, chunk)));
        child.stderr.on('data', (chunk: Buffer) => (stderr = keep(stderr, chunk)));
        const timer = setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
        child.on('error', (error: NodeJS.ErrnoException) => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          reject(error.code === 'ENOENT' ? new CommandNotFoundError(command, { cause: error }) : error);
        });
        let settled = false;
        const finish = (exitCode: number | null, signal: NodeJS.Signals | null): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          resolve({ exitCode, signal, stdout, stderr, timedOut, cancelled });
        };
        child.on('close', finish);
        // A killed command's own children may hold its output pipes open; do not wait for them.
        child.on('exit', (exitCode, signal) => {
          if (!timedOut && !cancelled) return;
          child.stdout.destroy();
          child.stderr.destroy();
          finish(exitCode, signal);
        });
        // A command that exits without reading its input breaks the pipe; its exit status tells why.
        child.stdin.on('error', () => undefined);
        if (options.input) child.stdin.end(options.input);
        else child.stdin.end();
      });
    },
  };
}

/** The environment that makes lp and lpstat answer in English, so their messages can be read. */
export const C_LOCALE = { LANG: 'C', LC_ALL: 'C', LC_MESSAGES: 'C' } as const;
