/**
 * The lead's floor with whole stations on one PostgreSQL store (in this process, each with its own
 * engine, data folder and virtual Zebra), started as the app starts them: each bench reports
 * itself and hears the others by notification; a lead at one bench pauses another bench's run
 * (which stops within its printer's buffer limit and says who paused it), settles another bench's
 * uncertain label and sends it a shift-start run; two leads acting on the same run at once resolve
 * to one; a bench that closes reads as closed. A bench on its own file sees itself alone.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import type { FloorBenchData, FloorCommandData, FloorListData } from '../../../src/shared/contract/floor';
import type { PrintOutcomeData, RunSummaryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { runCliIn } from '../../support/cli';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';
import { waitUntil } from '../../support/wait-until';
import { postgresConfig } from '../store-engine/engines';
import { bundlesWithLabels, createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from '../printing-queue/support';

interface Bench {
  station: PrintingStation;
  zebra: VirtualZebra;
  name: string;
}

describe("the lead's floor on a shared store", () => {
  let database: TestDatabase;
  let sandbox: RunningSandbox;
  let orders: TodaysOrder[];
  const engines: PostgresEngine[] = [];
  const benches: Bench[] = [];
  const zebras: VirtualZebra[] = [];
  /** Bundles printed by an earlier test: each test prints bundles of its own. */
  const used = new Set<string>();

  const openBench = async (name: string, operator: string, labelsPerSecond = 100): Promise<Bench> => {
    const engine = await PostgresEngine.open(postgresConfig(database.info));
    engines.push(engine);
    const { zebra, port } = await startZebra({ labelsPerSecond });
    zebras.push(zebra);
    const station = await createPrintingStation(sandbox, port, { store: engine, floor: { silentAfterMs: 2_000, printerCheckMs: 500 } }, { maxFormatsInBuffer: 3 });
    await station.station.start({ webhooks: false });
    // A new shift asks who is packing: the name is given after the start, as at the bench.
    await station.call('settings.set', { stationName: name, operator });
    const bench = { station, zebra, name };
    benches.push(bench);
    return bench;
  };

  const floorAt = (bench: Bench) => bench.station.call<FloorListData>('floor.list', {});
  const seenAt = async (bench: Bench, name: string, match: (seen: FloorBenchData) => boolean, what: string): Promise<FloorBenchData> => {
    let found: FloorBenchData | undefined;
    await waitUntil(async () => {
      found = (await floorAt(bench)).benches.find((candidate) => candidate.stationName === name && match(candidate));
      return found !== undefined;
    }, `${bench.name} sees ${name}: ${what}`, 10_000, 25);
    return found as FloorBenchData;
  };

  beforeAll(async () => {
    database = await createTestDatabase(inject('postgres'));
    sandbox = await startTestSandbox({ orders: 500 });
    orders = await stationOrders(sandbox);
  });
  afterAll(async () => {
    for (const bench of benches) await bench.station.dispose();
    for (const engine of engines) await engine.close();
    for (const zebra of zebras) await zebra.stop();
    await sandbox?.close();
    await database?.drop();
  });

  it('shows every bench on every other bench, with who is signed in and its printers, heard by notification', async () => {
    const benchA = await openBench('Bench 3', 'Anna');
    const benchB = await openBench('Bench 7', 'Sam');
    const seen = await seenAt(benchA, 'Bench 7', (bench) => bench.operator === 'Sam', 'Sam signed in');
    expect(seen).toMatchObject({ answering: 'yes', self: false, environment: 'sandbox', labelsToday: 0, uncertainCount: 0, runs: [] });
    expect(seen.printers).toEqual([expect.objectContaining({ name: 'Bench Zebra', roles: ['single', 'bundles'], printerId: benchB.station.printerId })]);
    const own = await seenAt(benchA, 'Bench 3', (bench) => bench.self, 'itself');
    expect(own.operator).toBe('Anna');

    // A scan at bench 7 shows in its counts and last scan time at bench 3.
    const order = orders.find((candidate) => candidate.zplAvailable && candidate.status === 'draft') as TodaysOrder;
    used.add(order.bundleId);
    const printed = await benchB.station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef });
    expect(printed.outcome).toBe('printed');
    await benchB.zebra.waitForLabels(1);
    const after = await seenAt(benchA, 'Bench 7', (bench) => bench.labelsToday === 1, 'one label today');
    expect(after.labelsLastHour).toBe(1);
    expect(after.lastScanAt).not.toBeNull();
  });

  it("a lead at one bench pauses another bench's run: it stops within the printer's buffer limit and names the lead there; two leads acting on it at once resolve to one", async () => {
    const [benchA, benchB] = benches as [Bench, Bench];
    await benchB.zebra.setLabelsPerSecond(8);
    const { bundleIds } = bundlesWithLabels(orders, 30, used);
    for (const id of bundleIds) used.add(id);
    const run = await benchB.station.call<RunSummaryData>('printing.printBundles', { bundleIds });
    const onFloor = await seenAt(benchA, 'Bench 7', (bench) => bench.runs.some((candidate) => candidate.runId === run.runId && candidate.done > 0), 'its run under way');
    const floorRun = onFloor.runs.find((candidate) => candidate.runId === run.runId);
    expect(floorRun).toMatchObject({ kind: 'bundles', state: 'running', total: run.counts.total, live: true, lastAction: null });

    const pausedHere = benchB.station.waitForEvent('floor.actedHere', (command) => command.action === 'pause');
    const paused = await benchA.station.call<FloorCommandData>('floor.act', { action: 'pause', benchId: onFloor.benchId, runId: run.runId, seen: 0 });
    expect(paused).toMatchObject({ state: 'done', action: 'pause', operator: 'Anna', fromBenchName: 'Bench 3', benchName: 'Bench 7' });
    expect((await pausedHere).operator).toBe('Anna');
    const atPause = benchB.zebra.printed().length;
    // Bench 7's own screen says who paused its run and from where.
    const { runs } = await benchB.station.call<{ runs: RunSummaryData[] }>('printing.runs', { unfinished: true });
    const summary = runs.find((candidate) => candidate.runId === run.runId);
    expect(summary?.state).toBe('paused');
    expect(summary?.pauseReason).toMatchObject({ by: 'user', lead: { operator: 'Anna', benchName: 'Bench 3' } });
    // At 8 labels a second the labels left in the buffer (at most 3) are out within 600 ms.
    await waitUntil(() => benchB.zebra.state().bufferedBytes === 0, "the printer's buffer emptied", 5_000);
    expect(benchB.zebra.printed().length - atPause).toBeLessThanOrEqual(3);

    const pausedOnFloor = await seenAt(benchA, 'Bench 7', (bench) => bench.runs.some((candidate) => candidate.runId === run.runId && candidate.state === 'paused'), 'its run paused');
    const seenRun = pausedOnFloor.runs.find((candidate) => candidate.runId === run.runId);
    expect(seenRun?.pause).toMatchObject({ by: 'user', lead: { operator: 'Anna', benchName: 'Bench 3' } });
    expect(seenRun?.lastAction).toMatchObject({ commandId: paused.id, action: 'pause', operator: 'Anna', outcome: 'done' });

    // Two leads, at bench 3 and at bench 7, both press Resume on what they both saw: one of them wins.
    const seenId = seenRun?.lastAction?.commandId ?? 0;
    const [first, second] = await Promise.all([
      benchA.station.station.dispatcher.dispatch('floor.act', { action: 'resume', benchId: onFloor.benchId, runId: run.runId, seen: seenId, operator: 'Anna' }, { host: 'web' }),
      benchB.station.station.dispatcher.dispatch('floor.act', { action: 'cancel', benchId: onFloor.benchId, runId: run.runId, seen: seenId, operator: 'Piotr' }, { host: 'web' }),
    ]);
    const answers = [first, second];
    const won = answers.filter((answer) => answer.ok);
    const lost = answers.flatMap((answer) => (answer.ok ? [] : [answer.error]));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winner = (won[0] as { ok: true; value: FloorCommandData }).value;
    expect(lost[0]).toMatchObject({ code: 'FLOOR_ACTED_FIRST', facts: { operator: winner.operator, action: winner.action } });
    const finishedOrRunning = winner.action === 'cancel' ? 'cancelled' : 'running';
    await seenAt(benchA, 'Bench 7', (bench) => (finishedOrRunning === 'cancelled' ? !bench.runs.some((candidate) => candidate.runId === run.runId) : bench.runs.some((candidate) => candidate.runId === run.runId && candidate.state === 'running')), `the run ${finishedOrRunning}`);
    if (winner.action === 'resume') await benchA.station.call('floor.act', { action: 'cancel', benchId: onFloor.benchId, runId: run.runId, seen: winner.id });
    await benchB.station.waitForEvent('printing.finished', (finished) => finished.runId === run.runId, 20_000);
    await benchB.zebra.setLabelsPerSecond(100);
  });

  it("a lead's own earlier action never counts against them; another bench's is named", async () => {
    const [benchA, benchB] = benches as [Bench, Bench];
    await benchB.zebra.setLabelsPerSecond(3);
    const { bundleIds } = bundlesWithLabels(orders, 12, used);
    for (const id of bundleIds) used.add(id);
    const run = await benchB.station.call<RunSummaryData>('printing.printBundles', { bundleIds });
    const onFloor = await seenAt(benchA, 'Bench 7', (bench) => bench.runs.some((candidate) => candidate.runId === run.runId), 'its run');
    const act = (bench: Bench, action: 'pause' | 'resume' | 'cancel', seen: number) =>
      bench.station.station.dispatcher.dispatch('floor.act', { action, benchId: onFloor.benchId, runId: run.runId, seen }, { host: 'web' });

    // Anna pauses, then presses Resume before her floor shows her pause: what she saw is still "nothing".
    const paused = await act(benchA, 'pause', 0);
    expect(paused).toMatchObject({ ok: true, value: { action: 'pause', state: 'done' } });
    const resumed = await act(benchA, 'resume', 0);
    expect(resumed).toMatchObject({ ok: true, value: { action: 'resume', state: 'done' } });
    const resumedId = resumed.ok ? (resumed.value as FloorCommandData).id : 0;

    // Sam, at bench 7, pauses after her resume; Anna, still on what she saw, cancels: Sam was first, and is named.
    expect(await act(benchB, 'pause', resumedId)).toMatchObject({ ok: true, value: { action: 'pause', operator: 'Sam' } });
    const cancelled = await act(benchA, 'cancel', resumedId);
    expect(cancelled).toMatchObject({ ok: false, error: { code: 'FLOOR_ACTED_FIRST', facts: { operator: 'Sam', benchName: 'Bench 7', action: 'pause' } } });

    const lastSeen = await seenAt(benchA, 'Bench 7', (bench) => bench.runs.some((candidate) => candidate.runId === run.runId && candidate.lastAction?.operator === 'Sam'), "Sam's pause");
    const samsPause = lastSeen.runs.find((candidate) => candidate.runId === run.runId)?.lastAction?.commandId ?? 0;
    expect(await act(benchA, 'cancel', samsPause)).toMatchObject({ ok: true, value: { action: 'cancel', state: 'done' } });
    await benchB.station.waitForEvent('printing.finished', (finished) => finished.runId === run.runId, 20_000);
    await benchB.zebra.setLabelsPerSecond(100);
  });

  it("a lead settles another bench's uncertain label and sends it a shift-start run", async () => {
    const [benchA, benchB] = benches as [Bench, Bench];
    // The connection breaks while a label of a run is sent: the bench cannot know whether it printed.
    const broken = bundlesWithLabels(orders, 10, used);
    for (const id of broken.bundleIds) used.add(id);
    const printedBefore = benchB.zebra.printed().length;
    await benchB.zebra.setLabelsPerSecond(20);
    const brokenRun = await benchB.station.call<RunSummaryData>('printing.printBundles', { bundleIds: broken.bundleIds });
    await benchB.zebra.waitForLabels(printedBefore + 3, 20_000);
    await benchB.zebra.setFaults({ dropConnectionAfterBytes: 300 });
    const ended = await benchB.station.waitForEvent('printing.finished', (finished) => finished.runId === brokenRun.runId, 20_000);
    expect(ended.counts.uncertain).toBe(1);
    const order = broken.orders.find((candidate) => candidate.orderId === ended.uncertain[0]?.orderId) as TodaysOrder;
    const withUncertain = await seenAt(benchA, 'Bench 7', (bench) => bench.uncertainCount === 1, 'one uncertain label');
    const label = withUncertain.uncertain[0];
    expect(label).toMatchObject({ orderRef: order.orderRef, printerName: 'Bench Zebra', lastAction: null });

    const settled = await benchA.station.call<FloorCommandData>('floor.act', { action: 'settle-print-again', benchId: withUncertain.benchId, entryId: label?.entryId, seen: 0 });
    expect(settled.state).toBe('done');
    expect(settled.runId).not.toBeNull();
    await benchB.station.waitForEvent('printing.finished', (finished) => finished.runId === settled.runId, 20_000);
    const { entries } = await benchB.station.call<{ entries: { id: number; decidedBy: string | null; reprintOf: number | null; state: string }[] }>('printing.journal', { orderId: order.orderId });
    expect(entries.find((entry) => entry.id === label?.entryId)?.decidedBy).toBe('Anna at Bench 3');
    expect(entries.find((entry) => entry.reprintOf === label?.entryId)?.state).toBe('printed');
    await seenAt(benchA, 'Bench 7', (bench) => bench.uncertainCount === 0, 'nothing uncertain any more');

    // The same label settled again by a lead who saw it before: the bench says it is decided.
    const again = await benchA.station.station.dispatcher.dispatch('floor.act', { action: 'settle-printed', benchId: withUncertain.benchId, entryId: label?.entryId, seen: settled.id }, { host: 'web' });
    expect(again.ok ? 'applied' : again.error).toMatchObject({ code: 'CONFLICT', facts: { subject: 'label-decided' } });

    const { bundleIds } = bundlesWithLabels(orders, 4, used);
    const sent = await benchA.station.call<FloorCommandData>('floor.act', { action: 'send-bundles', benchId: withUncertain.benchId, printerId: benchB.station.printerId, bundleIds });
    expect(sent).toMatchObject({ state: 'done', action: 'send-bundles' });
    const finished = await benchB.station.waitForEvent('printing.finished', (event) => event.runId === sent.runId, 20_000);
    expect(finished).toMatchObject({ kind: 'bundles', operator: 'Anna at Bench 3' });
    expect(finished.counts.printed).toBe(4);
  });

  it('the command line lists the floor as the screen orders it, and pauses and cancels a run at a bench named by its name', async () => {
    const [benchA, benchB] = benches as [Bench, Bench];
    await benchB.zebra.setLabelsPerSecond(8);
    const { bundleIds } = bundlesWithLabels(orders, 30, used);
    for (const id of bundleIds) used.add(id);
    const run = await benchB.station.call<RunSummaryData>('printing.printBundles', { bundleIds });
    await seenAt(benchA, 'Bench 7', (bench) => bench.runs.some((candidate) => candidate.runId === run.runId), 'its run');
    // Beside bench 3: its data folder, its own connection to the store, as a lead types it.
    const engine = await PostgresEngine.open(postgresConfig(database.info));
    engines.push(engine);
    const cli = (...argv: string[]) => runCliIn(benchA.station.dataDir, { store: engine }, ['floor', ...argv]);

    const listed = await cli();
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('Bench 3 (Anna) — this bench · sandbox');
    expect(listed.stdout).toMatch(new RegExp(`run ${run.runId} \\(bundles, Sam\\) on Bench Zebra: running, \\d+ of ${run.counts.total}`));
    expect((await cli('--fault', 'paper-out')).stdout.trim()).toBe('No bench matches.');
    expect((await cli('--operator', 'sam')).stdout).not.toContain('Bench 3 (Anna)');

    const paused = await cli('pause', 'bench 7', run.runId.slice(0, 8));
    expect(paused).toMatchObject({ code: 0, stderr: '' });
    expect(paused.stdout.trim()).toBe(`Bench 7: run ${run.runId} paused by Anna (from Bench 3).`);
    await seenAt(benchA, 'Bench 7', (bench) => bench.runs.some((candidate) => candidate.runId === run.runId && candidate.pause?.lead?.operator === 'Anna'), 'paused by Anna');
    expect((await cli()).stdout).toContain(`run ${run.runId} (bundles, Sam) on Bench Zebra: paused by Anna at Bench 3`);

    const wrong = await cli('resume', 'Bench 9', run.runId);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('No bench "Bench 9" reports to the floor. Benches: Bench 3, Bench 7.');
    const cancelled = await cli('cancel', 'Bench 7', run.runId, '--operator', 'Piotr');
    expect(cancelled.stdout.trim()).toBe(`Bench 7: run ${run.runId} cancelled by Piotr (from Bench 3).`);
    const finished = await benchB.station.waitForEvent('printing.finished', (event) => event.runId === run.runId, 20_000);
    expect(finished.failed.every((entry) => entry.reason === 'Cancelled by Piotr at Bench 3 before it was sent.')).toBe(true);
    await benchB.zebra.setLabelsPerSecond(100);
  });

  it('a bench that closes in order reads as closed on the others; acting on it is refused', async () => {
    const [benchA, benchB] = benches as [Bench, Bench];
    const before = await seenAt(benchA, 'Bench 7', (bench) => bench.answering === 'yes', 'answering');
    await benchB.station.dispose();
    benches.splice(benches.indexOf(benchB), 1);
    const closed = await seenAt(benchA, 'Bench 7', (bench) => bench.answering === 'stopped', 'closed');
    expect(closed.stoppedAt).not.toBeNull();
    const refused = await benchA.station.station.dispatcher.dispatch('floor.act', { action: 'pause', benchId: before.benchId, runId: 'gone-run' }, { host: 'web' });
    expect(refused.ok ? 'sent' : refused.error).toMatchObject({ code: 'BENCH_NOT_ANSWERING', facts: { benchName: 'Bench 7', subject: 'stopped' } });
  });
});

