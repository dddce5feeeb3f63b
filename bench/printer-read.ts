/**
 * A scan's printer read on both engines: `PrinterRegistry.choose` (the list of the environment's
 * printers with this bench's defaults, the role's printer picked) as every scan calls it, with the
 * registry following the printers channel as the station runs it. Figures: the read from memory
 * (the usual case), the read after the cache was dropped (the first scan after a printer changed
 * at any bench: one query), and the lease a scan takes when its printer's queue was idle (one
 * upsert; PostgreSQL only, as the station leases only on a shared store).
 * Run: npx tsx bench/printer-read.ts [printers=12] [reads=5000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrinterLeases } from '../src/main/printing/printer-leases';
import { PrinterRegistry } from '../src/main/printing/printers';
import { PostgresEngine } from '../src/main/store/engine/postgres-engine';
import { SqliteEngine } from '../src/main/store/engine/sqlite-engine';
import type { StoreEngine } from '../src/main/store/engine/store-engine';
import { createTestDatabase, startPostgresServer } from '../test/support/postgres-server';

const printerCount = Number(process.argv[2] ?? 12);
const readCount = Number(process.argv[3] ?? 5_000);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (value: number) => `${value.toFixed(4)} ms`;
const line = (label: string, samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(`  ${label}: p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))} (${samples.length} reads)`);
};

async function timed(times: number, work: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return samples;
}

async function measure(label: string, engine: StoreEngine): Promise<void> {
  const registry = new PrinterRegistry(engine, { bench: 'bench-bench' });
  const following = await registry.follow();
  try {
    for (let n = 0; n < printerCount; n += 1) {
      await registry.add('test', { name: `Zebra ${n + 1}`, address: { kind: 'network-zebra', host: '10.0.0.5', port: 9100 + n }, defaultForSingle: n === 0 });
    }
    console.log(`${label}, ${printerCount} printers:`);
    await timed(500, () => registry.choose('test', 'single', undefined));
    line('a scan\'s printer read, from memory', await timed(readCount, () => registry.choose('test', 'single', undefined)));
    // After a change the cache is empty: the next read is one query, as a fresh registry's first read.
    line('a scan\'s printer read after a change (one query)', await timed(Math.min(readCount, 2_000), () => new PrinterRegistry(engine, { bench: 'bench-bench' }).choose('test', 'single', undefined)));
    if (engine.sharedByBenches) {
      const leases = new PrinterLeases(engine, { bench: 'bench-bench', benchName: () => 'Bench' });
      const printer = await registry.choose('test', 'single', undefined);
      line('taking the printer\'s lease (queue was idle)', await timed(Math.min(readCount, 2_000), () => leases.take(printer)));
    }
  } finally {
    await following.close();
  }
}

const server = await startPostgresServer();
const folder = mkdtempSync(join(tmpdir(), 'station-bench-'));
try {
  const database = await createTestDatabase(server.info);
  const postgres = await PostgresEngine.open({ ...database.info, tls: 'disable' });
  try {
    await measure('PostgreSQL 127.0.0.1 (pg pool)', postgres);
  } finally {
    await postgres.close();
  }
  const sqlite = SqliteEngine.open(join(folder, 'station.db'));
  try {
    await measure('SQLite (libsql, the station file)', sqlite);
  } finally {
    await sqlite.close();
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
  await server.dispose();
}
