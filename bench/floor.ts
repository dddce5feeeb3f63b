/**
 * The lead's floor at a warehouse's scale (issue 43): 50 benches reporting and following the floor
 * on one PostgreSQL store, each scanning every 2 s, while the store is stopped for 5 s, a bench is
 * killed and a printer is switched off.
 *
 * What runs: 50 full bench processes do not fit this 2-core machine (ten take about a minute of
 * both cores to start, and ten scanning use most of them). So the 50 are:
 *   - `benches` (default 10) whole stations in processes of their own (test/support/bench-fleet.ts),
 *     each started as the app starts, printing every scan at its own virtual Zebra and reporting
 *     through the station's floor; their floors send each change they hear on to this process;
 *   - `simulated` (default 40) lighter benches in `workers` processes (bench/floor-sim-worker.ts):
 *     the station's own FloorReporter, FloorStore and FloorView on a PostgreSQL engine each (its own
 *     LISTEN connection), whose "scan" moves the report's counters instead of printing a label.
 * Every floor times when it first saw each bench's scan (the report carries the scan's time).
 *
 * Figures:
 *   - change seen on every floor: from a scan to the moment the last of the floors alive showed it,
 *     in steady running and, for what changed while the store was stopped, from the store's return;
 *   - a killed bench: when the floors turned it "not answering" (the default 30 s of silence);
 *   - a printer switched off: from the switch to every floor showing it offline;
 *   - the journal: scans answered "printed", their rows, and any order with two live prints;
 *   - the scan path: the station's scan-to-printer time (`elapsedMs`) of the whole-station benches
 *     without the floor (a first round, the floor not started) and with it, at the same pace.
 *
 * Run: npx tsx bench/floor.ts [--benches=10] [--simulated=40] [--workers=4] [--seconds=100] [--paceMs=2000] [--plainSeconds=30]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { FloorBenchData } from '../src/shared/contract/floor';
import { PrintOutcomeSchema } from '../src/shared/contract/printing';
import { startSandbox, type RunningSandbox } from '../src/sandbox';
import { PostgresEngine } from '../src/main/store/engine/postgres-engine';
import { seedDraftOrders, startFleet, type Fleet, type FleetStore } from '../test/support/bench-fleet';
import { buildChildScripts } from '../test/support/child-scripts';
import { createTestDatabase, startPostgresServer, type PostgresServer } from '../test/support/postgres-server';
import { percentile, type TodaysOrder } from './print-support';
import type { SeenEvent, WorkerMessage } from './floor-sim-worker';

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=') as [string, string]));
const number = (name: string, fallback: number) => Number(args.get(name) ?? fallback);
const benches = number('benches', 10);
const simulatedCount = number('simulated', 40);
const workers = number('workers', 4);
const seconds = number('seconds', 100);
const paceMs = number('paceMs', 2_000);
const plainSeconds = number('plainSeconds', 30);
const storeStopAtS = 20;
const storeDownMs = 5_000;
const killAtS = 35;
const printerOffAtS = 40;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const ms = (value: number) => (Number.isNaN(value) ? '—' : `${Math.round(value)} ms`);
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? Number.NaN)} (${sorted.length})`;
};

async function todaysOrders(sandbox: RunningSandbox): Promise<TodaysOrder[]> {
  const response = await fetch(`${sandbox.control.baseUrl}/environments/test/todays-orders`, { headers: { authorization: `Bearer ${sandbox.control.token}` } });
  const company = sandbox.environments.test.companies[0]?.name;
  return ((await response.json()) as { orders: TodaysOrder[] }).orders.filter((order) => order.companyName === company && order.zplAvailable && order.status === 'draft');
}

interface ScanRecord {
  printed: number[];
  refused: Map<string, number>;
  /** Journal entries the answers named as printed. */
  entries: number[];
}

