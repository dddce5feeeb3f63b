/**
 * The to-ship import's figures, through the station's contract on a fresh data folder: a file of
 * 20,000 good rows and one 70 KB record (answer and rows stored), then N good rows imported while
 * a scan is asked 25 ms after each answer (how long the import takes, how late scans are answered
 * counted from when they were due, how much the process grew).
 * Run: npx tsx bench/to-ship-import.ts [rows=30000]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { composeStation } from '../src/main/composition';
import { createLogger } from '../src/main/logging/logger';
import { memoryKeyStore } from '../test/support/station';

const rowCount = Number(process.argv[2] ?? 30_000);
const header = 'orderRef,locationId,deliveryStreet,deliveryNumber,deliveryPostalCode,deliveryCity,deliveryCountry,deliveryName';
const row = (ref: string, name = 'Anna de Vries') => `${ref},1101,Damrak,1,1012 LG,Amsterdam,NL,${name}`;
const rows = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => row(`${prefix}-${index + 1}`));

const dataDir = mkdtempSync(join(tmpdir(), 'bench-to-ship-'));
const station = await composeStation({ dataDir, host: 'web', version: 'bench', logger: createLogger(() => undefined, { level: 'error' }), keyStore: memoryKeyStore() });
const dispatch = (name: string, input: unknown) => station.dispatcher.dispatch(name, input, { host: 'web' });
const picked = (path: string) => ({ source: { kind: 'picked', handle: station.services.pickedFiles.register(path) } });
const stored = () => (station.services.db.prepare('SELECT COUNT(*) AS n FROM to_ship_orders').get() as { n: number }).n;
try {
  await dispatch('settings.set', { environment: 'test' });
  const broken = join(dataDir, 'broken.csv');
  writeFileSync(broken, [header, ...rows(20_000, 'GOOD'), row('HUGE', 'x'.repeat(70 * 1024))].join('\n'));
  const refused = await dispatch('shipping.import', picked(broken));
  console.log(`20,000 good rows + one 70 KB record: ${refused.ok ? 'imported' : `${refused.error.code} "${refused.error.message.slice(0, 90)}…"`}; rows stored ${stored()}`);
  station.services.db.prepare('DELETE FROM to_ship_orders').run();

  const large = join(dataDir, 'large.csv');
  writeFileSync(large, [header, ...rows(rowCount, 'BIG')].join('\n'));
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const started = performance.now();
  const importing = dispatch('shipping.import', picked(large));
  let done = false;
  void importing.finally(() => (done = true));
  const waits: number[] = [];
  while (!done) {
    const due = performance.now() + 25;
    await new Promise((resolve) => setTimeout(resolve, 25));
    await dispatch('orders.lookup', { scan: 'NOT-AN-ORDER', remote: false });
    waits.push(performance.now() - due);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }
  await importing;
  waits.sort((a, b) => a - b);
  const at = (share: number) => Math.round(waits[Math.min(waits.length - 1, Math.floor(waits.length * share))] ?? 0);
  console.log(
    `${rowCount} rows imported in ${Math.round(performance.now() - started)} ms (${stored()} stored); ${waits.length} scans meanwhile, answered after their due time: median ${at(0.5)} ms, p95 ${at(0.95)} ms, slowest ${Math.round(waits.at(-1) ?? 0)} ms; process grew ${Math.round((rssPeak - rssBefore) / 1024 / 1024)} MB`,
  );
} finally {
  await station.close();
  rmSync(dataDir, { recursive: true, force: true });
}
