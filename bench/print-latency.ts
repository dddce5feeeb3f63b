/**
 * Scan-to-printer latency over the whole path the screen uses. Two child processes: one runs the
 * sandbox (20 ms added to every API answer) and a virtual Zebra (1,000 labels/s, never the
 * bottleneck), as a remote service and a network printer; the other runs the station and its web
 * host, as `npm run web` does, on them. This process plays the page: it opens the host's WebSocket
 * with the session cookie and sends printing.print. The time runs from the scan leaving for the
 * host's socket to the answer that the printer confirmed it has the label (its ~HS reply, read
 * after the label on the same connection). The proof that the label printed follows as events; the
 * page waits for the run's printing.finished before the next measurement, so that work is never
 * timed inside another measurement.
 * In the same run, interleaved, the floor: a minimal client that only does what cannot be avoided
 * — the label's HTTP GET (keep-alive), the write to an open printer socket and one status read
 * (~HS) on it — against the same sandbox and printer. The ratio is the station's overhead.
 * Then 100 scans and 100 floor prints alone, for the CPU time of the station's process per scan.
 * Run: npx tsx bench/print-latency.ts [scans=200] [latencyMs=20]
 * BENCH_CPU_PROF=<folder>: a V8 CPU profile of the station's process over the scans alone.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import { z } from 'zod';
import { startWebHost } from '../src/main/web-host/server';
import type { RunningSandbox } from '../src/sandbox';
import { percentile, startBenchService, startBenchStation } from './print-support';

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

const ServiceSideSchema = z.object({
  /** The sandbox's addresses and keys (its SandboxDescription). */
  sandbox: z.object({
    environments: z.object({
      test: z.object({
        baseUrl: z.string(),
        companies: z.array(z.object({ name: z.string(), apiKey: z.string(), locationIds: z.array(z.string()) })),
        revokedKey: z.string(),
      }),
      live: z.object({
        baseUrl: z.string(),
        companies: z.array(z.object({ name: z.string(), apiKey: z.string(), locationIds: z.array(z.string()) })),
        revokedKey: z.string(),
      }),
    }),
    printers: z.array(z.object({ name: z.string(), host: z.string(), port: z.number().int(), discoveryPort: z.number().int() })),
    control: z.object({ baseUrl: z.string(), token: z.string() }),
  }),
  zebraPort: z.number().int(),
});
type ServiceSide = z.infer<typeof ServiceSideSchema>;

/**
 * The first child: the world outside the station — the sandbox (20 ms added to every API answer)
 * and the virtual Zebra — in a process of its own, as a remote service and a network printer are:
 * the station's own work does not delay their answers, nor theirs the station's.
 */
