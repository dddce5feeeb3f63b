import { beforeEach, describe, expect, it } from 'vitest';
import { OrderIndex } from '../../../src/main/orders/order-index';
import { localDay, localDayBounds, OrderOverview } from '../../../src/main/orders/order-overview';
import { emptyRunOptions } from '../../../src/main/printing/journal/journal-rows';
import { PrintJournal } from '../../../src/main/printing/journal/print-journal';
import type { NewLabel } from '../../../src/main/printing/journal/journal-types';
import { openDatabase } from '../../../src/main/store/database';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import type { OrderStatus } from '../../../src/shared/api/schemas';

describe('sample orders and the day’s bundles', () => {
  let now: Date;
  let index: OrderIndex;
  let journal: PrintJournal;
  let overview: OrderOverview;

  // Local times: the day's bundles go by the station's own calendar.
  const yesterday = new Date(2026, 2, 9, 22, 30);
  const today = new Date(2026, 2, 10, 0, 15);

  beforeEach(() => {
    const db = openDatabase(':memory:');
    now = today;
    const engine = new SqliteEngine(db, false);
    index = new OrderIndex(engine, () => now);
    journal = new PrintJournal(engine);
    overview = new OrderOverview(engine, index);
  });

  const order = async (orderId: string, bundleId: string | null, status: OrderStatus | null = 'draft', learnt: Date = today, environment: 'test' | 'live' = 'test') => {
    now = learnt;
    await index.upsert(environment, { orderId, orderRef: `REF-${orderId}`, barcode: `BC${orderId}`, bundleId, status }, 'import');
    now = today;
  };

  const print = async (labels: Partial<NewLabel>[]) =>
    (await journal.runRecords.createRun({
      environment: 'test',
      kind: 'bundles',
      printerId: 'p-1',
      operator: 'Sam',
      options: emptyRunOptions(),
      labels: labels.map((label) => ({ orderId: null, bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl', ...label })),
    })).entries;

  it('offers only drafts without a printed label, the latest learnt first', async () => {
    await order('a1', 'B1', 'draft', yesterday);
    await order('a2', 'B1', 'expected');
    await order('a3', 'B1', 'cancelled');
    await order('a4', 'B2', null);
    await order('a5', 'B2', 'completed');
    await order('a6', 'B2', 'in_transit');
    await order('a7', 'B3');
    await order('a8', 'B3');
    await order('x1', 'B9', 'draft', today, 'live');
    // Never printed here, but a scan of them would not print at once (or might not): expected asks first.
    await order('e1', 'B4', 'expected');
    await order('e2', 'B4', 'in_transit');
    await order('e3', 'B4', null);
    const [printed, sending, uncertain, failed, decidedAgain] = await print([{ orderId: 'a2' }, { orderId: 'a4' }, { orderId: 'a6' }, { orderId: 'a7' }, { orderId: 'a1' }]);
    await journal.labels.markSent(printed!.id);
    await journal.labels.markPrinted([printed!.id]);
    await journal.labels.markSending(sending!.id);
    await journal.labels.markUncertain(uncertain!.id, 'dropped');
    await journal.labels.markFailed(failed!.id, 'no label');
    await journal.labels.markUncertain(decidedAgain!.id, 'dropped');
    await journal.labels.decide(decidedAgain!.id, 'print-again', 'Sam');

    const samples = await overview.samples('test', 20);
    // Orders that are not drafts, and orders with a label that may have reached a printer, are left out.
    expect(samples.map((sample) => sample.orderId)).toEqual(['a7', 'a8', 'a1']);
    expect(samples[0]).toMatchObject({ environment: 'test', orderRef: 'REF-a7', barcode: 'BCa7', bundleId: 'B3', status: 'draft', source: 'import' });
    expect((await overview.samples('test', 1)).map((sample) => sample.orderId)).toEqual(['a7']);
    expect(await overview.samples('sandbox', 5)).toEqual([]);
  });

  it('lists the bundles with an order learnt that day, counting every order of them and those printed', async () => {
    await order('b1-2', 'B1');
    await order('b1-10', 'B1', 'draft', yesterday);
    await order('b1-1', 'B1');
    await order('b2-1', 'B2', 'draft', yesterday);
    await order('b3-1', 'B3');
    await order('b3-2', 'B3', 'cancelled');
    await order('b4-1', 'B4');
    await order('b4-2', 'B4');
    await order('loose', null);
    const [b1, b3, b4a, b4b] = await print([{ orderId: 'b1-2', bundleId: 'B1' }, { orderId: 'b3-1', bundleId: 'B3' }, { orderId: 'b4-1' }, { orderId: 'b4-2' }]);
    for (const entry of [b1!, b3!, b4a!, b4b!]) await journal.labels.markSent(entry.id);

    const all = await overview.bundles('test', { day: localDay(today), unprintedOnly: false });
    expect(all).toEqual([
      { bundleId: 'B1', parcels: 3, printed: 1, orderRefs: ['REF-b1-1', 'REF-b1-2', 'REF-b1-10'] },
      // B3's cancelled order is left out: never counted as one to print.
      { bundleId: 'B3', parcels: 2, printed: 1, orderRefs: ['REF-b3-1', 'REF-b3-2'], leftOut: 1 },
      { bundleId: 'B4', parcels: 2, printed: 2, orderRefs: ['REF-b4-1', 'REF-b4-2'] },
    ]);
    // B3's other order is cancelled and B4 is done: nothing left to print of either.
    expect((await overview.bundles('test', { day: localDay(today), unprintedOnly: true })).map((bundle) => bundle.bundleId)).toEqual(['B1']);
    expect((await overview.bundles('test', { day: localDay(yesterday), unprintedOnly: false })).map((bundle) => bundle.bundleId)).toEqual(['B1', 'B2']);
    expect(await overview.bundles('live', { day: localDay(today), unprintedOnly: false })).toEqual([]);
  });

  it('tells the parcels to print from the cancelled and finished ones left out (issue 15: 98 shown vs 94 printed + 13 left out)', async () => {
    await order('m1', 'BM');
    await order('m2', 'BM');
    await order('m3', 'BM', 'cancelled');
    await order('m4', 'BM', 'completed');
    await order('m5', 'BM', 'expected');
    // A cancelled order whose label did go out counts as printed, not as left out.
    await order('m6', 'BM', 'cancelled');
    const [sent] = await print([{ orderId: 'm6', bundleId: 'BM' }]);
    await journal.labels.markSent(sent!.id);
    const [bundle] = await overview.bundles('test', { day: localDay(today), unprintedOnly: true });
    expect(bundle).toMatchObject({ bundleId: 'BM', parcels: 6, printed: 1, leftOut: 2 });
  });

  it('counts a bundle printed as its PDF pages as printed', async () => {
    await order('c1', 'BP');
    await order('c2', 'BP');
    const pages = await print([
      { bundleId: 'BP', bundlePosition: 1, bundleCount: 2, format: 'gfa' },
      { bundleId: 'BP', bundlePosition: 2, bundleCount: 2, format: 'gfa' },
    ]);
    await journal.labels.markSent(pages[0]!.id);
    expect(await overview.bundles('test', { day: localDay(today), unprintedOnly: false })).toEqual([{ bundleId: 'BP', parcels: 2, printed: 1, orderRefs: ['REF-c1', 'REF-c2'] }]);
    await journal.labels.markSent(pages[1]!.id);
    expect(await overview.bundles('test', { day: localDay(today), unprintedOnly: true })).toEqual([]);
  });

  it('takes a day of the calendar in local time and refuses one that does not exist', async () => {
    const { start, end } = localDayBounds('2026-03-10');
    expect([start.getFullYear(), start.getMonth(), start.getDate(), start.getHours()]).toEqual([2026, 2, 10, 0]);
    expect([end.getMonth(), end.getDate(), end.getHours()]).toEqual([2, 11, 0]);
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(() => localDayBounds('2026-02-30')).toThrow(/not a day of the calendar/);
    expect(() => localDayBounds('2026-13-01')).toThrow(/not a day of the calendar/);
    expect(() => localDayBounds('yesterday')).toThrow(/not a day of the calendar/);
  });
});
