/**
 * The printer registry and the printer leases on both engines (SQLite on a file, PostgreSQL on the
 * run's private server): the printers every bench shares, each bench's own defaults, a change at
 * one bench seen at the next read of another, and one bench driving a printer at a time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrinterLeases } from '../../../src/main/printing/printer-leases';
import { PrinterRegistry, printersChannel } from '../../../src/main/printing/printers';
import Database from 'libsql';
import { benchId } from '../../../src/main/store/bench-id';
import { openDatabase } from '../../../src/main/store/database';
import { migrationsFor, sqlite } from '../../../src/main/store/schema';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import type { StoreEngine, Subscription } from '../../../src/main/store/engine/store-engine';
import { StationError } from '../../../src/shared/errors';
import { engineFactories, type EngineUnderTest } from './engines';

let port = 9100;
const zebra = (name: string) => ({ name, address: { kind: 'network-zebra' as const, host: '10.0.0.5', port: port++ } });

/** Resolves at the next notification on the printers channel (what a bench's registry hears). */
async function nextPrintersNotice(engine: StoreEngine): Promise<{ heard: Promise<void>; subscription: Subscription }> {
  let resolve: () => void = () => undefined;
  const heard = new Promise<void>((done) => (resolve = done));
  const subscription = await engine.subscribe(printersChannel, { onMessage: () => resolve() });
  return { heard, subscription };
}

describe.each(engineFactories)('the printer registry: $name', (factory) => {
  let store: EngineUnderTest;
  let otherBenchStore: StoreEngine;
  let benchA: PrinterRegistry;
  let benchB: PrinterRegistry;
  const following: Subscription[] = [];

  beforeAll(async () => {
    store = await factory.open();
    otherBenchStore = await store.another();
    benchA = new PrinterRegistry(store.engine, { bench: 'bench-a' });
    benchB = new PrinterRegistry(otherBenchStore, { bench: 'bench-b' });
    following.push(await benchA.follow(), await benchB.follow());
  });
  afterAll(async () => {
    for (const subscription of following) await subscription.close();
    await store?.dispose();
  });

  it('keeps kind, address, pinned orientation and tuning', async () => {
    const added = await benchA.add('test', { ...zebra('Kept 1'), orientation: 'portrait', maxFormatsInBuffer: 5 });
    expect(added).toMatchObject({
      name: 'Kept 1',
      format: 'zpl',
      orientation: 'portrait',
      address: { kind: 'network-zebra', host: '10.0.0.5' },
      options: { maxFormatsInBuffer: 5, gfaEncoding: 'compressed' },
    });
    expect((await benchA.add('test', { name: 'A4 office', address: { kind: 'os-queue-pdf', queue: 'Office' } })).format).toBe('pdf');
  });

  it('has one default per role for a bench, taken from the other printer when given to a new one', async () => {
    const first = await benchA.add('sandbox', { ...zebra('Role 1'), defaultForSingle: true, defaultForBundles: true });
    const second = await benchA.add('sandbox', { ...zebra('Role 2'), defaultForBundles: true });
    expect((await benchA.defaultFor('sandbox', 'single'))?.id).toBe(first.id);
    expect((await benchA.defaultFor('sandbox', 'bundles'))?.id).toBe(second.id);
    expect((await benchA.get('sandbox', first.id))?.defaultForBundles).toBe(false);
    await benchA.update('sandbox', { id: first.id, defaultForSingle: false });
    expect((await benchA.get('sandbox', first.id))?.defaultForSingle).toBe(false);
  });

  it('says what to do when no printer fits', async () => {
    await expect(benchA.choose('live', 'single', undefined)).rejects.toThrow(/No printer is set up yet/);
    await benchA.add('live', zebra('Only 1'));
    // The only printer serves every role.
    expect((await benchA.choose('live', 'bundles', undefined)).name).toBe('Only 1');
    await benchA.add('live', zebra('Only 2'));
    await expect(benchA.choose('live', 'bundles', undefined)).rejects.toThrow(/No printer is chosen for bundles/);
    await expect(benchA.choose('live', 'single', 'p-nope')).rejects.toThrow(/no printer "p-nope"/);
  });

  it('finds a printer by id or by name, per environment', async () => {
    const added = await benchA.add('test', zebra('Findable'));
    expect((await benchA.find('test', 'findable'))?.id).toBe(added.id);
    expect((await benchA.find('test', added.id))?.id).toBe(added.id);
    expect(await benchA.find('live', 'Findable')).toBeNull();
  });

  it('forgets what a check found when the address changes', async () => {
    const added = await benchA.add('test', zebra('Checked'));
    await benchA.recordCheck('test', added.id, { dpi: 300, printWidthDots: 1248, model: 'ZT411', warnings: ['300 dpi'] });
    expect((await benchA.get('test', added.id))?.options).toMatchObject({ dpi: 300, model: 'ZT411' });
    const moved = await benchA.update('test', { id: added.id, address: { kind: 'network-zebra', host: '10.0.0.6', port: 9100 } });
    expect(moved.options).toMatchObject({ dpi: null, model: null, checkedAt: null, warnings: [] });
  });

  it("shows both benches the same printers, each with its own defaults", async () => {
    const one = await benchA.add('test', { ...zebra('Shared 1'), defaultForSingle: true });
    const notice = await nextPrintersNotice(store.engine);
    const two = await benchB.add('test', { ...zebra('Shared 2'), defaultForSingle: true });
    // Bench A hears of bench B's printer the way its registry does.
    await notice.heard;
    await notice.subscription.close();
    const ids = (printers: { id: string }[]) => printers.map((printer) => printer.id).filter((id) => id === one.id || id === two.id);
    expect(ids(await benchA.list('test'))).toEqual([one.id, two.id]);
    expect(ids(await benchB.list('test'))).toEqual([one.id, two.id]);
    // Bench B choosing its default did not take bench A's.
    expect((await benchA.defaultFor('test', 'single'))?.id).toBe(one.id);
    expect((await benchB.defaultFor('test', 'single'))?.id).toBe(two.id);
  });

  it("sees a printer another bench added at its next read, its cached list dropped by the notification", async () => {
    // Bench B has read (and cached) the list before bench A adds.
    const before = await benchB.list('sandbox');
    const notice = await nextPrintersNotice(otherBenchStore);
    const added = await benchA.add('sandbox', zebra('Added at A'));
    await notice.heard;
    await notice.subscription.close();
    const after = await benchB.list('sandbox');
    expect(after.map((printer) => printer.id)).toEqual([...before.map((printer) => printer.id), added.id]);
  });

  it('takes a scan\'s printer read from memory until something changes', async () => {
    // Earlier tests' writes are still being heard by bench A's own registry, and a late one would
    // drop the list cached below. Its listening connection hears notifications in order: once one
    // sent now arrives, every earlier one has been handled.
    const earlierHeard = await nextPrintersNotice(store.engine);
    await store.engine.notify(printersChannel, 'test');
    await earlierHeard.heard;
    await earlierHeard.subscription.close();
    await benchA.list('test');
    const rows = (await store.engine.query("SELECT id FROM printers WHERE environment = 'test'")).length;
    // A row written behind the registry's back (no notification; on SQLite the same connection,
    // so data_version does not move either) is not seen: the list came from memory.
    await store.engine.execute(
      "INSERT INTO printers (environment, id, name, kind, address, orientation, options, created_at, updated_at) VALUES ('test', 'p-behind', 'Behind', 'network-zebra', '{\"kind\":\"network-zebra\",\"host\":\"10.0.0.9\",\"port\":9100}', 'landscape', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
    );
    expect((await benchA.list('test')).length).toBe(rows);
    await benchA.add('test', zebra('After'));
    expect((await benchA.list('test')).map((printer) => printer.id)).toContain('p-behind');
  });
});

