/**
 * Scan lookup latency with 1,000,000 orders in the index: p50 / p99 of resolving a scan through
 * the order lookup (normalisation + three indexed lookups) and through the contract's dispatcher.
 * Run: npx tsx bench/lookup.ts [orders] [lookups]
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { OrderFacts } from '../src/main/orders/order-index';
import { createTestStation } from '../test/support/station';

const orderCount = Number(process.argv[2] ?? 1_000_000);
const lookupCount = Number(process.argv[3] ?? 20_000);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const micros = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

// The station's real composition root over a temporary data folder.
const test = await createTestStation();
try {
  const { orders, lookup } = test.station.services;
  await test.station.dispatcher.dispatch('settings.set', { environment: 'test' }, { host: 'web' });

  const fillStarted = performance.now();
  const batch = 10_000;
  for (let start = 0; start < orderCount; start += batch) {
    const facts: OrderFacts[] = [];
    for (let n = start; n < Math.min(orderCount, start + batch); n += 1) {
      facts.push({ orderId: `ord_${n.toString(36).padStart(8, '0')}`, orderRef: `REF-${n}`, barcode: `3SPSB${String(n).padStart(10, '0')}`, bundleId: `B-${Math.floor(n / 5)}`, status: 'draft' as const });
    }
    await orders.transaction((tx) => orders.upsertBatch(tx, 'test', facts, 'import'));
  }
  const fillSeconds = (performance.now() - fillStarted) / 1000;
  const dbBytes = statSync(join(test.dataDir, 'station.db')).size + (statSync(join(test.dataDir, 'station.db-wal'), { throwIfNoEntry: false })?.size ?? 0);
  console.log(`index: ${(await orders.count('test')).toLocaleString('en')} orders written in ${fillSeconds.toFixed(1)} s (${Math.round(orderCount / fillSeconds).toLocaleString('en')} orders/s), database ${(dbBytes / 1024 / 1024).toFixed(0)} MB`);

  const scans: string[] = [];
  for (let n = 0; n < lookupCount; n += 1) {
    const id = Math.floor(Math.random() * orderCount);
    const kind = n % 4;
    scans.push(kind === 0 ? `REF-${id}` : kind === 1 ? `]C1 3SPSB${String(id).padStart(10, '0')}\r\n` : kind === 2 ? `ord_${id.toString(36).padStart(8, '0')}` : `UNKNOWN-${n}`);
  }

  const measure = async (label: string, resolve: (scan: string) => Promise<unknown>) => {
    for (const scan of scans.slice(0, 2000)) await resolve(scan); // warm-up
    const timings: number[] = [];
    for (const scan of scans) {
      const started = performance.now();
      await resolve(scan);
      timings.push(performance.now() - started);
    }
    timings.sort((a, b) => a - b);
    console.log(`${label}: p50 ${micros(percentile(timings, 50))}, p99 ${micros(percentile(timings, 99))}, max ${micros(timings.at(-1) ?? 0)} over ${timings.length.toLocaleString('en')} scans (¾ hits by ref, barcode with AIM prefix, order id; ¼ unknown)`);
  };

  await measure('order lookup', (scan) => lookup.lookup('test', scan, { remote: false }).catch(() => null));
  await measure('orders.lookup through the dispatcher', (scan) => test.station.dispatcher.dispatch('orders.lookup', { scan, remote: false }, { host: 'web' }));
} finally {
  await test.dispose();
}
