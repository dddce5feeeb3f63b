/**
 * Slip scan → last label byte at the printer, shipping 1 parcel and 3 parcels, against the sandbox
 * with 20 ms latency on every API answer. In the same run, interleaved, a floor script does only
 * what shipping cannot avoid: the routing check, the create(s) (the first creating the bundle, the
 * rest joining it), the label GET(s) and the write to an open printer socket, one after the other
 * as the station does. The ratio is the station's overhead (ledger writes, order index, journal,
 * print queue).
 * Run: npx tsx bench/ship-latency.ts [ships=40] [latencyMs=20]
 */
import net from 'node:net';
import { Agent, request } from 'undici';
import type { Shipment } from '../src/shared/contract/shipping';
import { percentile, startPrintBench } from './print-support';

const ships = Number(process.argv[2] ?? 40);
const latencyMs = Number(process.argv[3] ?? 20);

const bench = await startPrintBench({ sandbox: { seedSize: 'small', faults: { latencyMs, labelDelayMs: 0 }, rateLimit: { requestsPerSecond: 0 } }, zebra: { labelsPerSecond: 1000 } });

// Each label's arrival: the printer's 'received' event, when the format's last byte (^XZ) is read.
let waiting: { left: number; done: (at: number) => void } | null = null;
bench.zebra.on('received', () => {
  if (!waiting) return;
  waiting.left -= 1;
  if (waiting.left === 0) waiting.done(performance.now());
});
const lastArrival = (labels: number) => new Promise<number>((resolve) => (waiting = { left: labels, done: resolve }));

const api = bench.sandbox.environments.test;
const key = api.companies[0]?.apiKey ?? '';
const agent = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
const socket = net.connect({ host: '127.0.0.1', port: bench.zebraPort, noDelay: true });
await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
socket.on('data', () => undefined);

// Addresses the sandbox delivers from Amsterdam (1101) without correcting them.
const address = (n: number) => ({ street: 'Keizersgracht', houseNumber: String(100 + (n % 400)), suffix: '', postalCode: '1016 DK', city: 'Amsterdam', countryCode: 'NL' });

async function apiCall<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await request(`${api.baseUrl}${path}`, {
    method,
    dispatcher: agent,
    headers: { 'api-key': key, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.body.json()) as T;
  if (response.statusCode >= 300) throw new Error(`${method} ${path}: HTTP ${response.statusCode} ${JSON.stringify(json)}`);
  return json;
}

async function floor(n: number, parcels: number): Promise<number> {
  const arrival = lastArrival(parcels);
  const started = performance.now();
  const deliveryAddress = address(n);
  await apiCall('POST', '/orders/check/1101', { deliveryAddress });
  let bundleId: string | undefined;
  for (let parcel = 1; parcel <= parcels; parcel++) {
    const order = await apiCall<{ orderId: string; orderBundle: { bundleId: string } }>('POST', '/orders', {
      locationId: '1101',
      orderRef: `FLOOR-${n}-${parcel}`,
      deliveryName: 'Bench Floor',
      deliveryAddress,
      ...(bundleId ? { orderBundleId: bundleId } : {}),
    });
    bundleId ??= order.orderBundle.bundleId;
    const label = await apiCall<{ label: string }>('GET', `/orders/label/${encodeURIComponent(order.orderId)}?format=zpl&orientation=landscape`);
    socket.write(Buffer.from(label.label, 'base64'));
  }
  return (await arrival) - started;
}

let saved = 0;
async function toShip(parcels: number): Promise<string> {
  saved += 1;
  const shipment: Shipment = {
    orderRef: `SHIP-${saved}`,
    locationId: '1101',
    recipient: { name: 'Bench Station', email: null, phone: null },
    address: address(saved),
    parcels,
    pudoId: null,
    weight: null,
    dimensions: null,
    signature: false,
    notAtNeighbour: false,
    deliveryNote: null,
    deliveryDate: null,
    name: null,
  };
  await bench.station.services.toShip.save('sandbox', shipment, 'bench');
  return shipment.orderRef;
}

async function station(parcels: number): Promise<number> {
  const orderRef = await toShip(parcels);
  const arrival = lastArrival(parcels);
  const started = performance.now();
  const outcome = await bench.call<{ outcome: string; parcels?: { printed: string }[] }>('shipping.ship', { orderRef });
  if (outcome.outcome !== 'shipped' || outcome.parcels?.some((parcel) => parcel.printed !== 'printed')) throw new Error(`${orderRef}: ${JSON.stringify(outcome)}`);
  return (await arrival) - started;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
const report = (name: string, times: number[]) => {
  const sorted = [...times].sort((x, y) => x - y);
  return { name, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN };
};

console.log(`${ships} ships each, sandbox latency ${latencyMs} ms per answer, printer on loopback`);
let floorCounter = 0;
for (const parcels of [1, 3]) {
  // Warm-up: connections, JIT, the printer's first labels; not counted.
  for (let i = 0; i < 3; i++) {
    await station(parcels);
    await floor(floorCounter++, parcels);
  }
  const stationTimes: number[] = [];
  const floorTimes: number[] = [];
  for (let i = 0; i < ships; i++) {
    // Alternate which goes first, so neither always meets a warmer cache.
    if (i % 2 === 0) {
      stationTimes.push(await station(parcels));
      await pause();
      floorTimes.push(await floor(floorCounter++, parcels));
    } else {
      floorTimes.push(await floor(floorCounter++, parcels));
      await pause();
      stationTimes.push(await station(parcels));
    }
    await pause();
  }
  const s = report(`station, ${parcels} parcel(s)`, stationTimes);
  const f = report(`floor, ${parcels} parcel(s)`, floorTimes);
  for (const row of [s, f]) console.log(`${row.name.padEnd(22)} p50 ${row.p50.toFixed(1)} ms   p99 ${row.p99.toFixed(1)} ms   max ${row.max.toFixed(1)} ms`);
  console.log(`ratio station / floor  p50 ${(s.p50 / f.p50).toFixed(3)}   p99 ${(s.p99 / f.p99).toFixed(3)}`);
}

socket.destroy();
await agent.close();
await bench.close();
