/**
 * Sandbox throughput and start-up time, measured from a second process.
 *
 *   npx tsx bench/sandbox-throughput.ts [--seconds 5] [--concurrency 16] [--runs 3]
 *
 * Spawns the sandbox CLI (`npx tsx src/sandbox/cli.ts`, no injected latency, rate limit off, no
 * printers) on loopback, waits for its first line, then loads label fetches with undici keep-alive
 * connections after an unmeasured warm-up: each scenario is bounded in time and in request count.
 * Prints start-up times and requests/s with latency percentiles.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '16' },
    runs: { type: 'string', default: '3' },
    'max-requests': { type: 'string', default: '200000' },
  },
});
const seconds = Math.min(60, Math.max(1, Number(values.seconds)));
const concurrency = Math.min(256, Math.max(1, Number(values.concurrency)));
const startRuns = Math.min(10, Math.max(1, Number(values.runs)));
const maxRequests = Math.max(100, Number(values['max-requests']));

interface Description {
  environments: { test: { baseUrl: string; companies: { name: string; apiKey: string }[] } };
  control: { baseUrl: string; token: string };
}

interface Started {
  description: Description;
  /** Spawn to first line, whole process (npx, tsx compile, seeding, listening). */
  spawnMs: number;
  /** What the sandbox reports for startSandbox() itself. */
  readyMs: number;
  stop(): Promise<void>;
}

function startCli(): Promise<Started> {
  const began = performance.now();
  const child = spawn('npx', ['tsx', 'src/sandbox/cli.ts', '--rate-limit', '0', '--label-delay', '0', '--printers', '0'], { stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}) before it was ready:\n${stderr}`)));
    lines.once('line', (line) => {
      const spawnMs = performance.now() - began;
      const description = JSON.parse(line) as Description;
      const waitReady = () => {
        const ready = /ready in (\d+) ms/.exec(stderr);
        if (!ready) return setTimeout(waitReady, 10);
        child.removeAllListeners('exit');
        resolve({
          description,
          spawnMs,
          readyMs: Number(ready[1]),
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      };
      waitReady();
    });
  });
}

interface Result {
  requests: number;
  errors: number;
  seconds: number;
  latencies: number[];
}

async function load(pool: Pool, paths: () => string, headers: Record<string, string>, limitSeconds: number, limitRequests: number): Promise<Result> {
  const latencies: number[] = [];
  let requests = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + limitSeconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline && requests < limitRequests) {
      requests += 1;
      const t0 = performance.now();
      try {
        const answer = await pool.request({ method: 'GET', path: paths(), headers });
        await answer.body.text();
        if (answer.statusCode !== 200) errors += 1;
      } catch {
        errors += 1;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { requests, errors, seconds: (performance.now() - started) / 1000, latencies };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

function report(name: string, result: Result): void {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const rate = result.requests / result.seconds;
  console.log(
    `${name.padEnd(44)} ${rate.toFixed(0).padStart(7)} req/s   p50 ${percentile(sorted, 50).toFixed(2)} ms   p99 ${percentile(sorted, 99).toFixed(2)} ms   ` +
      `(${result.requests} requests in ${result.seconds.toFixed(1)} s, ${result.errors} errors)`,
  );
}

async function main(): Promise<void> {
  console.log(`Sandbox throughput: concurrency ${concurrency}, ${seconds} s per scenario, loopback only, Node ${process.version}`);

  const startTimes: { spawnMs: number; readyMs: number }[] = [];
  for (let i = 0; i < startRuns - 1; i++) {
    const run = await startCli();
    startTimes.push({ spawnMs: run.spawnMs, readyMs: run.readyMs });
    await run.stop();
  }
  const sandbox = await startCli();
  startTimes.push({ spawnMs: sandbox.spawnMs, readyMs: sandbox.readyMs });
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  console.log(
    `start-up: startSandbox() ready in ${median(startTimes.map((t) => t.readyMs))} ms (median of ${startTimes.length}); ` +
      `spawn "npx tsx src/sandbox/cli.ts" to first line ${median(startTimes.map((t) => t.spawnMs)).toFixed(0)} ms`,
  );

  try {
    const { test } = sandbox.description.environments;
    const base = new URL(test.baseUrl);
    const company = test.companies[0]!;
    const headers = { 'api-key': company.apiKey };
    const today = await fetch(`${sandbox.description.control.baseUrl}/environments/test/todays-orders`, { headers: { authorization: `Bearer ${sandbox.description.control.token}` } });
    const listed = ((await today.json()) as { orders: { orderId: string; bundleId: string; companyName: string; zplAvailable: boolean }[] }).orders;
    const orders = listed.filter((order) => order.companyName === company.name && order.zplAvailable);
    const other = test.companies[1]!;
    const warmOrders = listed.filter((order) => order.companyName === other.name && order.zplAvailable);
    const bundles = [...new Set(orders.map((order) => order.bundleId))];
    let next = 0;
    const cycle = <T>(list: T[]) => () => list[next++ % list.length]!;
    const pool = new Pool(base.origin, { connections: concurrency, pipelining: 1 });
    const order = cycle(orders);
    const bundle = cycle(bundles);

    // Warm-up, not measured: JIT-compile the server's paths on another company's orders, so the
    // measured company's labels are still unrendered for the "first fetch" scenarios.
    const warm = cycle(warmOrders);
    const warmFormats = cycle(['zpl', 'pdf']);
    await load(pool, () => `${base.pathname}/orders/label/${warm().orderId}?format=${warmFormats()}`, { 'api-key': other.apiKey }, 3, maxRequests);

    report(`ZPL label, first fetch of ${orders.length} orders (renders)`, await load(pool, () => `${base.pathname}/orders/label/${order().orderId}?format=zpl&orientation=portrait`, headers, seconds, orders.length));
    report('ZPL label, repeated fetches (cached)', await load(pool, () => `${base.pathname}/orders/label/${order().orderId}?format=zpl&orientation=portrait`, headers, seconds, maxRequests));
    report(`PDF label, first fetch of ${orders.length} orders (renders)`, await load(pool, () => `${base.pathname}/orders/label/${order().orderId}?format=pdf&orientation=landscape`, headers, seconds, orders.length));
    report('PDF label, repeated fetches (cached)', await load(pool, () => `${base.pathname}/orders/label/${order().orderId}?format=pdf&orientation=landscape`, headers, seconds, maxRequests));
    report(`bundle PDF, ${bundles.length} bundles (renders, then cached)`, await load(pool, () => `${base.pathname}/orders/label/bundle/${bundle()}`, headers, seconds, maxRequests));
    report('pickup point search (4,000 points)', await load(pool, () => `${base.pathname}/pickup-points?countryCode=NL&postalCode=3011AB&maxResults=10`, headers, seconds, maxRequests));
    await pool.close();
  } finally {
    await sandbox.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
