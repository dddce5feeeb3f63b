/**
 * Spreadsheet upload throughput: 1,000 rows from an .xlsx through the station (read in the bounded
 * worker, checked, each POST claimed in the creation ledger and settled with the order index and
 * the upload row in one transaction) against the sandbox with 20 ms latency on every answer and
 * its rate limit on (50 requests/s per key, bursts of 100). Side by side, a floor script sends the
 * same 1,000 POST /orders with the same concurrency (4) under the same rate limit, waiting out
 * each 429 as its Retry-After says and doing nothing else. Rounds alternate, with a pause between
 * them so the rate limit's bucket is full again at each start.
 * Run: npx tsx bench/upload.ts [rows=1000] [latencyMs=20] [rounds=2]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { Agent, request } from 'undici';
import { composeStation } from '../src/main/composition';
import { createLogger } from '../src/main/logging/logger';
import { startSandbox } from '../src/sandbox';

const rows = Number(process.argv[2] ?? 1000);
const latencyMs = Number(process.argv[3] ?? 20);
const rounds = Number(process.argv[4] ?? 2);
const concurrency = 4;

const sandbox = await startSandbox({ printers: 0, seedSize: 'small', faults: { latencyMs, labelDelayMs: 0 }, rateLimit: { requestsPerSecond: 50, burst: 100 } });
const api = sandbox.environments.test;
const key = api.companies[0]!.apiKey;
const dataDir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const body = (ref: string, n: number) => ({
  locationId: '1101',
  orderRef: ref,
  name: `Parcel ${n}`,
  deliveryName: `Klant ${n}`,
  deliveryAddress: { street: 'Keizersgracht', houseNumber: String(1 + (n % 400)), suffix: '', postalCode: '1016 DK', city: 'Amsterdam', countryCode: 'NL' },
  dimensions: { length: 300, width: 200, height: 100 },
  weight: 1200,
});

async function floor(round: number): Promise<number> {
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 30_000 });
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < rows) {
      const n = next++;
      for (;;) {
        const response = await request(`${api.baseUrl}/orders`, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'api-key': key, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body(`FLOOR-${round}-${n}`, n)),
        });
        await response.body.text();
        if (response.statusCode === 429) {
          await sleep(Number(response.headers['retry-after'] ?? 1) * 1000);
          continue;
        }
        if (response.statusCode >= 300) throw new Error(`floor POST: HTTP ${response.statusCode}`);
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return rows / seconds;
}

async function station(round: number): Promise<{ rate: number; peakRssMb: number; prepareMs: number }> {
  const file = join(dataDir, `upload-${round}.xlsx`);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Orders');
  const columns = ['orderRef', 'locationId', 'name', 'deliveryName', 'deliveryStreet', 'deliveryNumber', 'deliveryPostalCode', 'deliveryCity', 'deliveryCountry', 'length', 'width', 'height', 'weight'];
  sheet.addRow(columns);
  for (let n = 0; n < rows; n++) sheet.addRow([`STATION-${round}-${n}`, '1101', `Parcel ${n}`, `Klant ${n}`, 'Keizersgracht', String(1 + (n % 400)), '1016 DK', 'Amsterdam', 'NL', '300', '200', '100', '1200']);
  await book.xlsx.writeFile(file);

  const composed = await composeStation({
    dataDir: join(dataDir, `station-${round}`),
    host: 'web',
    version: 'bench',
    logger: createLogger(() => undefined, { level: 'error' }),
    keyStore: {
      has: async () => true,
      get: async () => ({ key, address: api.baseUrl }),
      set: async () => undefined,
      remove: async () => true,
    },
  });
  composed.settings.setApiBaseUrl('test', api.baseUrl);
  composed.settings.setEnvironment('test');
  const uploads = composed.services.uploads;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const prepareStarted = performance.now();
  const preview = await uploads.prepare('test', { kind: 'path', path: file }, ['1101']);
  const prepareMs = performance.now() - prepareStarted;
  if (preview.status.counts.ready !== rows) throw new Error(`preview: ${JSON.stringify(preview.status.counts)}`);
  const started = performance.now();
  await uploads.start('test', preview.status.uploadId);
  await uploads.settled(preview.status.uploadId);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const status = await uploads.status('test', preview.status.uploadId);
  if (status.counts.created !== rows) throw new Error(`station: ${JSON.stringify(status.counts)}`);
  await composed.close();
  return { rate: rows / seconds, peakRssMb: peakRss / 1024 / 1024, prepareMs };
}

const floors: number[] = [];
const stations: { rate: number; peakRssMb: number; prepareMs: number }[] = [];
for (let round = 0; round < rounds; round++) {
  await sleep(3000);
  floors.push(await floor(round));
  await sleep(3000);
  stations.push(await station(round));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const floorRate = median(floors);
const stationRate = median(stations.map((entry) => entry.rate));
console.log(`rows ${rows}, latency ${latencyMs} ms, rate limit 50/s burst 100, concurrency ${concurrency}, rounds ${rounds}`);
console.log(`floor   : ${floors.map((rate) => rate.toFixed(1)).join(', ')} rows/s (median ${floorRate.toFixed(1)})`);
console.log(`station : ${stations.map((entry) => entry.rate.toFixed(1)).join(', ')} rows/s (median ${stationRate.toFixed(1)})`);
console.log(`ratio   : ${(stationRate / floorRate).toFixed(3)}`);
console.log(`reading + checking ${rows} rows (preview): ${stations.map((entry) => entry.prepareMs.toFixed(0)).join(', ')} ms`);
console.log(`peak RSS of the process (station and sandbox together): ${Math.max(...stations.map((entry) => entry.peakRssMb)).toFixed(0)} MB`);
await sandbox.close();
rmSync(dataDir, { recursive: true, force: true });