describe("the lead's floor on a bench's own file", () => {
  it('shows this bench alone, and a pause from it applies here at once', async () => {
    const sandbox = await startTestSandbox({ orders: 200 });
    const { zebra, port } = await startZebra({ labelsPerSecond: 5 });
    const station = await createPrintingStation(sandbox, port);
    try {
      // Nothing to start: on its own file the floor is read when asked and its actions applied at once.
      await station.call('settings.set', { stationName: 'Bench 1', operator: 'Ola' });
      const floor = await station.call<FloorListData>('floor.list', {});
      expect(floor.mode).toBe('local');
      expect(floor.benches).toHaveLength(1);
      expect(floor.benches[0]).toMatchObject({ stationName: 'Bench 1', operator: 'Ola', self: true, answering: 'yes', runs: [] });

      // Its printer as its queue last saw it, once a label went through.
      const order = (await stationOrders(sandbox)).find((candidate) => candidate.zplAvailable && candidate.status === 'draft') as TodaysOrder;
      await station.call('printing.print', { scan: order.orderRef });
      await zebra.waitForLabels(1);
      await waitUntil(async () => (await station.call<FloorListData>('floor.list', {})).benches[0]?.printers[0]?.state === 'ready', 'its printer ready on the floor');
      const { bundleIds } = bundlesWithLabels(await stationOrders(sandbox), 20, new Set([order.bundleId]));
      const run = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
      const listed = (await station.call<FloorListData>('floor.list', {})).benches[0];
      expect(listed?.runs.map((candidate) => candidate.runId)).toEqual([run.runId]);
      const paused = await station.call<FloorCommandData>('floor.act', { action: 'pause', benchId: listed?.benchId, runId: run.runId, seen: 0 });
      expect(paused).toMatchObject({ state: 'done', operator: 'Ola', fromBenchName: 'Bench 1' });
      const after = (await station.call<FloorListData>('floor.list', {})).benches[0]?.runs[0];
      expect(after).toMatchObject({ state: 'paused', pause: { by: 'user', lead: { operator: 'Ola', benchName: 'Bench 1' } }, lastAction: { commandId: paused.id, action: 'pause' } });
      await station.call('printing.cancel', { runId: run.runId });
    } finally {
      await station.dispose();
      await zebra.stop();
      await sandbox.close();
    }
  });
});
