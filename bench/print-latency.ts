/**
 * Scan-to-printer latency over the whole path the screen uses. The station, its web host, the
 * sandbox (20 ms added to every API answer) and a virtual Zebra (1,000 labels/s, never the
 * bottleneck) run in a child process, as `npm run web` does; this process plays the page: it opens
 * the host's WebSocket with the session cookie and sends printing.print. The time runs from the
 * scan leaving for the host's socket to the answer that the printer confirmed it has the label
 * (its ~HS reply, read after the label on the same connection). The proof that the label printed
 * follows later as an event and is not on this path.
 * In the same run, interleaved, the floor: a minimal client that only does what cannot be avoided
 * — the label's HTTP GET (keep-alive), the write to an open printer socket and one status read
 * (~HS) on it — against the same sandbox and printer. The ratio is the station's overhead.
 * Run: npx tsx bench/print-latency.ts [scans=200] [latencyMs=20]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { z } from 'zod';
import { startWebHost } from '../src/main/web-host/server';
import { percentile, startPrintBench } from './print-support';

const StationSideSchema = z.object({
  hostUrl: z.string(),
  hostPort: z.number().int(),
  launchUrl: z.string(),
  zebraPort: z.number().int(),
  apiBaseUrl: z.string(),
  apiKey: z.string(),
  orders: z.array(z.object({ orderRef: z.string(), orderId: z.string() })),
});
type StationSide = z.infer<typeof StationSideSchema>;

/** The child: station, web host, sandbox and printer; says where they are on its first line, stops when stdin closes. */
async function stationSide(latencyMs: number): Promise<void> {
  const bench = await startPrintBench({ sandbox: { orders: 1400, faults: { latencyMs } }, zebra: { labelsPerSecond: 1000 } });
  const rendererDir = mkdtempSync(join(tmpdir(), 'bench-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Packing Station</title>');
  mkdirSync(join(rendererDir, 'assets'));
  const host = await startWebHost({ station: bench.station, rendererDir });
  const side: StationSide = {
    hostUrl: host.url,
    hostPort: host.port,
    launchUrl: host.launchUrl,
    zebraPort: bench.zebraPort,
    apiBaseUrl: bench.sandbox.environments.test.baseUrl,
    apiKey: bench.sandbox.environments.test.companies[0]?.apiKey ?? '',
    // Drafts: a scan of an order the service already has as printed elsewhere asks first.
    orders: bench.orders.filter((order) => order.status === 'draft').map(({ orderRef, orderId }) => ({ orderRef, orderId })),
  };
  process.stdout.write(`${JSON.stringify(side)}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve));
  await host.close();
  await bench.close();
  rmSync(rendererDir, { recursive: true, force: true });
}

const ETX = String.fromCharCode(3);

type CallResult = { ok: boolean; value?: { outcome: string }; error?: { code: string; message: string } };

/** The page: a signed-in WebSocket to the web host. */
async function openPage(side: StationSide) {
  const launch = await fetch(side.launchUrl, { redirect: 'manual' });
  const cookie = (launch.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const page = await new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${side.hostPort}/station`, { headers: { cookie, origin: side.hostUrl } });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`socket refused: ${response.statusCode}`)));
    socket.once('error', reject);
  });
  const answers = new Map<number, (result: CallResult) => void>();
  page.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string; id?: number; result?: CallResult };
    if (message.type === 'result' && message.id !== undefined && message.result) answers.get(message.id)?.(message.result);
  });
  let nextId = 1;
  return {
    async scan(orderRef: string): Promise<number> {
      const id = nextId++;
      const answered = new Promise<CallResult>((resolve) => answers.set(id, resolve));
      const started = performance.now();
      page.send(JSON.stringify({ type: 'call', id, name: 'printing.print', input: { scan: orderRef } }));
      const result = await answered;
      const elapsed = performance.now() - started;
      answers.delete(id);
      if (!result.ok) throw new Error(`${orderRef}: ${result.error?.code} ${result.error?.message}`);
      if (result.value?.outcome !== 'printed') throw new Error(`${orderRef}: ${result.value?.outcome}`);
      return elapsed;
    },
    close: () => page.close(),
  };
}

