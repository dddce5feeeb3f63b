/**
 * Ten benches scanning together on one PostgreSQL store, next to one bench on SQLite (issue 16,
 * "Done when"). Each bench is a whole station in a process of its own (test/support/bench-fleet.ts)
 * with its own virtual Zebra (1,000 labels/s, never the bottleneck), on the sandbox with 20 ms
 * added to every API answer, as bench/print-latency.ts. The benches scan as packers do: the next
 * parcel once the last one's answer came (the printer confirmed it has the label), each bench its
 * own orders (no duplicates asked about), all benches at once. Figures: scans per second for the
 * warehouse, and scan-to-printer time — the station's own (`elapsedMs` of the answer: the scan
 * entering the station to the printer's confirmation) and the round trip seen by the page (here:
 * the parent, over the bench's IPC channel). This process runs the sandbox and the printers; the
 * load average is printed with the figures, since 11 processes share the machine's cores.
 *
 * The ten benches twice: as fast as answers come (the throughput), and at a packer's pace (a scan
 * every 500 ms at each bench: 20 scans/s for the warehouse, the concurrency test's rate), whose
 * scan-to-printer time is what a packer sees. Also one bench alone on PostgreSQL, to tell the
 * store's cost from the fleet's.
 *
 * Run: npx tsx bench/warehouse-scans.ts [scansPerBench=100] [latencyMs=20] [benches=10] [paceMs=500]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrintOutcomeSchema } from '../src/shared/contract/printing';
import { startSandbox, type RunningSandbox } from '../src/sandbox';
import { seedOrders, startFleet, type FleetStore } from '../test/support/bench-fleet';
import { buildChildScripts } from '../test/support/child-scripts';
import { createTestDatabase, startPostgresServer } from '../test/support/postgres-server';
import { percentile, type TodaysOrder } from './print-support';

interface Round {
  label: string;
  benches: number;
  scans: number;
  seconds: number;
  station: number[];
  roundTrip: number[];
  failures: Map<string, number>;
  load: number[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function todaysOrders(sandbox: RunningSandbox): Promise<TodaysOrder[]> {
  const response = await fetch(`${sandbox.control.baseUrl}/environments/test/todays-orders`, { headers: { authorization: `Bearer ${sandbox.control.token}` } });
  const company = sandbox.environments.test.companies[0]?.name;
  return ((await response.json()) as { orders: TodaysOrder[] }).orders.filter((order) => order.companyName === company && order.zplAvailable && order.status === 'draft');
}

/** paceMs: 0 scans the next parcel as soon as the answer came; else one scan every paceMs per bench, the benches staggered. */
async function round(label: string, sandbox: RunningSandbox, store: FleetStore, benches: number, perBench: number, orders: TodaysOrder[], paceMs = 0): Promise<Round> {
  await seedOrders(
    store,
    orders.map((order) => ({ orderId: order.orderId, orderRef: order.orderRef, barcode: order.barcode, bundleId: order.bundleId, status: 'draft' as const })),
  );
  const fleet = await startFleet({ benches, store, baseUrl: sandbox.environments.test.baseUrl, apiKey: sandbox.environments.test.companies[0]?.apiKey ?? '' });
  try {
    // One warm-up scan per bench (first connections to the service, the printer and the store).
    for (const bench of fleet.benches) await fleet.call(bench.index, 'printing.print', { scan: orders[bench.index]?.orderRef ?? '', printerId: bench.printerId() });
    const station: number[] = [];
    const roundTrip: number[] = [];
    const failures = new Map<string, number>();
    const started = performance.now();
    await Promise.all(
      fleet.benches.map(async (bench) => {
        if (paceMs > 0) await sleep((paceMs * bench.index) / benches);
        for (let n = 1; n <= perBench; n += 1) {
          const order = orders[benches * n + bench.index];
          if (!order) throw new Error('too few orders for this many scans');
          const sentAt = performance.now();
          const answer = await fleet.call(bench.index, 'printing.print', { scan: order.orderRef, printerId: bench.printerId() });
          const took = performance.now() - sentAt;
          const outcome = answer.ok ? PrintOutcomeSchema.parse(answer.value) : null;
          if (outcome?.outcome === 'printed') {
            station.push(outcome.elapsedMs);
            roundTrip.push(took);
          } else {
            const what = answer.ok ? (outcome?.outcome ?? 'unknown') : answer.code;
            failures.set(what, (failures.get(what) ?? 0) + 1);
          }
          if (paceMs > 0) await sleep(sentAt + paceMs - performance.now());
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { label, benches, scans: benches * perBench, seconds, station: station.sort((a, b) => a - b), roundTrip: roundTrip.sort((a, b) => a - b), failures, load: loadavg() };
  } finally {
    await fleet.close();
  }
}

function show(result: Round): void {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(
    [
      `${result.label}: ${result.benches} bench(es), ${result.scans} scans in ${result.seconds.toFixed(1)} s = ${(result.scans / result.seconds).toFixed(1)} scans/s`,
      `  scan to printer, station's own: p50 ${ms(percentile(result.station, 50))}, p99 ${ms(percentile(result.station, 99))}, max ${ms(result.station.at(-1) ?? Number.NaN)}`,
      `  round trip seen by the caller:  p50 ${ms(percentile(result.roundTrip, 50))}, p99 ${ms(percentile(result.roundTrip, 99))}`,
      `  not printed: ${result.failures.size === 0 ? 'none' : JSON.stringify(Object.fromEntries(result.failures))}; load average ${result.load.map((value) => value.toFixed(2)).join(' ')}`,
    ].join('\n'),
  );
}

async function main(): Promise<void> {
  const perBench = Number(process.argv[2] ?? 100);
  const latencyMs = Number(process.argv[3] ?? 20);
  const benches = Number(process.argv[4] ?? 10);
  const paceMs = Number(process.argv[5] ?? 500);
  const sandbox = await startSandbox({ printers: 0, orders: Math.max(2_400, benches * (perBench + 1) * 9), rateLimit: { requestsPerSecond: 0 }, faults: { latencyMs } });
  const server = await startPostgresServer();
  const folder = mkdtempSync(join(tmpdir(), 'station-warehouse-bench-'));
  // The benches run bundled, as in the integration tests (test/support/child-scripts.ts).
  const childScripts = await buildChildScripts();
  try {
    const orders = await todaysOrders(sandbox);
    console.log(`sandbox latency ${latencyMs} ms per answer; ${perBench} scans per bench after one warm-up scan each; ${orders.length} orders`);
    // Each round its own orders and store: none finds another's labels printed.
    const quarter = Math.floor(orders.length / 4);
    const part = (n: number) => orders.slice(n * quarter, (n + 1) * quarter);
    const warehouse = await createTestDatabase(server.info);
    show(await round('PostgreSQL, as fast as answers come', sandbox, { kind: 'postgres', connection: warehouse.info }, benches, perBench, part(0)));
    const paced = await createTestDatabase(server.info);
    show(await round(`PostgreSQL, a packer's pace (a scan every ${paceMs} ms per bench)`, sandbox, { kind: 'postgres', connection: paced.info }, benches, perBench, part(1), paceMs));
    const alone = await createTestDatabase(server.info);
    show(await round('PostgreSQL, one bench', sandbox, { kind: 'postgres', connection: alone.info }, 1, perBench, part(2)));
    show(await round('SQLite, one bench', sandbox, { kind: 'sqlite', file: join(folder, 'bench.db') }, 1, perBench, part(3)));
  } finally {
    rmSync(folder, { recursive: true, force: true });
    childScripts.remove();
    await server.dispose();
    await sandbox.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
