import { PassThrough } from 'node:stream';
import { runCli } from '../../src/main/cli/run';
import type { StationOptions } from '../../src/main/composition';

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in this process on a data folder, as a user would type it, and collects what it prints. */
export async function runCliIn(dataDir: string, stationOptions: Partial<StationOptions>, argv: string[], stdinText?: string): Promise<CliOutcome> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  // Piped input (a password, a key) when given; otherwise an input that never ends, like an idle terminal.
  const stdin = new PassThrough();
  if (stdinText !== undefined) stdin.end(stdinText);
  const code = await runCli(['--data-dir', dataDir, ...argv], {
    version: '0.0.0-test',
    io: { stdout, stderr, stdin },
    stopSignal: new Promise(() => undefined),
    stationOptions,
  });
  return { code, stdout: out, stderr: err };
}
