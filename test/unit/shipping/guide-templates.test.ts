import { describe, expect, it } from 'vitest';
import { fileTemplates, manifestExampleOrder, nextDeliveryDate, templateCsv } from '../../../src/shared/import-templates';
import { identifierKey } from '../../../src/shared/identifiers';
import { checkUploadRow } from '../../../src/main/shipping/upload-rows';
import { seedSizes } from '../../../src/sandbox/options';
import type { WebhookDispatcher } from '../../../src/sandbox/webhooks/dispatcher';
import { judge } from '../../../src/sandbox/world/deliverability';
import { World } from '../../../src/sandbox/world/world';

const template = (id: string) => {
  const found = fileTemplates.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no ${id} template`);
  return found;
};

/** Saturday 5 December 2026, mid-morning: the next delivery day is Monday. */
const saturday = new Date(2026, 11, 5, 10, 30);

const cellOf = (id: string, column: string, today = saturday) => {
  const { columns, example } = template(id);
  return example(today)[columns.indexOf(column)] ?? '';
};

/** Every identifier a template's example row names (a ref, a barcode, a bundle, an order id). */
function templateIdentifiers(): { template: string; value: string }[] {
  const found: { template: string; value: string }[] = [];
  for (const { id, columns, example } of fileTemplates) {
    const row = example(saturday);
    for (const column of ['orderRef', 'barcode', 'bundleId', 'orderId']) {
      const at = columns.indexOf(column);
      if (at >= 0 && row[at]) found.push({ template: id, value: row[at] });
    }
  }
  return found;
}

const quietDispatcher = { emit: () => undefined } as unknown as WebhookDispatcher;
const sandboxWorld = (orders: number, now = Date.now()) =>
  new World({ seed: 'sandbox', orders, pickupPoints: 600, trackingBase: 'http://sandbox/track', defaultPrintSize: 'A6', now: () => now, dispatcher: quietDispatcher });

describe('the first-hour guide’s file templates', () => {
  it('give an upload row the upload takes as it is: one order to create, no problem', () => {
    const { columns, example } = template('upload');
    const row = example(saturday);
    const cells = Object.fromEntries(columns.map((column, index) => [column, row[index] ?? '']).filter(([, value]) => value !== ''));
    const checked = checkUploadRow(cells, new Set(['1101']));
    expect(checked.problems).toEqual([]);
    expect(checked.request).toMatchObject({ orderRef: 'SHOP-2001', locationId: '1101' });
  });

  it('gives the weight in grams and sizes in millimetres, longest side first', () => {
    for (const id of ['to-ship', 'upload']) {
      const value = (column: string) => Number(cellOf(id, column));
      expect(value('weight')).toBeGreaterThanOrEqual(100);
      expect(value('length')).toBeGreaterThanOrEqual(value('width'));
      expect(value('width')).toBeGreaterThanOrEqual(value('height'));
    }
  });

  it('dates the delivery the next delivery day after the day of the download, never a Sunday', () => {
    // Saturday → Monday; Friday → Saturday; the last day of a month → the first of the next.
    expect(cellOf('to-ship', 'deliveryDate', saturday)).toBe('2026-12-07');
    expect(cellOf('upload', 'deliveryDate', saturday)).toBe('2026-12-07');
    expect(cellOf('upload', 'deliveryDate', new Date(2026, 11, 4, 23, 59))).toBe('2026-12-05');
    expect(nextDeliveryDate(new Date(2027, 0, 31, 8, 0))).toBe('2027-02-01');
    expect(nextDeliveryDate(new Date(2026, 11, 31, 0, 1))).toBe('2027-01-01');
  });

  it('writes a header row and the example row as CSV, made on the day of the download', () => {
    expect(templateCsv(template('manifest'), saturday).split('\n')).toEqual([
      'orderId,orderRef,barcode,bundleId,recipient,status',
      '5e2a9c71-4b0d-1e4f-9a3c-2d7b8e6f1000,SHOP-1000,DT0000010001006,BND-GUIDE001,Daan Visser,draft',
      '',
    ]);
    const toShip = templateCsv(template('to-ship'), saturday).split('\n')[1]!;
    expect(toShip.startsWith('SHOP-1001,1101,Keizersgracht,100,1016 DK,Amsterdam,NL,')).toBe(true);
    expect(toShip.endsWith(',2026-12-07')).toBe(true);
  });

  it('name three different orders: no ref, barcode, bundle or order id of one template is another’s', () => {
    const identifiers = templateIdentifiers();
    const byKey = new Map<string, string>();
    for (const { template: id, value } of identifiers) {
      const other = byKey.get(identifierKey(value));
      expect(other, `${value} of the ${id} template is also the ${other} template's`).toBeUndefined();
      byKey.set(identifierKey(value), id);
    }
    expect(identifiers.map(({ value }) => value)).toEqual(expect.arrayContaining(['SHOP-1000', 'SHOP-1001', 'SHOP-2001', 'DT0000010001006', 'BND-GUIDE001']));
  });

  it('never name an order of the sandbox’s day: no identifier of a seeded order, in either environment, at the default and the large size', () => {
    const identifiers = templateIdentifiers().map(({ value }) => identifierKey(value));
    for (const size of ['default', 'large'] as const) {
      const world = sandboxWorld(seedSizes[size].orders);
      for (const environment of ['test', 'live'] as const) {
        const seeded = [...world.env(environment).orders.values()].filter((order) => order.seeded);
        expect(seeded).toHaveLength(seedSizes[size].orders);
        for (const order of seeded) {
          for (const value of [order.orderRef, order.barcode, order.bundle.bundleId, order.orderId]) {
            expect(identifiers, `${environment} ${size}: ${order.orderRef} has ${value}`).not.toContain(identifierKey(value));
          }
        }
      }
    }
  });

  it('list an order the sandbox holds (not among today’s orders), and addresses location 1101 delivers to', () => {
    const world = sandboxWorld(seedSizes.default.orders, saturday.getTime());
    const test = world.env('test');
    const held = test.orders.get(manifestExampleOrder.orderId);
    expect(held).toMatchObject({ orderRef: 'SHOP-1000', barcode: 'DT0000010001006', bundle: { bundleId: 'BND-GUIDE001' }, deliveryName: 'Daan Visser', status: 'draft', locationId: 1101 });
    expect(world.todaysOrders('test').map((order) => order.orderId)).not.toContain(manifestExampleOrder.orderId);
    expect(world.env('live').orders.has(manifestExampleOrder.orderId)).toBe(false);

    const amsterdam = test.locations.get(1101)!;
    for (const id of ['to-ship', 'upload']) {
      const verdict = judge(amsterdam, cellOf(id, 'deliveryCountry'), cellOf(id, 'deliveryPostalCode'), true, { signature: false, notAtNeighbour: false }, 'X');
      expect(verdict.deliverable, `${id}: ${cellOf(id, 'deliveryPostalCode')} ${cellOf(id, 'deliveryCity')}`).toBe(true);
      expect(cellOf(id, 'locationId')).toBe('1101');
    }
  });
});