/** The floor: one keep-alive connection to the API, one open socket to the printer. */
async function openFloor(side: StationSide) {
  const agent = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
  const printer = net.connect({ host: '127.0.0.1', port: side.zebraPort, noDelay: true });
  await new Promise<void>((resolve) => printer.once('connect', () => resolve()));
  let inbound = '';
  let replied: (() => void) | null = null;
  printer.on('data', (chunk: Buffer) => {
    inbound += chunk.toString('latin1');
    // A ~HS answer is three framed strings (STX … ETX).
    if (inbound.split(ETX).length > 3) {
      inbound = '';
      replied?.();
    }
  });
  return {
    async print(orderId: string): Promise<number> {
      const started = performance.now();
      const response = await request(`${side.apiBaseUrl}/orders/label/${encodeURIComponent(orderId)}?format=zpl&orientation=landscape`, {
        dispatcher: agent,
        headers: { 'api-key': side.apiKey, accept: 'application/json' },
      });
      const body = (await response.body.json()) as { label: string };
      const answered = new Promise<void>((resolve) => (replied = resolve));
      printer.write(Buffer.from(body.label, 'base64'));
      printer.write('~HS');
      await answered;
      return performance.now() - started;
    },
    async close() {
      printer.destroy();
      await agent.close();
    },
  };
}

async function measure(scans: number, latencyMs: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'station', String(latencyMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the station side ended (${code}) before it started`)));
  });
  const side = StationSideSchema.parse(JSON.parse(firstLine));
  if (side.orders.length < scans * 2 + 10) throw new Error(`only ${side.orders.length} printable orders for ${scans * 2} scans`);
  const page = await openPage(side);
  const floor = await openFloor(side);

  // Warm-up: connections, JIT, the printer's first labels; not counted.
  for (let i = 0; i < 5; i++) {
    await page.scan(side.orders[i]?.orderRef ?? '');
    await floor.print(side.orders[i + 5]?.orderId ?? '');
  }
  const stationTimes: number[] = [];
  const floorTimes: number[] = [];
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  for (let i = 0; i < scans; i++) {
    const a = side.orders[10 + 2 * i];
    const b = side.orders[11 + 2 * i];
    if (!a || !b) break;
    // Alternate which goes first, so neither always meets a warmer cache.
    if (i % 2 === 0) {
      stationTimes.push(await page.scan(a.orderRef));
      await pause();
      floorTimes.push(await floor.print(b.orderId));
    } else {
      floorTimes.push(await floor.print(b.orderId));
      await pause();
      stationTimes.push(await page.scan(a.orderRef));
    }
    await pause();
  }

  const report = (name: string, times: number[]) => {
    const sorted = [...times].sort((x, y) => x - y);
    return { name, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN };
  };
  const s = report('station (web socket → printer)', stationTimes);
  const m = report('floor GET + write + ~HS', floorTimes);
  console.log(`${stationTimes.length} scans each, sandbox latency ${latencyMs} ms per answer, printer on loopback`);
  for (const row of [s, m]) console.log(`${row.name.padEnd(32)} p50 ${row.p50.toFixed(1)} ms   p99 ${row.p99.toFixed(1)} ms   max ${row.max.toFixed(1)} ms`);
  console.log(`ratio station / floor            p50 ${(s.p50 / m.p50).toFixed(3)}   p99 ${(s.p99 / m.p99).toFixed(3)}`);
  console.log(`station overhead                 p50 ${(s.p50 - m.p50).toFixed(1)} ms   p99 ${(s.p99 - m.p99).toFixed(1)} ms`);

  page.close();
  await floor.close();
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
}

if (process.argv[2] === 'station') await stationSide(Number(process.argv[3] ?? 20));
else await measure(Number(process.argv[2] ?? 200), Number(process.argv[3] ?? 20));
