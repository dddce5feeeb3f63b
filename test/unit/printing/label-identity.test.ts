import { beforeEach, describe, expect, it } from 'vitest';
import { identifiersFromText, pageNamesOrder } from '../../../src/main/printing/journal/label-identity';
import { emptyRunOptions } from '../../../src/main/printing/journal/journal-rows';
import { PrintJournal } from '../../../src/main/printing/journal/print-journal';
import type { NewLabel } from '../../../src/main/printing/journal/journal-types';
import { OrderIndex } from '../../../src/main/orders/order-index';
import { openDatabase, type StationDatabase } from '../../../src/main/store/database';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';

describe('identifiers read from a label page’s text', () => {
  it('keeps the barcode, order ref and order id, whole, without spaces and word by word, and drops address words', () => {
    const found = identifiersFromText(['TO', 'Keizersgracht 12 A, 1015 CS Amsterdam', '3S PSB 001 4411', 'ORDER REF', 'REF-100231', 'ord_77a1b2', '1 of 3']);
    expect(found).toEqual(expect.arrayContaining(['3SPSB0014411', 'REF-100231', 'ord_77a1b2']));
    expect(found).not.toContain('12');
    expect(found).not.toContain('Amsterdam');
    expect(found).not.toContain('1 of 3');
  });

  it('matches an order by any of its identifiers, and no other order', () => {
    const page = identifiersFromText(['3SPSB0014411', 'REF-100231']);
    expect(pageNamesOrder(page, { orderId: 'ord_1', orderRef: null, barcode: '3SPSB0014411' })).toBe(true);
    expect(pageNamesOrder(page, { orderId: 'ord_1', orderRef: 'REF-100231', barcode: null })).toBe(true);
    expect(pageNamesOrder(page, { orderId: 'ord_2', orderRef: 'REF-100232', barcode: '3SPSB0024411' })).toBe(false);
  });
});

describe('the duplicate guard knows a page printed before its order was known', () => {
  let db: StationDatabase;
  let journal: PrintJournal;
  let index: OrderIndex;

  beforeEach(() => {
    db = openDatabase(':memory:');
    const engine = new SqliteEngine(db, false);
    journal = new PrintJournal(engine);
    index = new OrderIndex(engine);
  });

  const page = (position: number, identifiers: string[]): NewLabel => ({ orderId: null, bundleId: 'BND-9', bundlePosition: position, bundleCount: 2, format: 'gfa', identifiers });

  const printPages = async (labels: NewLabel[]) => {
    const { entries } = await journal.runRecords.createRun({ environment: 'test', kind: 'bundles', printerId: 'p-1', operator: 'Sam', options: emptyRunOptions(), labels });
    for (const entry of entries) await journal.labels.markSent(entry.id);
    return entries;
  };

  const learn = (orderId: string, orderRef: string, barcode: string) =>
    index.upsert('test', { orderId, orderRef, barcode, bundleId: 'BND-9', recipient: null, status: null, statusUpdatedAt: null }, 'import');

  it('finds the page by the order’s barcode or ref once the index knows the order, and not before', async () => {
    const [first, second] = await printPages([page(1, ['3SPSB0014411', 'REF-1001']), page(2, ['3SPSB0024411', 'REF-1002'])]);
    expect(await journal.history.previousPrint('test', 'ord_1')).toBeNull();
    await learn('ord_1', 'REF-1001', '3SPSB0014411');
    await learn('ord_2', 'REF-1002', 'OTHER-BARCODE-2');
    expect((await journal.history.previousPrint('test', 'ord_1'))?.id).toBe(first?.id);
    // Matched by its ref alone when the barcode the index has differs.
    expect((await journal.history.previousPrint('test', 'ord_2'))?.id).toBe(second?.id);
    expect(await journal.history.previousPrint('test', 'ord_3')).toBeNull();
  });

  it('answers for a page whose identifiers name an order printed natively before', async () => {
    await learn('ord_5', 'REF-1005', '3SPSB0054411');
    await printPages([{ orderId: 'ord_5', bundleId: 'BND-9', bundlePosition: null, bundleCount: null, format: 'zpl' }]);
    expect((await journal.history.previousPrintOfPage('test', ['3SPSB0054411']))?.orderId).toBe('ord_5');
    expect((await journal.history.previousPrintOfPage('test', ['ord_5']))?.orderId).toBe('ord_5');
    expect(await journal.history.previousPrintOfPage('test', ['3SPSB0064411'])).toBeNull();
    expect(await journal.history.previousPrintOfPage('live', ['3SPSB0054411'])).toBeNull();
  });

  it('lists a bundle’s printed pages with their identifiers, leaving out pages that failed', async () => {
    const { entries } = await journal.runRecords.createRun({
      environment: 'test',
      kind: 'bundles',
      printerId: 'p-1',
      operator: 'Sam',
      options: emptyRunOptions(),
      labels: [page(1, ['3SPSB0014411']), page(2, ['3SPSB0024411'])],
    });
    await journal.labels.markSent(entries[0]?.id ?? 0);
    await journal.labels.markFailed(entries[1]?.id ?? 0, 'paper out');
    expect(await journal.history.printedPagesOf('test', 'BND-9')).toEqual([{ entry: expect.objectContaining({ bundlePosition: 1 }), identifiers: ['3SPSB0014411'] }]);
  });

  it('refuses a row it cannot read, naming the column', async () => {
    await printPages([page(1, [])]);
    db.prepare("UPDATE print_journal SET position = 'first'").run();
    await expect(journal.history.printedPagesOf('test', 'BND-9')).rejects.toThrow(/print journal.*position/);
  });
});
