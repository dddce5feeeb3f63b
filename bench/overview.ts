/**
 * The first-run samples and the day's bundle list with 1,000,000 orders in the index, learnt
 * 3,000 a day over the past year (orders in bundles of five).
 * Run: npx tsx bench/overview.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderIndex } from '../src/main/orders/order-index';
import { OrderOverview } from '../src/main/orders/order-overview';
import { openDatabase } from '../src/main/store/database';
import { SqliteEngine } from '../src/main/store/engine/sqlite-engine';

const folder = mkdtempSync(join(tmpdir(), 'bench-overview-'));
const db = openDatabase(join(folder, 'station.db'));
const insert = db.prepare(
  `INSERT INTO orders (environment, order_id, order_ref, barcode, bundle_id, recipient, status, source, created_at, updated_at)
   VALUES ('live', ?, ?, ?, ?, 'Anna de Vries', 'draft', 'import', ?, ?)`,
);
const orders = 1_000_000;
const perDay = 3_000;
const firstDay = Date.UTC(2026, 0, 1);
db.transaction(() => {
  for (let i = 0; i < orders; i++) {
    const learnt = new Date(firstDay + Math.floor(i / perDay) * 86_400_000 + (i % perDay) * 1_000).toISOString();
    insert.run(`o${i}`, `REF-${i}`, `3SPS${i}`, `B-${Math.floor(i / 5)}`, learnt, learnt);
  }
})();

const engine = new SqliteEngine(db, false);
const overview = new OrderOverview(engine, new OrderIndex(engine));
const day = new Date(firstDay + 150 * 86_400_000).toISOString().slice(0, 10);
const time = async (run: () => Promise<unknown>) => {
  const samples: number[] = [];
  for (let n = 0; n < 20; n++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return `p50 ${samples[10]!.toFixed(2)} ms, max ${samples[19]!.toFixed(2)} ms`;
};
console.log(`${orders.toLocaleString('en')} orders in the index`);
console.log(`orders.samples (5)              ${await time(() => overview.samples('live', 5))}`);
console.log(`orders.bundles (one day, ${(await overview.bundles('live', { day, unprintedOnly: true })).length} bundles) ${await time(() => overview.bundles('live', { day, unprintedOnly: true }))}`);
db.close();
rmSync(folder, { recursive: true, force: true });
