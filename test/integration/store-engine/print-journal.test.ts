/**
 * The print journal on both engines (SQLite on a file, PostgreSQL on the run's private server):
 * the label states and their order, recovery after a crash, the duplicate guard, the run lists.
 */
import Database from 'libsql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyRunOptions } from '../../../src/main/printing/journal/journal-rows';
import { PrintJournal } from '../../../src/main/printing/journal/print-journal';
import { FirstPrintTaken } from '../../../src/main/printing/journal/run-records';
import type { NewLabel } from '../../../src/main/printing/journal/journal-types';
import { createLogger } from '../../../src/main/logging/logger';
import type { QueueClock } from '../../../src/main/printing/queue/clock';
import { RunOwnership } from '../../../src/main/printing/runs/run-ownership';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import type { StoreEngine } from '../../../src/main/store/engine/store-engine';
import { migrationsFor, sqlite } from '../../../src/main/store/schema';
import type { PauseReasonData } from '../../../src/shared/contract/printing';
import { engineFactories, type EngineUnderTest } from './engines';

const label = (orderId: string, bundleId = 'BND-1', position = 1, count = 2): NewLabel => ({
  orderId,
  bundleId,
  bundlePosition: position,
  bundleCount: count,
  format: 'zpl',
});

const stopped: PauseReasonData = { by: 'station', code: 'PRINTER_OFFLINE', message: 'stopped', action: 'resume', fault: null, since: '2026-01-01T00:00:00.000Z' };

