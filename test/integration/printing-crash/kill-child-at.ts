/**
 * Runs station-child.ts with a config and kills it with SIGKILL as soon as it reports a line
 * starting with `line` (for example "scan-run " or "scan-sent "): a station gone at that moment.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { waitUntil } from '../../support/wait-until';

const childPath = join(__dirname, 'station-child.ts');

export async function killStationChildAt(config: unknown, line: string, what: string, timeoutMs?: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', childPath, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (text) => lines.push(text));
  try {
    await waitUntil(() => lines.some((text) => text.startsWith(line)), what, timeoutMs);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}
