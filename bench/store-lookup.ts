/**
 * Shared-store lookup latency: the same 1,000,000 orders in PostgreSQL (a private server started
 * for the run, reached over loopback TCP) and in SQLite (the station's file), loaded with the same
 * multi-row inserts through the store engine, then p50 / p99 of random lookups through the engine:
 * one query by order ref, a scan's full resolution (by ref, by barcode, by order id: three
 * queries, as OrderIndex.find did before the port), the same resolution as one UNION ALL query, and
 * the ported order index's own `find` (one UNION ALL; on SQLite naming its indexes, INDEXED BY).
 * Run: npx tsx bench/store-lookup.ts [orders=1000000] [lookups=20000]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderIndex } from '../src/main/orders/order-index';
import { PostgresEngine } from '../src/main/store/engine/postgres-engine';
import { SqliteEngine } from '../src/main/store/engine/sqlite-engine';
import type { SqlValue, StoreEngine } from '../src/main/store/engine/store-engine';
import { createTestDatabase, startPostgresServer } from '../test/support/postgres-server';

const orderCount = Number(process.argv[2] ?? 1_000_000);
const lookupCount = Number(process.argv[3] ?? 20_000);
const rowsPerStatement = 2_000;
const statementsPerTransaction = 5;
const learnt = '2026-11-24T06:00:00.000Z';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (value: number) => `${value.toFixed(3)} ms`;

const orderId = (n: number) => `ord_${n.toString(36).padStart(8, '0')}`;
const orderRef = (n: number) => `REF-${n}`;
const barcode = (n: number) => `3SPSB${String(n).padStart(10, '0')}`;

async function fill(engine: StoreEngine): Promise<number> {
  const started = performance.now();
  const statement = (rows: number) => {
    const values = Array.from({ length: rows }, (_, row) => {
      const p = row * 5;
      return `('test', $${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, 'import', '${learnt}', '${learnt}')`;
    });
    return `INSERT INTO orders (environment, order_id, order_ref, barcode, bundle_id, status, source, created_at, updated_at) VALUES ${values.join(', ')}`;
  };
  const full = statement(rowsPerStatement);
  for (let start = 0; start < orderCount; start += rowsPerStatement * statementsPerTransaction) {
    await engine.transaction(async (tx) => {
      for (let first = start; first < Math.min(orderCount, start + rowsPerStatement * statementsPerTransaction); first += rowsPerStatement) {
        const last = Math.min(orderCount, first + rowsPerStatement);
        const params: SqlValue[] = [];
        for (let n = first; n < last; n += 1) params.push(orderId(n), orderRef(n), barcode(n), `B-${Math.floor(n / 5)}`, 'draft');
        await tx.execute(last - first === rowsPerStatement ? full : statement(last - first), params);
      }
    });
  }
  // Planner statistics, as a maintained store has them (SQLite's planner needs them to prefer the partial indexes).
  await engine.execute('ANALYZE');
  return (performance.now() - started) / 1000;
}

const columns = 'environment, order_id, order_ref, barcode, bundle_id, recipient, status, status_updated_at, source, created_at, updated_at, voided_at, voided_by, void_reason';

// The same resolution in one round trip: what the ported order index can send.
const resolveInOne = `SELECT 'orderRef' AS matched, ${columns} FROM orders WHERE environment = $1 AND order_ref = $2
  UNION ALL SELECT 'barcode', ${columns} FROM orders WHERE environment = $1 AND barcode = $2
  UNION ALL SELECT 'orderId', ${columns} FROM orders WHERE environment = $1 AND order_id = $2`;

interface Figures {
  byRef: number[];
  resolve: number[];
  resolveInOne: number[];
  orderIndexFind: number[];
}

async function measure(engine: StoreEngine): Promise<Figures> {
  const byRef: number[] = [];
  const resolve: number[] = [];
  const inOne: number[] = [];
  const viaIndex: number[] = [];
  const index = new OrderIndex(engine);
  const pick = () => Math.floor(Math.random() * orderCount);
  for (let i = 0; i < 1_000; i += 1) await engine.query(`SELECT ${columns} FROM orders WHERE environment = $1 AND order_ref = $2`, ['test', orderRef(pick())]);
  for (let i = 0; i < lookupCount; i += 1) {
    const n = pick();
    let started = performance.now();
    const [row] = await engine.query(`SELECT ${columns} FROM orders WHERE environment = $1 AND order_ref = $2`, ['test', orderRef(n)]);
    byRef.push(performance.now() - started);
    if (row?.order_id !== orderId(n)) throw new Error(`lookup of ${orderRef(n)} found ${String(row?.order_id)}`);
    // A quarter each: a ref, a barcode, an order id, and a scan nothing matches.
    const scan = [orderRef(n), barcode(n), orderId(n), `UNKNOWN-${n}`][i % 4]!;
    started = performance.now();
    await engine.query(`SELECT ${columns} FROM orders WHERE environment = $1 AND order_ref = $2`, ['test', scan]);
    await engine.query(`SELECT ${columns} FROM orders WHERE environment = $1 AND barcode = $2`, ['test', scan]);
    await engine.query(`SELECT ${columns} FROM orders WHERE environment = $1 AND order_id = $2`, ['test', scan]);
    resolve.push(performance.now() - started);
    started = performance.now();
    const matches = await engine.query(resolveInOne, ['test', scan]);
    inOne.push(performance.now() - started);
    if (matches.length !== (i % 4 === 3 ? 0 : 1)) throw new Error(`resolving ${scan} found ${matches.length} rows`);
    started = performance.now();
    const found = await index.find('test', scan);
    viaIndex.push(performance.now() - started);
    if (found.length !== (i % 4 === 3 ? 0 : 1)) throw new Error(`OrderIndex.find(${scan}) found ${found.length} orders`);
  }
  const sorted = (values: number[]) => values.sort((a, b) => a - b);
  return { byRef: sorted(byRef), resolve: sorted(resolve), resolveInOne: sorted(inOne), orderIndexFind: sorted(viaIndex) };
}

function report(name: string, seconds: number, size: string, figures: Figures) {
  console.log(`\n${name}: ${orderCount.toLocaleString('en')} orders loaded in ${seconds.toFixed(1)} s (${Math.round(orderCount / seconds).toLocaleString('en')} orders/s), ${size}`);
  for (const [label, sorted] of [
    ['lookup by order ref (1 query)', figures.byRef],
    ['scan resolution (ref, barcode, id: 3 queries)', figures.resolve],
    ['scan resolution in one UNION ALL query', figures.resolveInOne],
    ['OrderIndex.find (the ported index: one UNION ALL, rows parsed)', figures.orderIndexFind],
  ] as const) {
    console.log(`  ${label}: p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted[sorted.length - 1] ?? 0)}`);
  }
}

const server = await startPostgresServer();
const folder = mkdtempSync(join(tmpdir(), 'station-bench-'));
try {
  const database = await createTestDatabase(server.info);
  const postgres = await PostgresEngine.open({ ...database.info, tls: 'disable' });
  try {
    const seconds = await fill(postgres);
    const [size] = await postgres.query<{ size: string }>('SELECT pg_size_pretty(pg_database_size(current_database())) AS size');
    const [plan] = await postgres.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT ${columns} FROM orders WHERE environment = 'test' AND order_ref = 'REF-1'`);
    report('PostgreSQL 127.0.0.1 (pg pool)', seconds, `${size?.size} database`, await measure(postgres));
    console.log(`  plan: ${plan?.['QUERY PLAN']}`);
  } finally {
    await postgres.close();
  }

  const file = join(folder, 'station.db');
  const sqlite = SqliteEngine.open(file);
  try {
    const seconds = await fill(sqlite);
    report('SQLite (libsql, the station file)', seconds, `${Math.round(statSync(file).size / 1e6)} MB file`, await measure(sqlite));
  } finally {
    await sqlite.close();
  }
} finally {
  await server.dispose();
  rmSync(folder, { recursive: true, force: true });
}
