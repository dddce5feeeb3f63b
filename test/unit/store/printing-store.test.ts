/**
 * The printing store sends each statement to the store in use (the shared store, or the bench's
 * own file during local-only printing), and a run keeps writing where it began: label ids are
 * each store's own, so a shared run's late "sent" must not land on the bench's label of the same
 * id. Both stores are real SQLite files with the station's schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyRunOptions } from '../../../src/main/printing/journal/journal-rows';
import { PrintJournal } from '../../../src/main/printing/journal/print-journal';
import type { NewLabel } from '../../../src/main/printing/journal/journal-types';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import { createPrintingStore } from '../../../src/main/store/printing-store';

const folders: string[] = [];
const engines: SqliteEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function setUp() {
  const folder = mkdtempSync(join(tmpdir(), 'station-printing-store-'));
  folders.push(folder);
  const shared = SqliteEngine.open(join(folder, 'warehouse.db'));
  const bench = SqliteEngine.open(join(folder, 'station.db'));
  engines.push(shared, bench);
  const store = createPrintingStore({ shared, bench });
  const journal = new PrintJournal(store, () => new Date('2026-11-24T06:30:00.000Z'), undefined, { id: 'bench-1', name: () => 'Bench 1', localOnly: () => store.localOnly() });
  return { shared, bench, store, journal };
}

const label = (orderId: string): NewLabel => ({ orderId, bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl' });
const scanRun = (journal: PrintJournal, orderId: string) =>
  journal.runRecords.createRun({ environment: 'test', kind: 'single', printerId: 'p-1', operator: 'Sam', options: emptyRunOptions(), labels: [label(orderId)] });

async function rows(engine: SqliteEngine) {
  return engine.query<{ id: number; order_id: string; state: string; local_only: string | null; local_only_by: string | null }>(
    'SELECT id, order_id, state, local_only, local_only_by FROM print_journal ORDER BY id',
  );
}

describe('the printing store', () => {
  it("writes to the shared store, then to the bench's file with the lead's reason on each label, then to the shared store again", async () => {
    const { shared, bench, store, journal } = setUp();
    await scanRun(journal, 'ord-1');
    await store.moveToBench({ reason: 'database maintenance', by: 'Lead Kim' });
    await scanRun(journal, 'ord-2');
    await store.moveToShared();
    await scanRun(journal, 'ord-3');

    expect(await rows(shared)).toEqual([
      { id: 1, order_id: 'ord-1', state: 'queued', local_only: null, local_only_by: null },
      { id: 2, order_id: 'ord-3', state: 'queued', local_only: null, local_only_by: null },
    ]);
    expect(await rows(bench)).toEqual([{ id: 1, order_id: 'ord-2', state: 'queued', local_only: 'database maintenance', local_only_by: 'Lead Kim' }]);
  });

  it('keeps a run writing where it began after the journal moved: its label id means another label on the other store', async () => {
    const { shared, bench, store, journal } = setUp();
    const sharedRun = journal.pinned();
    const { entries } = await scanRun(sharedRun, 'ord-1');
    await store.moveToBench({ reason: 'database maintenance', by: 'Lead Kim' });
    const benchRun = journal.pinned();
    const local = await scanRun(benchRun, 'ord-2');
    // Both stores numbered their first label 1.
    expect(entries[0]?.id).toBe(1);
    expect(local.entries[0]?.id).toBe(1);

    await sharedRun.labels.markSending(1);
    await sharedRun.labels.markSent(1);

    expect((await rows(shared))[0]).toMatchObject({ order_id: 'ord-1', state: 'sent' });
    expect((await rows(bench))[0]).toMatchObject({ order_id: 'ord-2', state: 'queued' });
    expect(journal.pinned()).toBe(benchRun);
  });

  it('follows what other benches change on the shared store wherever it writes', async () => {
    const { shared, store } = setUp();
    await store.moveToBench({ reason: 'database maintenance', by: 'Lead Kim' });
    let heard: (payload: string) => void = () => undefined;
    const message = new Promise<string>((resolve) => (heard = resolve));
    const subscription = await store.subscribe('printers', { onMessage: (payload) => heard(payload) });
    await shared.notify('printers', 'test');
    expect(await message).toBe('test');
    await subscription.close();
  });

  it('moves only once the calls held where it was have ended, and holds a call that comes during a move until it is done', async () => {
    const { shared, bench, store } = setUp();
    let finishRead: () => void = () => undefined;
    const read = store.hold(async () => {
      const before = store.inUse();
      await new Promise<void>((resolve) => (finishRead = resolve));
      return [before, store.inUse()];
    });
    const moved = store.moveToBench({ reason: 'database maintenance', by: 'Lead Kim' });
    const during = store.hold(async () => store.inUse());
    expect(store.place).toBe('shared');

    finishRead();
    expect(await read).toEqual([shared, shared]);
    await moved;
    expect(store.place).toBe('bench');
    expect(await during).toBe(bench);
  });
});
