/**
 * An upload killed mid-way (SIGKILL, a second process: the CLI as a person runs it) and resumed by
 * another process ends with every row created exactly once, or flagged as of unknown outcome:
 * checked against the sandbox's own record of the orders it holds, not against the station's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import { readReport, sandboxOrdersByRef, stationFolder, stationKeys, uploadRows, writeXlsx } from './support';
import { childScript } from '../../support/child-scripts';

function startCli(key: unknown, args: string[]) {
  const child = spawn(process.execPath, [childScript('test/integration/upload/cli-child.ts'), JSON.stringify(key), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  const stderrLines: string[] = [];
  const watchers = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderrLines.push(line);
    for (const watcher of [...watchers]) watcher();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    exited,
    stdout: () => stdout,
    stderr: () => stderrLines.join('\n'),
    kill: () => child.kill('SIGKILL'),
    /** The first stderr line the test accepts, or null when the process ends first. */
    line: (accept: (line: string) => boolean) =>
      new Promise<string | null>((resolve) => {
        const check = () => {
          const found = stderrLines.find(accept);
          if (found !== undefined) {
            watchers.delete(check);
            resolve(found);
          }
        };
        watchers.add(check);
        check();
        void exited.then(() => {
          watchers.delete(check);
          resolve(stderrLines.find(accept) ?? null);
        });
      }),
  };
}

const StatusSchema = z.object({
  status: z.object({
    uploadId: z.string(),
    state: z.string(),
    result: z.string().nullable(),
    counts: z.object({ total: z.number(), created: z.number(), unknown: z.number(), failed: z.number(), invalid: z.number(), ready: z.number(), skipped: z.number() }),
  }),
  reportPath: z.string(),
});

describe('an upload killed mid-way and resumed', () => {
  let sandbox: RunningSandbox;
  let files: string;
  let dataDir: string;

  beforeAll(async () => {
    // Every API call takes 20 ms and the rate limit is on: the run lasts long enough to be killed in.
    sandbox = await startSandbox({ printers: 0, seedSize: 'small', faults: { latencyMs: 20, labelDelayMs: 0 }, rateLimit: { requestsPerSecond: 50, burst: 50 } });
    files = mkdtempSync(join(tmpdir(), 'station-upload-kill-'));
    dataDir = await stationFolder(sandbox, 'kill');
  });

  afterAll(async () => {
    await sandbox.close();
    rmSync(files, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('ends with every row created exactly once at the service, or flagged unknown (never sent twice)', async () => {
    const { rows } = uploadRows('KILL', 1000, 0, '1101', '1201');
    const file = join(files, 'orders.xlsx');
    await writeXlsx(file, rows);
    const key = stationKeys(sandbox);

    const first = startCli(key, ['--data-dir', dataDir, 'upload', file, '--location', '1101']);
    const started = await first.line((line) => line.startsWith('Upload ') && line.endsWith(' started.'));
    expect(started, first.stderr()).not.toBeNull();
    const uploadId = /^Upload (\S+) started\.$/.exec(started!)![1]!;
    const midway = await first.line((line) => Number(/processed (\d+)\//.exec(line)?.[1] ?? 0) >= 250);
    expect(midway, first.stderr()).not.toBeNull();
    first.kill();
    expect((await first.exited).signal).toBe('SIGKILL');
    const beforeResume = await sandboxOrdersByRef(sandbox, 'KILL');
    expect(beforeResume.size).toBeGreaterThanOrEqual(250);
    expect(beforeResume.size).toBeLessThan(1000);

    const report = join(files, 'resumed.xlsx');
    const second = startCli(key, ['--data-dir', dataDir, 'upload', '--resume', uploadId, '--json', '--report', report]);
    const ended = await second.exited;
    expect(ended.code, second.stderr()).not.toBeNull();
    const outcome = StatusSchema.parse(JSON.parse(second.stdout()));
    expect(outcome.status.uploadId).toBe(uploadId);
    expect(outcome.status.state).toBe('finished');
    const { counts } = outcome.status;
    expect(counts.created + counts.unknown).toBe(1000);
    expect(counts.failed + counts.invalid + counts.ready + counts.skipped).toBe(0);
    expect(outcome.status.result).toBe(counts.unknown === 0 ? 'completed' : 'completed-with-errors');

    const atService = await sandboxOrdersByRef(sandbox, 'KILL');
    for (const [orderRef, ids] of atService) expect(ids, orderRef).toHaveLength(1);
    const sheets = await readReport(report);
    const created = sheets.get('Successful Orders')!.rows;
    expect(created).toHaveLength(counts.created);
    for (const row of created) expect(atService.get(row.orderRef!)).toEqual([row.orderId]);
    const unknown = sheets.get('Failed Orders')!.rows;
    expect(unknown).toHaveLength(counts.unknown);
    for (const row of unknown) expect(row.reason).toContain('it is not known whether it was created');
    // Every row exists at the service once, except unknown rows whose POST never arrived.
    expect(atService.size).toBeGreaterThanOrEqual(1000 - counts.unknown);
  }, 120_000);
});