describe.each(engineFactories)('print journal: $name', (factory) => {
  let store: EngineUnderTest;
  let journal: PrintJournal;
  let tick = 0;

  beforeEach(async () => {
    store = await factory.open();
    tick = 0;
    journal = new PrintJournal(store.engine, () => new Date(Date.UTC(2026, 0, 1, 8, 0, tick++)));
  });
  afterEach(async () => {
    await store.dispose();
  });

  const bundleRun = (labels: NewLabel[]) =>
    journal.runRecords.createRun({ environment: 'test', kind: 'bundles', printerId: 'p-1', operator: 'Sam', options: emptyRunOptions(), labels });

  it('records a run and a row per label in order, all queued', async () => {
    const { run, entries } = await bundleRun([label('a', 'BND-1', 1), label('b', 'BND-1', 2)]);
    expect(run.state).toBe('running');
    expect(entries.map((entry) => [entry.position, entry.orderId, entry.state, entry.operator])).toEqual([
      [0, 'a', 'queued', 'Sam'],
      [1, 'b', 'queued', 'Sam'],
    ]);
    expect(await journal.runRecords.counts(run.id)).toMatchObject({ total: 2, queued: 2 });
  });

  it('moves a label queued → fetched → sent → printed with a time for each step', async () => {
    const { entries } = await bundleRun([label('a')]);
    const id = entries[0]?.id ?? 0;
    await journal.labels.markFetched(id, 'f'.repeat(64), 'zpl');
    await journal.labels.markSending(id);
    expect(await journal.labels.entry(id)).toMatchObject({ state: 'fetched', documentSha256: 'f'.repeat(64) });
    expect((await journal.labels.entry(id))?.sentAt).not.toBeNull();
    await journal.labels.markSent(id);
    await journal.labels.markPrinted([id]);
    const entry = await journal.labels.entry(id);
    expect(entry?.state).toBe('printed');
    expect([entry?.fetchedAt, entry?.sentAt, entry?.printedAt].every((time) => time !== null)).toBe(true);
  });

  it('never marks a label printed that was not sent, nor fails one that was', async () => {
    const { entries } = await bundleRun([label('a'), label('b')]);
    const [a, b] = entries.map((entry) => entry.id) as [number, number];
    await journal.labels.markPrinted([a]);
    expect((await journal.labels.entry(a))?.state).toBe('queued');
    await journal.labels.markSent(b);
    await journal.labels.markFailed(b, 'late failure');
    expect((await journal.labels.entry(b))?.state).toBe('sent');
  });

  it('after a crash: a label being sent becomes uncertain, a bundle run waits for resume, a single run is closed', async () => {
    const bundles = await bundleRun([label('a'), label('b'), label('c')]);
    const [a, b] = bundles.entries.map((entry) => entry.id) as [number, number];
    await journal.labels.markSent(a);
    await journal.labels.markSending(b);
    const single = await journal.runRecords.createRun({ environment: 'test', kind: 'single', printerId: 'p-1', operator: '', options: emptyRunOptions(), labels: [label('d')] });

    const report = await journal.runRecords.recoverInterrupted(stopped, 'was being sent', 'not sent', 'not proven');
    expect(report).toEqual({ pausedRuns: [bundles.run.id], closedRuns: [single.run.id], uncertain: [b] });
    expect((await journal.labels.entries(bundles.run.id)).map((entry) => entry.state)).toEqual(['sent', 'uncertain', 'queued']);
    expect(await journal.runRecords.run(bundles.run.id)).toMatchObject({ state: 'paused', pauseReason: stopped });
    expect((await journal.labels.entries(single.run.id)).map((entry) => [entry.state, entry.reason])).toEqual([['failed', 'not sent']]);
    expect((await journal.runRecords.run(single.run.id))?.state).toBe('finished');
  });

  it('duplicate guard: counts sent, printed, being sent and undecided uncertain labels, not failed or decided ones', async () => {
    const { entries } = await bundleRun([label('a'), label('b'), label('c'), label('d'), label('e')]);
    const [a, b, c, d] = entries.map((entry) => entry.id) as [number, number, number, number];
    await journal.labels.markSent(a);
    await journal.labels.markSending(b);
    await journal.labels.markFailed(c, 'network');
    await journal.labels.markUncertain(d, 'connection dropped');
    expect((await journal.history.previousPrint('test', 'a'))?.id).toBe(a);
    expect((await journal.history.previousPrint('test', 'b'))?.id).toBe(b);
    expect(await journal.history.previousPrint('test', 'c')).toBeNull();
    expect((await journal.history.previousPrint('test', 'd'))?.id).toBe(d);
    expect(await journal.history.previousPrint('test', 'e')).toBeNull();
    expect(await journal.history.previousPrint('live', 'a')).toBeNull();

    const decided = await journal.labels.decide(d, 'print-again', 'Kim');
    expect(decided).toMatchObject({ state: 'failed', decidedBy: 'Kim' });
    expect(decided?.reason).toContain('Kim said it did not print');
    expect(await journal.history.previousPrint('test', 'd')).toBeNull();
    expect(await journal.labels.decide(d, 'printed', 'Kim')).toBeNull();
  });

  it('knows which bundles had a label printed', async () => {
    const { entries } = await bundleRun([label('a', 'BND-1'), label('b', 'BND-2')]);
    await journal.labels.markSent(entries[0]?.id ?? 0);
    expect(await journal.history.bundlesPrinted('test', ['BND-1', 'BND-2', 'BND-3'])).toEqual(new Set(['BND-1']));
  });

  it('cancel fails the labels not yet sent and leaves those on their way', async () => {
    const { run, entries } = await bundleRun([label('a'), label('b'), label('c')]);
    const [a, b] = entries.map((entry) => entry.id) as [number, number];
    await journal.labels.markSent(a);
    await journal.labels.markSending(b);
    expect(await journal.labels.failUnsent(run.id, 'Cancelled by Sam before it was sent.')).toBe(1);
    // b was being sent: it stays as it is (a crash would make it uncertain), never "failed".
    expect((await journal.labels.entries(run.id)).map((entry) => entry.state)).toEqual(['sent', 'queued', 'failed']);
  });

  it('lists unfinished runs to offer for resume, newest first', async () => {
    const first = (await bundleRun([label('a')])).run;
    const second = (await bundleRun([label('b')])).run;
    await journal.runRecords.finishRun(first.id, 'finished');
    expect((await journal.runRecords.runs('test', { unfinished: true })).map((run) => run.id)).toEqual([second.id]);
    expect((await journal.runRecords.runs('test')).map((run) => run.id)).toEqual([second.id, first.id]);
    expect(await journal.runRecords.hasUnfinishedRuns('test', 'p-1')).toBe(true);
  });

  it('a new run’s rows in memory equal what the database holds', async () => {
    const { run, entries } = await journal.runRecords.createRun({
      environment: 'sandbox',
      kind: 'bundles',
      printerId: 'p-1',
      operator: 'Sam',
      options: { ...emptyRunOptions(), reverse: true },
      labels: [{ ...label('a'), reason: 'Reprint by Sam: torn', reprintOf: null }, label('b', 'BND-2', 1, 1)],
    });
    expect(await journal.runRecords.run(run.id)).toEqual(run);
    expect(await journal.labels.entries(run.id)).toEqual(entries);
  });

  it('recovery settles only the runs it is told are orphans, leaving runs another station process is printing alone', async () => {
    const make = (pid: number) =>
      journal.runRecords.createRun({
        environment: 'test',
        kind: 'bundles',
        printerId: 'p-1',
        operator: '',
        options: { ...emptyRunOptions(), owner: { pid, instance: `i-${pid}` } },
        labels: [label(`order-${pid}`)],
      });
    const gone = await make(1001);
    const alive = await make(1002);
    for (const run of [gone, alive]) await journal.labels.markSending(run.entries[0]?.id ?? 0);
    const report = await journal.runRecords.recoverInterrupted(stopped, 'cut', 'not sent', 'not proven', (run) => run.options.owner?.pid === 1001);
    expect(report.pausedRuns).toEqual([gone.run.id]);
    expect((await journal.labels.entries(gone.run.id))[0]?.state).toBe('uncertain');
    expect((await journal.runRecords.run(alive.run.id))?.state).toBe('running');
    expect((await journal.labels.entries(alive.run.id))[0]?.state).toBe('queued');
  });
});

