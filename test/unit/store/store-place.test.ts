/**
 * The store's place: where the print journal writes for a call (the shared store, or the bench's
 * own file during local-only printing). Each place has its own journal on its own engine, so a run
 * keeps writing where it began: label ids are each store's own, and a shared run's late "sent"
 * must not land on the bench's label of the same id. Both stores are real SQLite files with the
 * station's schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyRunOptions } from '../../../src/main/printing/journal/journal-rows';
import { PrintJournal } from '../../../src/main/printing/journal/print-journal';
import type { NewLabel } from '../../../src/main/printing/journal/journal-types';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import { createStorePlace, type JournalPlace } from '../../../src/main/store/store-place';

const folders: string[] = [];
const engines: SqliteEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function setUp() {
  const folder = mkdtempSync(join(tmpdir(), 'station-store-place-'));
  folders.push(folder);
  const shared = SqliteEngine.open(join(folder, 'warehouse.db'));
  const bench = SqliteEngine.open(join(folder, 'station.db'));
  engines.push(shared, bench);
  const place = createStorePlace();
  const clock = () => new Date('2026-11-24T06:30:00.000Z');
  // As the printing feature builds them: the bench's file's journal marks its labels with the lead's permission.
  const journals: Record<JournalPlace, PrintJournal> = {
    shared: new PrintJournal(shared, clock, undefined, { id: 'bench-1', name: () => 'Bench 1', localOnly: () => null }),
    bench: new PrintJournal(bench, clock, undefined, { id: 'bench-1', name: () => 'Bench 1', localOnly: () => place.localOnly() }),
  };
  return { shared, bench, place, journals };
}

const label = (orderId: string): NewLabel => ({ orderId, bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl' });
const scanRun = (journal: PrintJournal, orderId: string) =>
  journal.runRecords.createRun({ environment: 'test', kind: 'single', printerId: 'p-1', operator: 'Sam', options: emptyRunOptions(), labels: [label(orderId)] });

async function rows(engine: SqliteEngine) {
  return engine.query<{ id: number; order_id: string; state: string; local_only: string | null; local_only_by: string | null }>(
    'SELECT id, order_id, state, local_only, local_only_by FROM print_journal ORDER BY id',
  );
}

describe("the store's place", () => {
  it("sends each call's labels to the shared store, then to the bench's file with the lead's reason on each, then to the shared store again", async () => {
    const { shared, bench, place, journals } = setUp();
    await place.hold((at) => scanRun(journals[at], 'ord-1'));
    await place.moveToBench({ reason: 'database maintenance', by: 'Lead Kim' });
    await place.hold((at) => scanRun(journals[at], 'ord-2'));
    await place.moveToShared();
    await place.hold((at) => scanRun(journals[at], 'ord-3'));

    expect(await rows(shared)).toEqual([
      { id: 1, order_id: 'ord-1', state: 'queued', local_only: null, local_only_by: null },
      { id: 2, order_id: 'ord-3', state: 'queued', local_only: null, local_only_by: null },
    ]);
    expect(await rows(bench)).toEqual([{ id: 1, order_id: 'ord-2', state: 'queued', local_only: 'database maintenance', local_only_by: 'Lead Kim' }]);
    expect(place.localOnly()).toBeNull();
  });

  it('keeps a run writing where it began after the journal moved: its label id means another label on the other store', async () => {
    const { shared, bench, place, journals } = setUp();
    const sharedRun = await place.hold(async (at) => journals[at]);
    const { entries } = await scanRun(sharedRun, 'ord-1');
    await place.moveToBench({ reason: 'database maintenance', by: 'Lead Kim' });
    const benchRun = await place.hold(async (at) => journals[at]);
    const local = await scanRun(benchRun, 'ord-2');
    // Both stores numbered their first label 1.
    expect(entries[0]?.id).toBe(1);
    expect(local.entries[0]?.id).toBe(1);

    await sharedRun.labels.markSending(1);
    await sharedRun.labels.markSent(1);

    expect((await rows(shared))[0]).toMatchObject({ order_id: 'ord-1', state: 'sent' });
    expect((await rows(bench))[0]).toMatchObject({ order_id: 'ord-2', state: 'queued' });
  });

  it('moves only once the calls held where it was have ended, and holds a call that comes during a move until it is done', async () => {
    const { place } = setUp();
    let finishRead: () => void = () => undefined;
    const read = place.hold(async (at) => {
      await new Promise<void>((resolve) => (finishRead = resolve));
      return [at, place.current];
    });
    const moved = place.moveToBench({ reason: 'database maintenance', by: 'Lead Kim' });
    const during = place.hold(async (at) => at);
    expect(place.current).toBe('shared');

    finishRead();
    expect(await read).toEqual(['shared', 'shared']);
    await moved;
    expect(place.current).toBe('bench');
    expect(await during).toBe('bench');
  });

  it("holds a call's place from its first ask until it leaves, and a call that enters during a move waits for it", async () => {
    const { place } = setUp();
    const happened: string[] = [];
    const call = await place.enter();
    const moving = place.moveToBench(null).then(() => happened.push('moved'));
    const next = place.enter().then((entered) => (happened.push(`next call at ${entered.place}`), entered));
    expect(call.place).toBe('shared');
    happened.push('call left');
    call.leave();
    await moving;
    (await next).leave();
    expect(happened).toEqual(['call left', 'moved', 'next call at bench']);
  });
});