async function serviceSide(latencyMs: number): Promise<void> {
  const service = await startBenchService({ sandbox: { orders: 1400, faults: { latencyMs } }, zebra: { labelsPerSecond: 1000 } });
  const { environments, printers, control } = service.sandbox;
  const side: ServiceSide = { sandbox: { environments, printers, control }, zebraPort: service.zebraPort };
  process.stdout.write(`${JSON.stringify(side)}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve));
  await service.close();
}

/**
 * The second child: the station and its web host, on that sandbox and printer (its first stdin
 * line says where they are); says where the host is on its first line, stops when stdin closes.
 */
async function stationSide(profileDir: string | undefined): Promise<void> {
  const commands = createInterface({ input: process.stdin });
  const lines = commands[Symbol.asyncIterator]();
  const first = await lines.next();
  const service = ServiceSideSchema.parse(JSON.parse(String(first.value)));
  // Reached only through its addresses: nothing of it runs in this process.
  const sandbox: RunningSandbox = { ...service.sandbox, close: async () => undefined };
  const bench = await startBenchStation(sandbox, service.zebraPort);
  const rendererDir = mkdtempSync(join(tmpdir(), 'bench-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Packing Station</title>');
  mkdirSync(join(rendererDir, 'assets'));
  const host = await startWebHost({ station: bench.station, rendererDir });
  const side: StationSide = {
    hostUrl: host.url,
    hostPort: host.port,
    launchUrl: host.launchUrl,
    zebraPort: service.zebraPort,
    apiBaseUrl: service.sandbox.environments.test.baseUrl,
    apiKey: service.sandbox.environments.test.companies[0]?.apiKey ?? '',
    // Drafts: a scan of an order the service already has as printed elsewhere asks first.
    orders: bench.orders.filter((order) => order.status === 'draft').map(({ orderRef, orderId }) => ({ orderRef, orderId })),
  };
  process.stdout.write(`${JSON.stringify(side)}\n`);
  // Each further line on stdin asks for this process's CPU time so far, answered as one line; with
  // a profile folder, the first such line also starts a CPU profile and the next writes it there.
  const profiler = profileDir ? new Session() : null;
  profiler?.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) => profiler?.post(method, (error, result) => (error ? reject(error) : resolve(result))));
  let asked = 0;
  for await (const _line of { [Symbol.asyncIterator]: () => lines }) {
    if (profileDir && asked === 0) await post('Profiler.enable').then(() => post('Profiler.start'));
    if (profileDir && asked === 1) {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      writeFileSync(join(profileDir, `station-scans-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    }
    asked++;
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ user, system })}\n`);
  }
  profiler?.disconnect();
  await host.close();
  await bench.close();
  rmSync(rendererDir, { recursive: true, force: true });
}

const ETX = String.fromCharCode(3);

type CallResult = { ok: boolean; value?: { outcome: string; entry?: { runId: string } }; error?: { code: string; message: string } };

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
  // Runs the station has finished (their label proven printed and journaled), and who waits for one.
  const finished = new Set<string>();
  const finishWaiters = new Map<string, () => void>();
  page.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string; id?: number; result?: CallResult; name?: string; payload?: { runId?: string } };
    if (message.type === 'result' && message.id !== undefined && message.result) answers.get(message.id)?.(message.result);
    const runId = message.payload?.runId;
    if (message.type === 'event' && message.name === 'printing.finished' && runId) {
      finished.add(runId);
      finishWaiters.get(runId)?.();
    }
  });
  let nextId = 1;
  return {
    /** The time to the answer, and the scan's run. */
    async scan(orderRef: string): Promise<{ elapsed: number; runId: string }> {
      const id = nextId++;
      const answered = new Promise<CallResult>((resolve) => answers.set(id, resolve));
      const started = performance.now();
      page.send(JSON.stringify({ type: 'call', id, name: 'printing.print', input: { scan: orderRef } }));
      const result = await answered;
      const elapsed = performance.now() - started;
      answers.delete(id);
      if (!result.ok) throw new Error(`${orderRef}: ${result.error?.code} ${result.error?.message}`);
      if (result.value?.outcome !== 'printed' || !result.value.entry) throw new Error(`${orderRef}: ${result.value?.outcome}`);
      return { elapsed, runId: result.value.entry.runId };
    },
    /**
     * Resolves once the station has finished the run: the proof that the label printed and its
     * journal rows follow the answer, and the next measurement must not pay for them.
     */
    async finished(runId: string): Promise<void> {
      if (!finished.has(runId)) await new Promise<void>((resolve) => finishWaiters.set(runId, resolve));
      finishWaiters.delete(runId);
      finished.delete(runId);
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

const CpuAnswerSchema = z.object({ user: z.number(), system: z.number() });
type CpuTime = z.infer<typeof CpuAnswerSchema>;

/** A child process of this bench, talking in lines. */
function startChild(role: 'service' | 'station', ...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), role, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let lineArrived: (() => void) | null = null;
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    lineArrived?.();
  });
  const ended = new Promise<never>((_resolve, reject) => child.once('exit', (code) => reject(new Error(`the ${role} side ended (${code})`))));
  ended.catch(() => undefined);
  return {
    child,
    /** The next line it writes (rejects if it ends first). */
    async nextLine(): Promise<string> {
      const next = (async () => {
        while (lines.length === 0) await new Promise<void>((resolve) => (lineArrived = resolve));
        return lines.shift() as string;
      })();
      return Promise.race([next, ended]);
    },
    send: (line: string) => child.stdin.write(`${line}\n`),
    async stop(): Promise<void> {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    },
  };
}

async function measure(scans: number, latencyMs: number): Promise<void> {
  const service = startChild('service', String(latencyMs));
  const serviceLine = await service.nextLine();
  const station = startChild('station');
  station.send(serviceLine);
  const side = StationSideSchema.parse(JSON.parse(await station.nextLine()));
  const soloScans = Math.min(100, scans);
  const needed = 10 + 2 * scans + 2 * soloScans;
  if (side.orders.length < needed) throw new Error(`only ${side.orders.length} printable orders for ${needed - 10} scans`);
  const childCpu = async (): Promise<CpuTime> => {
    station.send('cpu');
    return CpuAnswerSchema.parse(JSON.parse(await station.nextLine()));
  };
  const page = await openPage(side);
  const floor = await openFloor(side);

  /** One scan, timed to its answer; returns once the station has also finished what follows it. */
  const scan = async (orderRef: string): Promise<number> => {
    const { elapsed, runId } = await page.scan(orderRef);
    await page.finished(runId);
    return elapsed;
  };
  // Warm-up: connections, JIT, the printer's first labels; not counted.
  for (let i = 0; i < 5; i++) {
    await scan(side.orders[i]?.orderRef ?? '');
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
      stationTimes.push(await scan(a.orderRef));
      await pause();
      floorTimes.push(await floor.print(b.orderId));
    } else {
      floorTimes.push(await floor.print(b.orderId));
      await pause();
      stationTimes.push(await scan(a.orderRef));
    }
    await pause();
  }

  // Alone, each side's cost in the station's process: the station's CPU per scan, and what that
  // process spends while only the floor prints (its timers and nothing else: the sandbox and the
  // printer run in the other child).
  let next = 10 + 2 * scans;
  const cpuOf = async (step: (orderIndex: number) => Promise<number>): Promise<CpuTime> => {
    const before = await childCpu();
    for (let i = 0; i < soloScans; i++) {
      await step(next++);
      await pause();
    }
    const after = await childCpu();
    return { user: (after.user - before.user) / soloScans, system: (after.system - before.system) / soloScans };
  };
  const scanCpu = await cpuOf((index) => scan(side.orders[index]?.orderRef ?? ''));
  const floorCpu = await cpuOf((index) => floor.print(side.orders[index]?.orderId ?? ''));

  const total = (cpu: CpuTime): number => cpu.user + cpu.system;
  const micros = (cpu: CpuTime): string => `${total(cpu).toFixed(0)} µs (user ${cpu.user.toFixed(0)}, system ${cpu.system.toFixed(0)})`;
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
  console.log(
    `CPU in the station's process     per scan ${micros(scanCpu)}, while the floor prints ${micros(floorCpu)}, the station's own ${(total(scanCpu) - total(floorCpu)).toFixed(0)} µs (${soloScans} each, alone)`,
  );

  page.close();
  await floor.close();
  await station.stop();
  await service.stop();
}

// BENCH_CPU_PROF=<folder>: the station side writes a V8 CPU profile of the scans measured alone there.
if (process.argv[2] === 'service') await serviceSide(Number(process.argv[3] ?? 20));
else if (process.argv[2] === 'station') await stationSide(process.env.BENCH_CPU_PROF);
else await measure(Number(process.argv[2] ?? 200), Number(process.argv[3] ?? 20));
