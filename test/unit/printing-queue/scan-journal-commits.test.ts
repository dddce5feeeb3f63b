/**
 * A scan's run is committed without waiting for the disk and taken there in the background (its
 * `onDisk`), its "sending began" is committed without waiting for the disk, and its fetch goes
 * into the commit that records it sent. These tests hold the parts of that which keep the
 * journal's promises: the rows really are committed, the write-ahead log is flushed for real, the
 * connection waits for the disk again for every write after them, and nothing is half-written.
 */
import Database from 'libsql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Environment } from '../../../src/shared/contract/app';
import { emptyRunOptions } from '../../../src/main/printing/journal/journal-rows';
import { PrintJournal } from '../../../src/main/printing/journal/print-journal';
import type { CreateRunInput } from '../../../src/main/printing/journal/run-records';
import { StoreLabelMarks } from '../../../src/main/printing/queue/label-marks';
import { openDatabase, type StationDatabase } from '../../../src/main/store/database';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import type { StoreEngine } from '../../../src/main/store/engine/store-engine';
import { createWalFlush } from '../../../src/main/store/wal-flush';

const FULL = 2;

describe('the journal commits of a scan', () => {
  let folder: string;
  let path: string;
  let db: StationDatabase;
  let engine: SqliteEngine;
  let journal: PrintJournal;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'scan-commits-'));
    path = join(folder, 'station.db');
    db = openDatabase(path);
    engine = new SqliteEngine(db, false);
    journal = new PrintJournal(engine, undefined, createWalFlush(path));
  });

  afterEach(() => {
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const synchronous = (): number => (db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous;

  const scanRun = (environment: Environment = 'test'): CreateRunInput => ({
    environment,
    kind: 'single',
    printerId: 'p-1',
    operator: 'Sam',
    options: emptyRunOptions(),
    labels: [{ orderId: 'ORD-1', bundleId: 'BND-1', bundlePosition: null, bundleCount: null, format: 'zpl' }],
    waitForDisk: false,
  });

  it('commits a run written without waiting for the disk, flushes it in the background, and waits for the disk again on the next write', async () => {
    expect(synchronous()).toBe(FULL);
    const { run, onDisk } = await journal.runRecords.createRun(scanRun());
    await expect(onDisk).resolves.toBeUndefined();

    // Committed, not left in an open transaction: another connection to the file reads it.
    const other = new Database(path);
    try {
      expect(other.prepare('SELECT state FROM print_runs WHERE id = ?').get(run.id)).toMatchObject({ state: 'running' });
      expect(other.prepare('SELECT count(*) AS n FROM print_journal WHERE run_id = ?').get(run.id)).toMatchObject({ n: 1 });
    } finally {
      other.close();
    }
    expect(synchronous()).toBe(FULL);
  });

  it('the engine’s transaction asked not to wait for the disk runs with the relaxed setting, and only that transaction', async () => {
    const inside = await engine.transaction((tx) => tx.query<{ synchronous: number }>('PRAGMA synchronous'), { waitForDisk: false });
    expect(inside[0]?.synchronous, 'NORMAL inside').toBe(1);
    expect(synchronous()).toBe(FULL);
    const waiting = await engine.transaction((tx) => tx.query<{ synchronous: number }>('PRAGMA synchronous'));
    expect(waiting[0]?.synchronous).toBe(FULL);
  });

  it('commits a scan’s "sending began" without waiting for the disk, and waits again on the next write', async () => {
    const { entries } = await journal.runRecords.createRun(scanRun());
    const id = entries[0]?.id ?? -1;
    await journal.labels.markSending(id, { waitForDisk: false });
    const other = new Database(path);
    try {
      expect((other.prepare('SELECT sent_at FROM print_journal WHERE id = ?').get(id) as { sent_at: string | null }).sent_at).not.toBeNull();
    } finally {
      other.close();
    }
    expect(synchronous()).toBe(FULL);
  });

  it('a run that cannot be taken to the disk says so: its log cannot be flushed', async () => {
    const broken = new PrintJournal(engine, undefined, createWalFlush(join(folder, 'elsewhere', 'station.db')));
    const { onDisk } = await broken.runRecords.createRun(scanRun());
    await expect(onDisk).rejects.toThrow(/could not write its journal to disk .*sent nothing/);
  });

  it('leaves nothing half-written and the connection waiting for the disk when such a write fails', async () => {
    await expect(journal.runRecords.createRun(scanRun('nowhere' as Environment))).rejects.toThrow(/CHECK constraint/);
    expect(synchronous()).toBe(FULL);
    expect(db.prepare('SELECT count(*) AS n FROM print_runs').get()).toMatchObject({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM print_journal').get()).toMatchObject({ n: 0 });
  });

  it('commits a label’s marks written just before its "sent", and the "sent" waits for the disk', async () => {
    const { entries } = await journal.runRecords.createRun(scanRun());
    const id = entries[0]?.id ?? -1;
    await journal.labels.markSending(id);
    await new StoreLabelMarks(engine).record({ entryId: id, sentAtMs: 1_000, serial: 'XXZ1', odometerTarget: 42 }, { waitForDisk: false });
    expect(synchronous()).toBe(FULL);
    await journal.labels.markSent(id);
    const other = new Database(path);
    try {
      expect(other.prepare('SELECT serial, odometer_target FROM print_label_marks WHERE entry_id = ?').get(id)).toMatchObject({ serial: 'XXZ1', odometer_target: 42 });
    } finally {
      other.close();
    }
  });

  it('renews a run’s heartbeat on the bench’s file without waiting for the disk (it may fall in the middle of a scan), and waits again after', async () => {
    const asked: (boolean | undefined)[] = [];
    // The real engine, noting how each transaction is asked to commit.
    const noting: StoreEngine = {
      kind: engine.kind,
      dialect: engine.dialect,
      commitCanSkipDiskWait: engine.commitCanSkipDiskWait,
      sharedByBenches: engine.sharedByBenches,
      outsideWritesVersion: () => engine.outsideWritesVersion(),
      query: (sql, params) => engine.query(sql, params),
      execute: (sql, params) => (asked.push(undefined), engine.execute(sql, params)),
      executeWithoutDiskWait: (sql, params) => (asked.push(false), engine.executeWithoutDiskWait(sql, params)),
      transaction: (work, options) => (asked.push(options?.waitForDisk), engine.transaction(work, options)),
      notify: (channel, payload) => engine.notify(channel, payload),
      subscribe: (channel, handlers) => engine.subscribe(channel, handlers),
      close: () => engine.close(),
    };
    let now = new Date('2026-11-24T06:00:00.000Z');
    const beating = new PrintJournal(noting, () => now, createWalFlush(path));
    const { run } = await journal.runRecords.createRun({ ...scanRun(), waitForDisk: true });
    now = new Date('2026-11-24T06:00:10.000Z');
    await beating.runRecords.renewHeartbeat([run.id]);
    expect(asked).toEqual([false]);
    expect(synchronous()).toBe(FULL);
    const other = new Database(path);
    try {
      expect(other.prepare('SELECT heartbeat_at FROM print_runs WHERE id = ?').get(run.id)).toMatchObject({ heartbeat_at: '2026-11-24T06:00:10.000Z' });
    } finally {
      other.close();
    }
  });

  it('marks a scan’s label printed and closes its run in one write', async () => {
    const { run, entries } = await journal.runRecords.createRun(scanRun());
    const id = entries[0]?.id ?? -1;
    await journal.labels.markSending(id);
    await journal.labels.markSent(id);
    await journal.labels.markPrinted([id], { runId: run.id, state: 'finished' });
    expect((await journal.labels.entry(id))?.state).toBe('printed');
    expect((await journal.runRecords.run(run.id))?.state).toBe('finished');
    expect((await journal.runRecords.run(run.id))?.finishedAt).not.toBeNull();
  });

  it('records a scan’s fetch with its "sent", in one write', async () => {
    const { entries } = await journal.runRecords.createRun(scanRun());
    const id = entries[0]?.id ?? -1;
    await journal.labels.markSending(id);
    await journal.labels.markSent(id, { sha256: 'a'.repeat(64), format: 'gfa' });
    expect(await journal.labels.entry(id)).toMatchObject({ state: 'sent', documentSha256: 'a'.repeat(64), format: 'gfa' });
    expect((await journal.labels.entry(id))?.fetchedAt).not.toBeNull();
    expect((await journal.labels.entry(id))?.sentAt).not.toBeNull();
  });
});