describe('the printer registry on one bench\'s SQLite file', () => {
  it('sees a printer another connection added (the CLI next to the app)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'registry-'));
    try {
      const path = join(folder, 'station.db');
      const app = new PrinterRegistry(new SqliteEngine(openDatabase(path), true), { bench: 'bench-a' });
      const cli = new PrinterRegistry(new SqliteEngine(openDatabase(path), true), { bench: 'bench-a' });
      expect(await app.list('test')).toEqual([]);
      const added = await cli.add('test', { ...zebra('Bench 1'), defaultForSingle: true });
      expect((await app.list('test')).map((printer) => printer.id)).toEqual([added.id]);
      // The app and the CLI are the same bench: one default.
      expect((await app.defaultFor('test', 'single'))?.id).toBe(added.id);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('a single-bench file from before per-bench defaults (migration 13)', () => {
  /** A station file as version 11 left it, with a printer chosen for each role. */
  const oldFile = (path: string, withBenchId: string | null) => {
    const db = new Database(path);
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const migration of migrationsFor(sqlite).filter((candidate) => candidate.version <= 11)) {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, '2026-01-01T00:00:00.000Z');
    }
    const insert = db.prepare(
      `INSERT INTO printers (environment, id, name, kind, address, orientation, default_for_single, default_for_bundles, options, created_at, updated_at)
       VALUES ('live', ?, ?, 'network-zebra', ?, 'landscape', ?, ?, '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    );
    insert.run('p-single', 'Singles', JSON.stringify({ kind: 'network-zebra', host: '10.0.0.7', port: 9100 }), 1, 0);
    insert.run('p-bundles', 'Bundles', JSON.stringify({ kind: 'network-zebra', host: '10.0.0.8', port: 9100 }), 0, 1);
    if (withBenchId) {
      db.prepare(`INSERT INTO settings (scope, key, value, updated_at) VALUES ('station', 'benchId', ?, '2026-01-01T00:00:00.000Z')`).run(JSON.stringify(withBenchId));
    }
    db.close();
  };

  it.each([
    ['a bench id of its own already', '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b'],
    ['no bench id yet', null],
  ])('keeps its default printers as this bench\'s, with %s', async (_title, existing) => {
    const folder = mkdtempSync(join(tmpdir(), 'registry-upgrade-'));
    try {
      const path = join(folder, 'station.db');
      oldFile(path, existing);
      const db = openDatabase(path);
      const bench = benchId(db);
      if (existing) expect(bench).toBe(existing);
      const engine = new SqliteEngine(db, true);
      const registry = new PrinterRegistry(engine, { bench });
      expect((await registry.defaultFor('live', 'single'))?.id).toBe('p-single');
      expect((await registry.defaultFor('live', 'bundles'))?.id).toBe('p-bundles');
      // Another bench joining the same printers has chosen nothing yet.
      const other = new PrinterRegistry(engine, { bench: 'another-bench' });
      expect(await other.defaultFor('live', 'single')).toBeNull();
      await engine.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe.each(engineFactories)('the printer lease: $name', (factory) => {
  let store: EngineUnderTest;
  let otherBenchStore: StoreEngine;
  let now = Date.parse('2026-11-24T06:00:00.000Z');
  const clock = () => now;
  let leasesA: PrinterLeases;
  let leasesB: PrinterLeases;

  beforeAll(async () => {
    store = await factory.open();
    otherBenchStore = await store.another();
    leasesA = new PrinterLeases(store.engine, { bench: 'bench-a', benchName: () => 'Bench 3', now: clock, durationMs: 30_000 });
    leasesB = new PrinterLeases(otherBenchStore, { bench: 'bench-b', benchName: () => 'Bench 7', now: clock, durationMs: 30_000 });
  });
  afterAll(async () => {
    await store?.dispose();
  });

  const printer = (name: string) => ({ id: `p-${name}`, name, environment: 'test' as const, address: { kind: 'network-zebra' as const, host: '10.0.1.1', port: port++ } });
  const refusal = async (taking: Promise<void>) => {
    const error = await taking.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StationError);
    return error as StationError;
  };

  it('goes to exactly one of two benches taking it at once; the other is told who has it and since when', async () => {
    for (let round = 0; round < 10; round += 1) {
      const zebra = printer(`Race ${round}`);
      const results = await Promise.allSettled([leasesA.take(zebra), leasesB.take(zebra)]);
      const won = results.filter((result) => result.status === 'fulfilled');
      expect(won, `round ${round}`).toHaveLength(1);
      const lost = results.find((result) => result.status === 'rejected');
      const error = (lost as PromiseRejectedResult).reason as StationError;
      expect(error.code).toBe('PRINTER_LEASED');
      const winner = results[0]?.status === 'fulfilled' ? 'Bench 3' : 'Bench 7';
      expect(error.facts).toMatchObject({ printerName: zebra.name, benchName: winner, since: new Date(now).toISOString() });
    }
  });

  it('is renewed by its holder, and taken over by another bench only once it has expired', async () => {
    const zebra = printer('Expiry');
    await leasesA.take(zebra);
    now += 20_000;
    await leasesA.take(zebra); // renewed: good for 30 s from here
    now += 20_000;
    expect((await refusal(leasesB.take(zebra))).facts).toMatchObject({ benchName: 'Bench 3' });
    now += 10_000;
    await leasesB.take(zebra);
    expect(await leasesB.holder(zebra)).toMatchObject({ benchName: 'Bench 7', since: new Date(now).toISOString() });
    expect((await refusal(leasesA.take(zebra))).facts).toMatchObject({ benchName: 'Bench 7' });
  });

  it('is free for another bench as soon as its holder gives it back', async () => {
    const zebra = printer('Released');
    await leasesA.take(zebra);
    expect((await refusal(leasesB.take(zebra))).code).toBe('PRINTER_LEASED');
    // Giving back a lease another bench holds changes nothing.
    await leasesB.release(zebra);
    expect((await leasesA.holder(zebra))?.benchName).toBe('Bench 3');
    await leasesA.release(zebra);
    await leasesB.take(zebra);
    expect((await leasesB.holder(zebra))?.benchName).toBe('Bench 7');
  });

  it('leaves printers attached to a bench (OS queue, USB) unleased', async () => {
    const queue = { id: 'p-queue', name: 'Office queue', environment: 'test' as const, address: { kind: 'os-queue-raw' as const, queue: 'Zebra' } };
    await leasesA.take(queue);
    await leasesB.take(queue);
    expect(await leasesA.holder(queue)).toBeNull();
  });
});
