/**
 * The merge of a bench's local-only labels into the shared journal, against a real PostgreSQL
 * store and the benches' own SQLite files: a merge cut short resumes without writing a label
 * twice, three benches merging the same orders at once leave exactly one guarded first print and a
 * report line per other bench, a label that never reached a printer is not reported, and a local reprint keeps
 * its link to the first print.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mergeLocalLabels, offlineDuplicates } from '../../../src/main/printing/offline/offline-merge';
import { emptyRunOptions } from '../../../src/main/printing/journal/journal-rows';
import { PrintJournal } from '../../../src/main/printing/journal/print-journal';
import type { NewLabel } from '../../../src/main/printing/journal/journal-types';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import type { StoreEngine } from '../../../src/main/store/engine/store-engine';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';
import { postgresConfig } from './engines';

const label = (orderId: string, reprintOf: number | null = null): NewLabel => ({
  orderId,
  bundleId: null,
  bundlePosition: null,
  bundleCount: null,
  format: 'zpl',
  reprintOf,
  reason: reprintOf === null ? null : 'smudged',
});

describe('merging local-only labels into the shared journal', () => {
  let database: TestDatabase;
  let shared: PostgresEngine;
  const folders: string[] = [];
  const engines: StoreEngine[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(inject('postgres'));
    shared = await PostgresEngine.open(postgresConfig(database.info));
    await shared.migrate();
  });
  afterAll(async () => {
    for (const engine of engines) await engine.close();
    await shared?.close();
    await database?.drop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  /** A bench's own file, and its journal while a lead allowed local-only printing. */
  function benchFile(id: string, name: string) {
    const folder = mkdtempSync(join(tmpdir(), 'station-offline-'));
    folders.push(folder);
    const local = SqliteEngine.open(join(folder, 'station.db'));
    engines.push(local);
    const journal = new PrintJournal(local, undefined, undefined, { id, name: () => name, localOnly: () => ({ reason: 'network down', by: 'Lead Kim' }) });
    return { id, local, journal };
  }

  /** A scan's run whose label the printer took and proved printed. */
  async function printed(journal: PrintJournal, orderId: string, reprintOf: number | null = null): Promise<number> {
    const { entries } = await journal.runRecords.createRun({ environment: 'test', kind: 'single', printerId: 'p-1', operator: 'Sam', options: emptyRunOptions(), labels: [label(orderId, reprintOf)] });
    const id = entries[0]!.id;
    await journal.labels.markSending(id);
    await journal.labels.markSent(id, { sha256: 'a'.repeat(64), format: 'zpl' });
    await journal.labels.markPrinted([id]);
    return id;
  }

  const sharedRows = async (orderId: string) =>
    shared.query<{ id: number; guarded: number | null; duplicate_of: number | null; local_ref: string | null; reprint_of: number | null }>(
      'SELECT id, guarded, duplicate_of, local_ref, reprint_of FROM print_journal WHERE order_id = $1 ORDER BY id',
      [orderId],
    );

  it('resumes a merge cut short after the shared store took a label, writing nothing twice', async () => {
    const bench = benchFile('bench-a', 'Bench A');
    await printed(bench.journal, 'ORD-RESUME-1');
    await printed(bench.journal, 'ORD-RESUME-2');
    expect(await mergeLocalLabels({ local: bench.local, shared, benchId: bench.id })).toEqual({ labels: 2, duplicates: 0 });
    // The bench stopped after the shared commit and before its own file said so.
    await bench.local.execute('UPDATE print_journal SET merged_at = NULL');
    expect(await mergeLocalLabels({ local: bench.local, shared, benchId: bench.id })).toEqual({ labels: 0, duplicates: 0 });
    for (const orderId of ['ORD-RESUME-1', 'ORD-RESUME-2']) {
      const rows = await sharedRows(orderId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ guarded: 1, duplicate_of: null });
    }
  });

  it('of three benches merging the same orders at once, one holds each order\'s guard and the others are reported as printed twice', async () => {
    const benches = ['a', 'b', 'c'].map((letter) => benchFile(`bench-race-${letter}`, `Bench ${letter.toUpperCase()}`));
    const orders = Array.from({ length: 30 }, (_, index) => `ORD-RACE-${index}`);
    for (const orderId of orders) for (const bench of benches) await printed(bench.journal, orderId);
    // Each bench on connections of its own, as separate processes are.
    const engines = await Promise.all(benches.map(() => PostgresEngine.open(postgresConfig(database.info))));
    const results = await Promise.all(benches.map((bench, index) => mergeLocalLabels({ local: bench.local, shared: engines[index]!, benchId: bench.id })));
    for (const engine of engines) await engine.close();
    expect(results.reduce((sum, result) => sum + result.labels, 0)).toBe(90);
    expect(results.reduce((sum, result) => sum + result.duplicates, 0)).toBe(60);
    for (const orderId of orders) {
      const rows = await sharedRows(orderId);
      expect(rows).toHaveLength(3);
      const guarded = rows.filter((row) => row.guarded === 1);
      const reported = rows.filter((row) => row.duplicate_of !== null);
      expect(guarded).toHaveLength(1);
      expect(reported).toHaveLength(2);
      expect(reported.map((row) => row.duplicate_of)).toEqual([guarded[0]?.id, guarded[0]?.id]);
    }
    const report = await offlineDuplicates(shared, 'test', 100);
    expect(report.filter((line) => line.orderId?.startsWith('ORD-RACE-'))).toHaveLength(60);
  });

  it('does not report a local label that never reached a printer, and keeps a local reprint linked to its first print', async () => {
    const elsewhere = benchFile('bench-other', 'Bench B');
    await printed(elsewhere.journal, 'ORD-FAILED-1');
    await mergeLocalLabels({ local: elsewhere.local, shared, benchId: elsewhere.id });

    const bench = benchFile('bench-c', 'Bench C');
    const { entries } = await bench.journal.runRecords.createRun({ environment: 'test', kind: 'single', printerId: 'p-1', operator: 'Sam', options: emptyRunOptions(), labels: [label('ORD-FAILED-1')] });
    await bench.journal.labels.markFailed(entries[0]!.id, 'The printer was out of paper and the packer cancelled.');
    const first = await printed(bench.journal, 'ORD-REPRINT-1');
    await printed(bench.journal, 'ORD-REPRINT-1', first);

    expect(await mergeLocalLabels({ local: bench.local, shared, benchId: bench.id })).toEqual({ labels: 3, duplicates: 0 });
    const failed = await sharedRows('ORD-FAILED-1');
    expect(failed).toHaveLength(2);
    expect(failed.every((row) => row.duplicate_of === null)).toBe(true);
    const [original, reprint] = await sharedRows('ORD-REPRINT-1');
    expect(original).toMatchObject({ guarded: 1, local_ref: `bench-c:${first}` });
    expect(reprint).toMatchObject({ guarded: null, reprint_of: original!.id, duplicate_of: null });
  });
});