/** Each whole-station bench scans its own orders, one every paceMs, staggered, until `until`. */
async function scanPaced(fleet: Fleet, orders: TodaysOrder[], until: number, record: ScanRecord, steady: (at: number) => boolean): Promise<void> {
  let next = 0;
  await Promise.all(
    fleet.benches.map(async (bench) => {
      await sleep((paceMs * bench.index) / fleet.benches.length);
      while (Date.now() < until) {
        const sentAt = Date.now();
        if (bench.running()) {
          const order = orders[next++];
          if (!order) throw new Error('too few orders for this many scans');
          const answer = await fleet.call(bench.index, 'printing.print', { scan: order.orderRef, printerId: bench.printerId() });
          const outcome = answer.ok ? PrintOutcomeSchema.parse(answer.value) : null;
          if (outcome?.outcome === 'printed') {
            if (steady(sentAt)) record.printed.push(outcome.elapsedMs);
            record.entries.push(outcome.entry.id);
          } else {
            const what = answer.ok ? (outcome?.outcome ?? '?') : answer.code;
            record.refused.set(what, (record.refused.get(what) ?? 0) + 1);
          }
        }
        await sleep(sentAt + paceMs - Date.now());
      }
    }),
  );
}

function startWorker(names: string[], connection: Extract<FleetStore, { kind: 'postgres' }>['connection'], onSeen: (events: SeenEvent[]) => void): Promise<{ child: ChildProcess; ids: string[]; stop(): Promise<void> }> {
  const child = fork(fileURLToPath(new URL('./floor-sim-worker.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let stopped: () => void = () => undefined;
    child.on('message', (raw) => {
      const message = raw as WorkerMessage;
      if (message.type === 'seen') onSeen(message.events);
      else if (message.type === 'stopped') stopped();
      else if (message.type === 'ready')
        resolve({
          child,
          ids: message.benchIds,
          stop: () =>
            new Promise<void>((done) => {
              stopped = done;
              child.send({ type: 'stop' });
              child.once('exit', () => done());
            }),
        });
    });
    child.once('exit', (code) => reject(new Error(`a worker of simulated benches ended (${code})`)));
    child.send({ type: 'start', benches: names.map((name) => ({ name })), connection, paceMs, silentAfterMs: 30_000 });
  });
}

/** What the floors saw, bench by bench. */
class FloorWatch {
  readonly scans = new Map<string, { bench: string; scanAt: number; seen: Map<string, number> }>();
  readonly silent = new Map<string, Map<string, number>>();
  readonly printers = new Map<string, { state: string; floor: string; at: number }[]>();
  /** Each floor's last word on each bench, for the whole-station floors' events. */
  private readonly shown = new Map<string, FloorBenchData>();

  add(events: SeenEvent[]): void {
    for (const event of events) {
      if (event.kind === 'scan') {
        const key = `${event.bench}|${event.scanAt}`;
        const scan = this.scans.get(key) ?? { bench: event.bench, scanAt: Date.parse(event.scanAt), seen: new Map<string, number>() };
        if (!scan.seen.has(event.floor)) scan.seen.set(event.floor, event.at);
        this.scans.set(key, scan);
      } else if (event.kind === 'silent') {
        const floors = this.silent.get(event.bench) ?? new Map<string, number>();
        if (!floors.has(event.floor)) floors.set(event.floor, event.at);
        this.silent.set(event.bench, floors);
      } else {
        this.printers.set(event.bench, [...(this.printers.get(event.bench) ?? []), { state: event.state, floor: event.floor, at: event.at }]);
      }
    }
  }

  /** A whole-station floor's floor.bench event, read as the simulated floors read theirs. */
  fromStation(floor: string, seen: FloorBenchData, at: number): void {
    const key = `${floor}|${seen.benchId}`;
    const before = this.shown.get(key);
    this.shown.set(key, seen);
    const events: SeenEvent[] = [];
    if (seen.lastScanAt && seen.lastScanAt !== before?.lastScanAt) events.push({ kind: 'scan', floor, bench: seen.benchId, scanAt: seen.lastScanAt, at });
    if (seen.answering === 'silent' && before?.answering !== 'silent') events.push({ kind: 'silent', floor, bench: seen.benchId, heardAt: seen.heardAt, at });
    const printer = (bench: FloorBenchData) => bench.printers.map((candidate) => `${candidate.state}:${candidate.fault ?? ''}`).join(',');
    if (before && printer(seen) !== printer(before)) events.push({ kind: 'printer', floor, bench: seen.benchId, state: printer(seen), at });
    this.add(events);
  }
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ printers: 0, orders: Math.max(4_000, benches * Math.ceil(((seconds + plainSeconds) * 1000) / paceMs) * 3), rateLimit: { requestsPerSecond: 0 }, faults: { latencyMs: 20 } });
  const server: PostgresServer = await startPostgresServer();
  const childScripts = await buildChildScripts();
  const fleets: Fleet[] = [];
  const simulatedWorkers: Awaited<ReturnType<typeof startWorker>>[] = [];
  try {
    const orders = await todaysOrders(sandbox);
    console.log(`${benches} whole-station benches + ${simulatedCount} simulated in ${workers} processes; a scan every ${paceMs} ms at each; ${orders.length} orders; load average ${loadavg().map((v) => v.toFixed(2)).join(' ')}`);

    // ——— The scan path with the floor not started: before the floor's round, and again after it ———
    const quarter = Math.floor(orders.length / 4);
    const plainRound = async (part: TodaysOrder[]): Promise<ScanRecord> => {
      const plainDb = await createTestDatabase(server.info);
      const plainStore: FleetStore = { kind: 'postgres', connection: plainDb.info };
      await seedDraftOrders(plainStore, part);
      const plain = await startFleet({ benches, store: plainStore, baseUrl: sandbox.environments.test.baseUrl, apiKey: sandbox.environments.test.companies[0]?.apiKey ?? '' });
      fleets.push(plain);
      const record: ScanRecord = { printed: [], refused: new Map(), entries: [] };
      await scanPaced(plain, part, Date.now() + plainSeconds * 1000, record, () => true);
      await plain.close();
      fleets.splice(fleets.indexOf(plain), 1);
      return record;
    };
    const plainBefore = await plainRound(orders.slice(0, quarter));
    console.log(`scan path without the floor, before: scan to printer ${summary(plainBefore.printed)}; load average ${loadavg().map((v) => v.toFixed(2)).join(' ')}`);

    // ——— Round 2: 50 benches on the floor, the store stopped, a bench killed, a printer off ———
    const floorDb = await createTestDatabase(server.info);
    const store: FleetStore = { kind: 'postgres', connection: floorDb.info };
    const rest = orders.slice(quarter, 3 * quarter);
    await seedDraftOrders(store, rest);
    const watch = new FloorWatch();
    const floorIds = new Map<number, string>();
    const fleet = await startFleet({
      benches,
      store,
      baseUrl: sandbox.environments.test.baseUrl,
      apiKey: sandbox.environments.test.companies[0]?.apiKey ?? '',
      database: server,
      floor: {},
      forwardEvents: ['floor.bench'],
      onEvent: (bench, name, payload, at) => {
        if (name !== 'floor.bench') return;
        const seen = payload as FloorBenchData;
        if (seen.self) floorIds.set(bench, seen.benchId);
        const floor = floorIds.get(bench) ?? `bench-${bench}`;
        watch.fromStation(floor, seen, at);
      },
    });
    fleets.push(fleet);
    const perWorker = Math.ceil(simulatedCount / workers);
    for (let worker = 0; worker < workers; worker++) {
      const names = Array.from({ length: Math.min(perWorker, simulatedCount - worker * perWorker) }, (_, index) => `Simulated ${worker * perWorker + index + 1}`);
      if (names.length > 0) simulatedWorkers.push(await startWorker(names, floorDb.info, (events) => watch.add(events)));
    }
    const simulatedFloors = simulatedWorkers.flatMap((worker) => worker.ids);
    // Each whole-station floor names itself in its first report of itself.
    const started = Date.now();
    while (floorIds.size < benches && Date.now() - started < 60_000) await sleep(200);
    console.log(`floors following: ${simulatedFloors.length} simulated + ${floorIds.size} whole stations; load average ${loadavg().map((v) => v.toFixed(2)).join(' ')}`);

    const t0 = Date.now();
    const timeline: Record<string, number> = {};
    const faults = (async () => {
      await sleep(t0 + storeStopAtS * 1000 - Date.now());
      timeline.storeStopped = Date.now();
      await fleet.restartDatabase(storeDownMs);
      timeline.storeBack = Date.now();
      await sleep(t0 + killAtS * 1000 - Date.now());
      timeline.killed = Date.now();
      await fleet.kill(benches - 1);
      await sleep(t0 + printerOffAtS * 1000 - Date.now());
      timeline.printerOff = Date.now();
      // Switched off until the end of the round: its bench finds it when it next scans or asks.
      void fleet.benches[benches - 2]?.zebra.powerCycle({ offMs: (seconds - printerOffAtS) * 1000 });
    })();
    const scans: ScanRecord = { printed: [], refused: new Map(), entries: [] };
    const steady = (at: number) => at - t0 > 3_000 && !(timeline.storeStopped !== undefined && at >= timeline.storeStopped - 1_000 && (timeline.storeBack === undefined || at <= timeline.storeBack + 5_000));
    await scanPaced(fleet, rest, t0 + seconds * 1000, scans, steady);
    await faults;
    await sleep(3_000);
    const offId = floorIds.get(benches - 2) ?? '';

    // Every floor alive at the time of a scan: the simulated ones, and the whole stations but the one killed after its kill.
    const floorsAt = (at: number) => [...simulatedFloors, ...[...floorIds.entries()].filter(([index]) => index !== benches - 1 || at < (timeline.killed ?? Infinity)).map(([, id]) => id)];
    const steadyEvery: number[] = [];
    const steadyEach: number[] = [];
    const afterStore: number[] = [];
    let missed = 0;
    const stopped = timeline.storeStopped ?? 0;
    const back = timeline.storeBack ?? 0;
    const killedId = floorIds.get(benches - 1) ?? '';
    // Once the store is back: for each bench, when each floor first showed it as it was at the
    // outage or later (a scan of the outage or after), and the last of the floors to do so.
    const recovered = new Map<string, Map<string, number>>();
    for (const scan of watch.scans.values()) {
      if (scan.scanAt - t0 < 3_000 || scan.scanAt > t0 + seconds * 1000 - 3_000) continue;
      const seen = floorsAt(scan.scanAt).map((floor) => scan.seen.get(floor));
      if (scan.scanAt >= stopped) {
        const floors = recovered.get(scan.bench) ?? new Map<string, number>();
        for (const [floor, at] of scan.seen) if (at >= back && (floors.get(floor) ?? Infinity) > at) floors.set(floor, at);
        recovered.set(scan.bench, floors);
      }
      if (scan.scanAt > stopped && scan.scanAt <= back + 5_000) continue;
      if (seen.some((at) => at === undefined)) {
        missed += 1;
        continue;
      }
      steadyEvery.push(Math.max(...(seen as number[])) - scan.scanAt);
      for (const at of seen as number[]) steadyEach.push(at - scan.scanAt);
    }
    const backFloors = floorsAt(back);
    const stationFloors = new Set(floorIds.values());
    const afterStoreStations: number[] = [];
    const afterStoreSimulated: number[] = [];
    let notRecovered = 0;
    for (const [bench, floors] of recovered) {
      if (bench === killedId) continue;
      const times = backFloors.map((floor) => floors.get(floor));
      if (times.some((at) => at === undefined)) {
        notRecovered += 1;
        continue;
      }
      afterStore.push(Math.max(...(times as number[])) - back);
      for (const floor of backFloors) (stationFloors.has(floor) ? afterStoreStations : afterStoreSimulated).push((floors.get(floor) as number) - back);
    }
    const silentAt = [...(watch.silent.get(killedId)?.values() ?? [])].map((at) => at - (timeline.killed ?? 0));
    const offlineAt = new Map<string, number>();
    for (const change of watch.printers.get(offId) ?? []) if (change.at >= (timeline.printerOff ?? 0) && /offline/.test(change.state) && !offlineAt.has(change.floor)) offlineAt.set(change.floor, change.at - (timeline.printerOff ?? 0));

    // The journal, read from the store: every scan answered "printed" has its row, and no order has two live prints.
    const engine = await PostgresEngine.open({ ...floorDb.info, tls: 'disable', applicationName: 'floor bench' });
    const rows = await engine.query<{ id: unknown; state: string }>('SELECT id, state FROM print_journal');
    const doubled = await engine.query(
      "SELECT order_id FROM print_journal WHERE order_id IS NOT NULL AND (state IN ('queued', 'fetched', 'sent', 'printed') OR (state = 'uncertain' AND decided_at IS NULL)) GROUP BY environment, order_id HAVING count(*) > 1",
    );
    const reports = await engine.query<{ n: unknown }>('SELECT count(*) AS n FROM bench_floor');
    await engine.close();
    const ids = new Set(rows.map((row) => Number(row.id)));
    const lost = scans.entries.filter((id) => !ids.has(id)).length;
    const byState = new Map<string, number>();
    for (const row of rows) byState.set(row.state, (byState.get(row.state) ?? 0) + 1);

    console.log(
      [
        `timeline (s from the start of the round): store stopped ${((stopped - t0) / 1000).toFixed(1)}, back ${((back - t0) / 1000).toFixed(1)}; bench ${benches} killed ${(((timeline.killed ?? 0) - t0) / 1000).toFixed(1)}; bench ${benches - 1}'s printer off ${(((timeline.printerOff ?? 0) - t0) / 1000).toFixed(1)}`,
        `benches reporting: ${Number(reports[0]?.n ?? 0)} rows in bench_floor; floors timed: ${simulatedFloors.length + floorIds.size}`,
        `scan seen on every floor, steady: ${summary(steadyEvery)}`,
        `  each floor on its own (every delivery): ${summary(steadyEach)}`,
        `  steady scans some floor never showed: ${missed}`,
        `once the store was back, each bench as it was at the outage or later seen on every floor: ${summary(afterStore)}${notRecovered > 0 ? `; ${notRecovered} benches not seen so by every floor` : ''}`,
        `  each floor on its own: whole-station floors ${summary(afterStoreStations)}; simulated floors ${summary(afterStoreSimulated)}`,
        `bench ${benches} killed: "not answering" on ${silentAt.length} floors after ${summary(silentAt)} (30 s of silence since its last heartbeat)`,
        `bench ${benches - 1}'s printer switched off: offline on ${offlineAt.size} floors after ${summary([...offlineAt.values()])}`,
        `journal: ${scans.entries.length} scans answered printed, ${lost} of them without their row; ${doubled.length} orders with two live prints; rows by state ${JSON.stringify(Object.fromEntries(byState))}`,
        `scans not printed: ${JSON.stringify(Object.fromEntries(scans.refused))}`,
        `scan path with the floor (steady, whole stations): scan to printer ${summary(scans.printed)}`,
        `scan path without the floor, before this round: scan to printer ${summary(plainBefore.printed)}`,
        `load average ${loadavg().map((v) => v.toFixed(2)).join(' ')}`,
      ].join('\n'),
    );
    for (const worker of simulatedWorkers.splice(0)) await worker.stop();
    await fleet.close();
    fleets.splice(fleets.indexOf(fleet), 1);
    const plainAfter = await plainRound(orders.slice(3 * quarter));
    console.log(`scan path without the floor, after: scan to printer ${summary(plainAfter.printed)}; load average ${loadavg().map((v) => v.toFixed(2)).join(' ')}`);
  } finally {
    for (const worker of simulatedWorkers) await worker.stop().catch(() => undefined);
    for (const fleet of fleets) await fleet.close().catch(() => undefined);
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

