/**
 * Scan-to-printer latency: from a scan entering the station's core (printing.print through the
 * contract's dispatcher) to the last byte of the label arriving at the virtual Zebra, against the
 * sandbox with 20 ms latency injected on every API answer. In the same run, interleaved, a
 * minimal script does only what cannot be avoided: the HTTP GET of the label (keep-alive) and the
 * write to an open socket. The ratio is the station's overhead.
 * Run: npx tsx bench/print-latency.ts [scans=200] [latencyMs=20]
 */
import net from 'node:net';
import { Agent, request } from 'undici';
import { percentile, startPrintBench } from './print-support';

const scans = Number(process.argv[2] ?? 200);
const latencyMs = Number(process.argv[3] ?? 20);

const bench = await startPrintBench({ sandbox: { orders: 1400, faults: { latencyMs } }, zebra: { labelsPerSecond: 1000 } });
if (bench.orders.length < scans * 2 + 10) throw new Error(`only ${bench.orders.length} printable orders for ${scans * 2} scans`);

// Each label's arrival: the printer's 'received' event, when the format's last byte (^XZ) is read.
let arrived: (() => void) | null = null;
bench.zebra.on('received', () => arrived?.());
const nextArrival = () => new Promise<number>((resolve) => (arrived = () => resolve(performance.now())));

// The minimal client: one keep-alive connection to the API, one open socket to the printer.
const api = bench.sandbox.environments.test;
const key = api.companies[0]?.apiKey ?? '';
const agent = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
const socket = net.connect({ host: '127.0.0.1', port: bench.zebraPort, noDelay: true });
await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
socket.on('data', () => undefined);

async function minimal(orderId: string): Promise<number> {
  const arrival = nextArrival();
  const started = performance.now();
  const response = await request(`${api.baseUrl}/orders/label/${encodeURIComponent(orderId)}?format=zpl&orientation=landscape`, {
    dispatcher: agent,
    headers: { 'api-key': key, accept: 'application/json' },
  });
  const body = (await response.body.json()) as { label: string };
  socket.write(Buffer.from(body.label, 'base64'));
  return (await arrival) - started;
}

async function station(orderRef: string): Promise<number> {
  const arrival = nextArrival();
  const started = performance.now();
  const outcome = await bench.call<{ outcome: string }>('printing.print', { scan: orderRef });
  if (outcome.outcome !== 'printed') throw new Error(`${orderRef}: ${outcome.outcome}`);
  return (await arrival) - started;
}

// Warm-up: connections, JIT, the printer's first labels; not counted.
for (let i = 0; i < 5; i++) {
  await station(bench.orders[i]?.orderRef ?? '');
  await minimal(bench.orders[i + 5]?.orderId ?? '');
}

const stationTimes: number[] = [];
const minimalTimes: number[] = [];
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
for (let i = 0; i < scans; i++) {
  const a = bench.orders[10 + 2 * i];
  const b = bench.orders[11 + 2 * i];
  if (!a || !b) break;
  // Alternate which goes first, so neither always meets a warmer cache.
  if (i % 2 === 0) {
    stationTimes.push(await station(a.orderRef));
    await pause();
    minimalTimes.push(await minimal(b.orderId));
  } else {
    minimalTimes.push(await minimal(b.orderId));
    await pause();
    stationTimes.push(await station(a.orderRef));
  }
  await pause();
}

const report = (name: string, times: number[]) => {
  const sorted = [...times].sort((x, y) => x - y);
  return { name, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN };
};
const s = report('station (scan → printer)', stationTimes);
const m = report('minimal GET + socket write', minimalTimes);
console.log(`${scans} scans each, sandbox latency ${latencyMs} ms per answer, printer on loopback`);
for (const row of [s, m]) console.log(`${row.name.padEnd(28)} p50 ${row.p50.toFixed(1)} ms   p99 ${row.p99.toFixed(1)} ms   max ${row.max.toFixed(1)} ms`);
console.log(`ratio station / minimal      p50 ${(s.p50 / m.p50).toFixed(3)}   p99 ${(s.p99 / m.p99).toFixed(3)}`);
console.log(`station overhead             p50 ${(s.p50 - m.p50).toFixed(1)} ms   p99 ${(s.p99 - m.p99).toFixed(1)} ms`);

socket.destroy();
await agent.close();
await bench.close();
