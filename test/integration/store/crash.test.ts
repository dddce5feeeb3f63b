import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/store/database';
import { childScript } from '../../support/child-scripts';

const rowsPerBatch = 200;

/** Runs the writer until it has committed at least one batch, then kills it after a random delay. */
function runAndKill(dbPath: string, firstBatch: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript('test/integration/store/crash-writer.ts'), dbPath, String(firstBatch), String(rowsPerBatch)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const committed: number[] = [];
    let buffered = '';
    let errors = '';
    let killTimer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^committed (\d+)$/.exec(line);
        if (match) committed.push(Number(match[1]));
      }
      if (committed.length > 0 && !killTimer) killTimer = setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 250));
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer ended without being killed: ${errors}`));
      else resolve(committed);
    });
  });
}

describe('store after a crash mid-write', () => {
  const dir = mkdtempSync(join(tmpdir(), 'station-crash-'));
  const dbPath = join(dir, 'station.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stays intact and keeps every committed row, however often the writer is killed', async () => {
    const allCommitted = new Set<number>();
    let nextBatch = 0;
    for (let round = 0; round < 8; round += 1) {
      const committed = await runAndKill(dbPath, nextBatch);
      expect(committed.length).toBeGreaterThan(0);
      for (const batch of committed) allCommitted.add(batch);

      const db = openDatabase(dbPath);
      try {
        expect(db.prepare('PRAGMA integrity_check').raw(true).all()).toEqual([['ok']]);
        // Every batch is all there or not there at all: a transaction is never half written.
        const perBatch = db
          .prepare(`SELECT substr(order_id, 2, instr(order_id, '-') - 2) AS batch, count(*) FROM orders WHERE environment = 'test' GROUP BY batch`)
          .raw(true)
          .all() as [string, number][];
        for (const [, count] of perBatch) expect(count).toBe(rowsPerBatch);
        const present = new Set(perBatch.map(([batch]) => Number(batch)));
        for (const batch of allCommitted) expect(present.has(batch), `batch ${batch} was reported committed`).toBe(true);
        const journalRows = db.prepare(`SELECT count(*) FROM print_journal`).raw(true).get() as [number];
        expect(journalRows[0]).toBe(present.size * rowsPerBatch);
        nextBatch = Math.max(...present) + 1;
      } finally {
        db.close();
      }
    }
    expect(allCommitted.size).toBeGreaterThanOrEqual(8);
  });
});