describe.each(engineFactories)('the duplicate guard across benches: $name', (factory) => {
  let store: EngineUnderTest;
  let bench3: PrintJournal;
  let bench7: PrintJournal;
  const at = new Date('2026-03-02T06:28:00.000Z');

  beforeEach(async () => {
    store = await factory.open();
    bench3 = new PrintJournal(store.engine, () => at, undefined, { id: 'bench-3-id', name: () => 'Bench 3' });
    // Another bench of the warehouse: its own engine and connections on PostgreSQL.
    bench7 = new PrintJournal(await store.another(), () => at, undefined, { id: 'bench-7-id', name: () => 'Bench 7' });
  });
  afterEach(async () => {
    await store.dispose();
  });

  const scan = (journal: PrintJournal, labels: NewLabel[]) =>
    journal.runRecords.createRun({ environment: 'test', kind: 'single', printerId: 'p-1', operator: 'Sam', options: emptyRunOptions(), labels });
  const order = (orderId: string, reprintOf: number | null = null): NewLabel => ({ orderId, bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl', reprintOf });
  const page = (position: number): NewLabel => ({ orderId: null, bundleId: 'BND-RACE', bundlePosition: position, bundleCount: 3, format: 'gfa', identifiers: [] });

  /** Both benches write the first print at the same moment, many times over: one wins each race. */
  const race = async (labelFor: (round: number) => NewLabel, rounds: number) => {
    const outcomes = await Promise.all(
      Array.from({ length: rounds }, (_, round) => [scan(bench3, [labelFor(round)]), scan(bench7, [labelFor(round)])]).flat().map((written) => written.then(
        (run) => ({ won: run.entries[0]! }),
        (error: unknown) => ({ lost: error }),
      )),
    );
    return Array.from({ length: rounds }, (_, round) => [outcomes[round * 2]!, outcomes[round * 2 + 1]!]);
  };

  it('lets exactly one of two benches write the first print of an order; the other learns which bench has it and when', async () => {
    const rounds = await race((round) => order(`ORD-RACE-${round}`), 20);
    for (const [index, pair] of rounds.entries()) {
      const won = pair.flatMap((outcome) => ('won' in outcome ? [outcome.won] : []));
      const lost = pair.flatMap((outcome) => ('lost' in outcome ? [outcome.lost] : []));
      expect(won, `order ${index}`).toHaveLength(1);
      expect(lost[0]).toBeInstanceOf(FirstPrintTaken);
      const holder = (lost[0] as FirstPrintTaken).holder;
      expect(holder).toMatchObject({ id: won[0]!.id, benchName: won[0]!.benchName, queuedAt: at.toISOString() });
      expect((await bench3.history.journal('test', { orderId: `ORD-RACE-${index}` })).length, `rows of order ${index}`).toBe(1);
    }
    // Both benches won some races or one won all: either way each name came from the row.
    expect(rounds.flat().flatMap((outcome) => ('won' in outcome ? [outcome.won.benchName] : [])).every((name) => name === 'Bench 3' || name === 'Bench 7')).toBe(true);
  });

  it('does the same for the pages of a bundle whose orders are unknown (bundle, format and page)', async () => {
    const rounds = await race((round) => page(round + 1), 10);
    for (const pair of rounds) {
      expect(pair.filter((outcome) => 'won' in outcome)).toHaveLength(1);
      expect(pair.find((outcome) => 'lost' in outcome)).toMatchObject({ lost: expect.any(FirstPrintTaken) });
    }
    // The same page as a PDF document is another label (positions count documents there, not pages).
    await expect(scan(bench7, [{ ...page(1), format: 'pdf' }])).resolves.toMatchObject({ entries: [{ format: 'pdf' }] });
  });

  it('a first print that fails between the database refusing another bench its label and that bench asking who holds it: the other bench prints, it is not told of a conflict', async () => {
    const holder = (await scan(bench3, [order('ORD-BLINK')])).entries[0]!;
    // Bench 7's store: the moment its run is refused, Bench 3's label fails (its send never began
    // while the store was away), before Bench 7 reads the guard's holder.
    const engine7 = await store.another();
    let refusals = 0;
    const racing = new Proxy(engine7, {
      get(target, property) {
        if (property !== 'transaction') {
          const value: unknown = Reflect.get(target, property);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        }
        return async (...args: Parameters<StoreEngine['transaction']>) => {
          try {
            return await target.transaction(...args);
          } catch (error) {
            refusals += 1;
            if (refusals === 1) await bench3.labels.markFailed(holder.id, 'The store cannot be reached');
            throw error;
          }
        };
      },
    });
    const blinking = new PrintJournal(racing, () => at, undefined, { id: 'bench-7-id', name: () => 'Bench 7' });
    await expect(scan(blinking, [order('ORD-BLINK')])).resolves.toMatchObject({ entries: [{ orderId: 'ORD-BLINK', benchName: 'Bench 7' }] });
    expect(refusals).toBe(1);
  });

  it('does not count a first print that failed, nor an uncertain one a lead said to print again, nor a deliberate reprint', async () => {
    const failed = (await scan(bench3, [order('ORD-FAILED')])).entries[0]!;
    await bench3.labels.markFailed(failed.id, 'paper out');
    await expect(scan(bench7, [order('ORD-FAILED')])).resolves.toMatchObject({ entries: [{ orderId: 'ORD-FAILED' }] });

    const uncertain = (await scan(bench3, [order('ORD-UNSURE')])).entries[0]!;
    await bench3.labels.markUncertain(uncertain.id, 'connection dropped');
    await expect(scan(bench7, [order('ORD-UNSURE')])).rejects.toBeInstanceOf(FirstPrintTaken);
    await bench3.labels.decide(uncertain.id, 'print-again', 'Kim');
    await expect(scan(bench7, [order('ORD-UNSURE')])).resolves.toMatchObject({ entries: [{ orderId: 'ORD-UNSURE' }] });

    const printed = (await scan(bench3, [order('ORD-AGAIN')])).entries[0]!;
    await expect(scan(bench7, [order('ORD-AGAIN', printed.id)])).resolves.toMatchObject({ entries: [{ reprintOf: printed.id }] });
    await expect(scan(bench7, [order('ORD-AGAIN')])).rejects.toBeInstanceOf(FirstPrintTaken);
  });
});

describe('migration 12 on an existing bench file', () => {
  it('opens a file whose journal already holds two first prints of one order, and guards the order from then on', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'journal-v11-'));
    const path = join(folder, 'station.db');
    try {
      // A bench's file as version 11 left it, with an order printed twice (the guard was per bench, and older versions raced).
      const old = new Database(path);
      old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      for (const migration of migrationsFor(sqlite).filter((step) => step.version <= 11)) {
        old.exec(migration.sql);
        old.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, '2026-01-01T00:00:00.000Z');
      }
      old.prepare("INSERT INTO print_runs (id, environment, kind, printer_id, operator, state, options, created_at, updated_at) VALUES ('r-old', 'test', 'single', 'p-1', 'Sam', 'finished', '{}', 'x', 'x')").run();
      const row = old.prepare(
        "INSERT INTO print_journal (environment, run_id, position, printer_id, operator, order_id, format, state, queued_at, updated_at) VALUES ('test', 'r-old', 0, 'p-1', 'Sam', ?, 'zpl', ?, ?, ?)",
      );
      for (const [orderId, state, at] of [['ORD-TWICE', 'printed', '2026-01-01T08:00:00.000Z'], ['ORD-TWICE', 'printed', '2026-01-01T09:00:00.000Z'], ['ORD-GONE', 'failed', '2026-01-01T08:00:00.000Z']] as const) {
        row.run(orderId, state, at, at);
      }
      old.close();

      const engine = SqliteEngine.open(path);
      try {
        const journal = new PrintJournal(engine, () => new Date('2026-03-02T06:28:00.000Z'), undefined, { id: 'bench-id', name: () => 'Bench 3' });
        const first = await journal.history.liveFirstPrint('test', { orderId: 'ORD-TWICE', bundleId: null, bundlePosition: null, format: 'zpl' });
        expect(first?.queuedAt, 'the earlier of the two holds the order').toBe('2026-01-01T08:00:00.000Z');
        const refused = await journal.runRecords.createRun({ environment: 'test', kind: 'single', printerId: 'p-1', operator: 'Kim', options: emptyRunOptions(), labels: [{ orderId: 'ORD-TWICE', bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl' }] }).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(FirstPrintTaken);
        expect((refused as FirstPrintTaken).holder).toMatchObject({ id: first?.id, benchName: null });
        await expect(journal.runRecords.createRun({ environment: 'test', kind: 'single', printerId: 'p-1', operator: 'Kim', options: emptyRunOptions(), labels: [{ orderId: 'ORD-GONE', bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl' }] })).resolves.toMatchObject({ entries: [{ benchName: 'Bench 3' }] });
      } finally {
        await engine.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe.each(engineFactories)('run ownership across benches: $name', (factory) => {
  let store: EngineUnderTest;
  let now = Date.parse('2026-03-02T06:00:00.000Z');
  const clock: QueueClock = { now: () => now, sleep: async () => undefined };
  const logger = createLogger(() => undefined, { level: 'error' });
  const boot = { bootId: 'boot-1', bootedAtMs: 0 };

  beforeEach(async () => {
    store = await factory.open();
    now = Date.parse('2026-03-02T06:00:00.000Z');
  });
  afterEach(async () => {
    await store.dispose();
  });

  const benchAt = async (name: string, engine: StoreEngine) => {
    const journal = new PrintJournal(engine, () => new Date(now), undefined, { id: `${name}-id`, name: () => name });
    // Runs live in memory in no process of these benches: only the heartbeat tells.
    return { journal, ownership: new RunOwnership(journal, logger, clock, () => false, boot, 60_000) };
  };

  it('lets one other bench take over a run whose owner stopped its heartbeat, and none while the owner is alive', async () => {
    const bench3 = await benchAt('Bench 3', store.engine);
    const bench7 = await benchAt('Bench 7', await store.another());
    const bench9 = await benchAt('Bench 9', await store.another());
    const { run } = await bench3.journal.runRecords.createRun({
      environment: 'test',
      kind: 'bundles',
      printerId: 'p-1',
      operator: 'Sam',
      options: { ...emptyRunOptions(), owner: bench3.ownership.owner },
      labels: [{ orderId: 'ORD-OWNED', bundleId: 'BND-1', bundlePosition: 1, bundleCount: 1, format: 'zpl' }],
    });

    now += 50_000;
    await bench3.journal.runRecords.renewHeartbeat([run.id]);
    now += 55_000;
    // 55 s since the last beat: alive. The owner's pid means nothing on another computer.
    const seen = await bench7.journal.runRecords.requireRun(run.id);
    expect(bench7.ownership.isOrphan(seen)).toBe(false);
    await expect(bench7.ownership.takeOver(seen)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('Bench 3') });

    now += 10_000;
    const stale = await bench7.journal.runRecords.requireRun(run.id);
    expect(bench7.ownership.isOrphan(stale)).toBe(true);
    const attempts = await Promise.allSettled([bench7.ownership.takeOver(stale), bench9.ownership.takeOver(await bench9.journal.runRecords.requireRun(run.id))]);
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
    expect(attempts.find((attempt) => attempt.status === 'rejected')).toMatchObject({ reason: { code: 'CONFLICT' } });
    const winner = attempts[0]?.status === 'fulfilled' ? 'Bench 7' : 'Bench 9';
    const taken = await bench3.journal.runRecords.requireRun(run.id);
    expect(taken).toMatchObject({ bench: `${winner}-id`, benchName: winner, heartbeatAt: new Date(now).toISOString() });
    // The new owner is alive now: the old owner, coming back, cannot take it back at once.
    await expect(bench3.ownership.takeOver(taken)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('at start, a bench settles only its own interrupted runs, never another bench’s', async () => {
    const bench3 = await benchAt('Bench 3', store.engine);
    const bench7 = await benchAt('Bench 7', await store.another());
    const label = { orderId: null, bundleId: 'BND-2', bundlePosition: 1, bundleCount: 1, format: 'zpl' as const };
    const theirs = await bench3.journal.runRecords.createRun({ environment: 'test', kind: 'bundles', printerId: 'p-1', operator: '', options: emptyRunOptions(), labels: [label] });
    const mine = await bench7.journal.runRecords.createRun({ environment: 'test', kind: 'bundles', printerId: 'p-1', operator: '', options: emptyRunOptions(), labels: [{ ...label, bundleId: 'BND-3' }] });
    now += 600_000;
    await bench7.ownership.recover();
    expect((await bench7.journal.runRecords.requireRun(mine.run.id)).state).toBe('paused');
    expect((await bench7.journal.runRecords.requireRun(theirs.run.id)).state).toBe('running');
  });
});
