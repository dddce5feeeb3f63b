/**
 * The lead's floor, "Done when": ten bench processes (each a whole station started as the app
 * starts, with its own virtual Zebra) on one PostgreSQL store. Each bench is on another bench's
 * `floor --json`; a paper-out at one bench (its Zebra told to run out of paper mid-run) reaches
 * every other bench's floor within 2 s; a pause from one bench stops another bench's run within its
 * printer's buffer limit and says who did it there; two leads acting on the same run at once
 * resolve to one; a bench killed with SIGKILL turns "not answering" after the stated silence (3 s
 * here; 30 s by default).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import type { FloorBenchData, FloorCommandData, FloorListData } from '../../../src/shared/contract/floor';
import type { RunSummaryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import { startFleet, seedDraftOrders, type Fleet, type FleetStore } from '../../support/bench-fleet';
import { runCliIn } from '../../support/cli';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';
import { waitUntil } from '../../support/wait-until';
import { bundlesWithLabels, startTestSandbox, stationOrders, type TodaysOrder } from '../printing-queue/support';
import { inject } from 'vitest';

const BENCHES = 10;
const silentAfterMs = 3_000;
/** Heartbeats well inside the silence, as the defaults are (10 s within 30 s). */
const heartbeatMs = 1_000;

describe('ten benches on the floor of one PostgreSQL store', () => {
  let database: TestDatabase;
  let sandbox: RunningSandbox;
  let fleet: Fleet;
  let orders: TodaysOrder[];
  let store: FleetStore;
  const used = new Set<string>();

  beforeAll(async () => {
    database = await createTestDatabase(inject('postgres'));
    sandbox = await startTestSandbox({ orders: 600 });
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft');
    store = { kind: 'postgres', connection: database.info as Extract<FleetStore, { kind: 'postgres' }>['connection'] };
    await seedDraftOrders(store, orders);
    fleet = await startFleet({
      benches: BENCHES,
      store,
      baseUrl: sandbox.environments.test.baseUrl,
      apiKey: sandbox.environments.test.companies[0]?.apiKey ?? '',
      zebra: { labelsPerSecond: 100 },
      floor: { silentAfterMs, heartbeatMs, printerCheckMs: 1_000 },
    });
  }, 180_000);

  afterAll(async () => {
    await fleet?.close();
    await sandbox?.close();
    await database?.drop();
  }, 60_000);

  const floorOf = async (bench: number): Promise<FloorListData> => {
    const answer = await fleet.call(bench, 'floor.list', {});
    if (!answer.ok) throw new Error(`Bench ${bench + 1}'s floor: ${answer.code} ${answer.message}`);
    return answer.value as FloorListData;
  };
  const benchOn = (floor: FloorListData, name: string): FloorBenchData | undefined => floor.benches.find((bench) => bench.stationName === name);
  const others = (bench: number) => fleet.benches.filter((candidate) => candidate.index !== bench && candidate.running()).map((candidate) => candidate.index);

  /** Asks each of `benches` every 25 ms until it sees `what`; answers when each first saw it, in ms from `from`. */
  const seenEverywhere = async (benches: number[], name: string, what: (bench: FloorBenchData) => boolean, from: number, label: string): Promise<number[]> => {
    const seenAfter = new Map<number, number>();
    await waitUntil(
      async () => {
        await Promise.all(
          benches
            .filter((bench) => !seenAfter.has(bench))
            .map(async (bench) => {
              const seen = benchOn(await floorOf(bench), name);
              if (seen && what(seen)) seenAfter.set(bench, Date.now() - from);
            }),
        );
        return seenAfter.size === benches.length;
      },
      `every bench sees ${name}: ${label}`,
      20_000,
      25,
    );
    return benches.map((bench) => seenAfter.get(bench) ?? Number.NaN);
  };

  const startRun = async (bench: number, labels: number): Promise<RunSummaryData> => {
    const { bundleIds } = bundlesWithLabels(orders, labels, used);
    for (const id of bundleIds) used.add(id);
    const answer = await fleet.call(bench, 'printing.printBundles', { bundleIds, printerId: fleet.benches[bench]?.printerId() });
    if (!answer.ok) throw new Error(`Bench ${bench + 1}'s run: ${answer.code} ${answer.message}`);
    return answer.value as RunSummaryData;
  };

  it("shows every bench, with who is signed in, on another bench's floor and on `floor --json` beside it", async () => {
    await seenEverywhere([0], 'Bench 10', () => true, Date.now(), 'listed');
    // Each bench signs its packer in right after it starts: the floor has them all once every report since then arrived.
    await waitUntil(async () => (await floorOf(0)).benches.filter((bench) => bench.answering === 'yes' && bench.operator !== '').length === BENCHES, 'bench 1 sees all ten answering, each with its packer', 20_000, 100);
    const floor = await floorOf(0);
    expect(floor.mode).toBe('warehouse');
    expect(floor.benches.map((bench) => `${bench.stationName}: ${bench.operator}`).sort()).toEqual(fleet.benches.map((bench) => `${bench.name}: Packer ${bench.index + 1}`).sort());
    expect(benchOn(floor, 'Bench 1')?.self).toBe(true);
    expect(benchOn(floor, 'Bench 7')?.printers).toEqual([expect.objectContaining({ printerId: fleet.benches[6]?.printerId(), roles: ['single', 'bundles'] })]);

    // The command line beside bench 2 (its data folder, the same store), as a lead would type it.
    const engine = await PostgresEngine.open({ ...database.info, tls: 'disable', applicationName: 'floor cli' });
    try {
      const outcome = await runCliIn(fleet.benches[1]?.dataDir ?? '', { store: engine }, ['floor', '--json']);
      expect(outcome.code).toBe(0);
      const listed = JSON.parse(outcome.stdout) as FloorListData;
      expect(listed.benches.map((bench) => bench.stationName).sort()).toEqual(fleet.benches.map((bench) => bench.name).sort());
      expect(listed.benches.every((bench) => bench.answering === 'yes')).toBe(true);
      expect(listed.benches.find((bench) => bench.self)?.stationName).toBe('Bench 2');
    } finally {
      await engine.close();
    }
  });

  it('a paper-out at bench 4 mid-run appears on every other bench within 2 s', async () => {
    const zebra = fleet.benches[3]?.zebra;
    if (!zebra) throw new Error('no bench 4');
    zebra.setLabelsPerSecond(5);
    const before = zebra.printed().length;
    const run = await startRun(3, 40);
    await zebra.waitForLabels(before + 2, 20_000);
    const outAt = Date.now();
    await zebra.setPaperOut(true);
    const seenAfter = await seenEverywhere(others(3), 'Bench 4', (bench) => bench.printers.some((printer) => printer.fault === 'paper-out'), outAt, 'paper out');
    console.log(`floor: paper-out at bench 4 seen on the other nine after ${seenAfter.map((ms) => `${ms} ms`).join(', ')}`);
    expect(Math.max(...seenAfter)).toBeLessThan(2_000);
    const seen = benchOn(await floorOf(0), 'Bench 4');
    expect(seen?.runs.find((candidate) => candidate.runId === run.runId)?.pause).toMatchObject({ by: 'printer', fault: 'paper-out' });

    // Paper in again: the run carries on by itself and the floor says so; then it is cancelled from bench 1.
    await zebra.setPaperOut(false);
    await seenEverywhere([0], 'Bench 4', (bench) => !bench.printers.some((printer) => printer.fault) && bench.runs.some((candidate) => candidate.runId === run.runId && candidate.state === 'running'), Date.now(), 'printing again');
    const cancelled = await fleet.call(0, 'floor.act', { action: 'cancel', benchId: seen?.benchId, runId: run.runId, seen: 0 });
    expect(cancelled.ok ? (cancelled.value as FloorCommandData).state : cancelled.code).toBe('done');
    zebra.setLabelsPerSecond(100);
  });

  it("a pause from bench 1 stops bench 6's run within its buffer limit and names the lead there; two leads at once resolve to one", async () => {
    const zebra = fleet.benches[5]?.zebra;
    if (!zebra) throw new Error('no bench 6');
    zebra.setLabelsPerSecond(8);
    const before = zebra.printed().length;
    const run = await startRun(5, 40);
    await zebra.waitForLabels(before + 2, 20_000);
    const onFloor = benchOn(await floorOf(0), 'Bench 6');
    const paused = await fleet.call(0, 'floor.act', { action: 'pause', benchId: onFloor?.benchId, runId: run.runId, seen: 0 });
    if (!paused.ok) throw new Error(`pause: ${paused.code} ${paused.message}`);
    expect(paused.value).toMatchObject({ state: 'done', operator: 'Packer 1', fromBenchName: 'Bench 1' });
    const atPause = zebra.printed().length;
    await waitUntil(() => zebra.state().bufferedBytes === 0, "bench 6's printer emptied its buffer", 10_000);
    // Its default buffer limit is 3 labels: no more come out after the pause.
    expect(zebra.printed().length - atPause).toBeLessThanOrEqual(3);
    const runs = await fleet.call(5, 'printing.runs', { unfinished: true });
    const atBench6 = runs.ok ? (runs.value as { runs: RunSummaryData[] }).runs.find((candidate) => candidate.runId === run.runId) : undefined;
    expect(atBench6?.pauseReason).toMatchObject({ by: 'user', lead: { operator: 'Packer 1', benchName: 'Bench 1' } });

    // Leads at bench 2 and bench 3 act on what both saw at the same moment: one wins, the other is told.
    const seen = (await seenEverywhere([1, 2], 'Bench 6', (bench) => bench.runs.some((candidate) => candidate.runId === run.runId && candidate.lastAction !== null), Date.now(), 'the pause')).length;
    expect(seen).toBe(2);
    const lastAction = benchOn(await floorOf(1), 'Bench 6')?.runs.find((candidate) => candidate.runId === run.runId)?.lastAction?.commandId;
    const [resume, cancel] = await Promise.all([
      fleet.call(1, 'floor.act', { action: 'resume', benchId: onFloor?.benchId, runId: run.runId, seen: lastAction }),
      fleet.call(2, 'floor.act', { action: 'cancel', benchId: onFloor?.benchId, runId: run.runId, seen: lastAction }),
    ]);
    const answers = [resume, cancel];
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.ok).map((answer) => (answer.ok ? '' : answer.code))).toEqual(['FLOOR_ACTED_FIRST']);
    const winner = answers.find((answer) => answer.ok);
    if (winner?.ok && (winner.value as FloorCommandData).action === 'resume') {
      await fleet.call(0, 'floor.act', { action: 'cancel', benchId: onFloor?.benchId, runId: run.runId, seen: (winner.value as FloorCommandData).id });
    }
    await seenEverywhere([0], 'Bench 6', (bench) => !bench.runs.some((candidate) => candidate.runId === run.runId), Date.now(), 'the run over');
    zebra.setLabelsPerSecond(100);
  });

  it('a bench killed with SIGKILL turns "not answering" on the others after the stated silence', async () => {
    const killedAt = Date.now();
    await fleet.kill(8);
    const seenAfter = await seenEverywhere(others(8), 'Bench 9', (bench) => bench.answering === 'silent', killedAt, 'not answering');
    console.log(`floor: bench 9 killed, "not answering" on the others after ${Math.min(...seenAfter)}–${Math.max(...seenAfter)} ms (silence stated: ${silentAfterMs} ms)`);
    // Silent once the stated time passed since its last heartbeat (at most one heartbeat before the kill).
    expect(Math.min(...seenAfter)).toBeGreaterThanOrEqual(silentAfterMs - heartbeatMs);
    expect(Math.max(...seenAfter)).toBeLessThan(silentAfterMs + 2_000);
    const seen = benchOn(await floorOf(0), 'Bench 9');
    expect(Date.parse(seen?.heardAt ?? '')).toBeLessThanOrEqual(killedAt);
    // Started again, it answers again.
    await fleet.start(8);
    await seenEverywhere([0], 'Bench 9', (bench) => bench.answering === 'yes', Date.now(), 'answering again');
  });
});
