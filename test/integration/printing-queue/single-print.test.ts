import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { barcodeOfZpl, createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from './support';

describe('single-order printing: scan → order → label → virtual Zebra → journal', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let station: PrintingStation;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 300 });
    ({ zebra } = await startZebra().then(async (started) => {
      station = await createPrintingStation(sandbox, started.port);
      return started;
    }));
    // Drafts: a scan prints them at once (an `expected` order was printed elsewhere and asks first).
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft');
  });

  afterAll(async () => {
    await station?.dispose();
    await zebra?.stop();
    await sandbox?.close();
  });

  it('prints the scanned order’s label once, journals it and tells the screen', async () => {
    const order = orders[0] as TodaysOrder;
    const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef });
    expect(outcome.outcome).toBe('printed');
    if (outcome.outcome !== 'printed') return;
    expect(outcome.order.orderId).toBe(order.orderId);
    expect(outcome.entry.state).toBe('sent');
    expect(outcome.proofFollows).toBe(true);
    expect(outcome.printer.name).toBe('Bench Zebra');

    const [label] = await zebra.waitForLabels(1);
    expect(barcodeOfZpl(label?.zpl ?? '')).toBe(order.barcode);
    const printed = await station.waitForEvent('printing.label', (entry) => entry.id === outcome.entry.id && entry.state === 'printed', 5000);
    expect(printed.orderRef).toBe(order.orderRef);
    expect(printed.operator).toBe('');
  });

  it('does not print an order twice on a scan: the answer names the earlier print', async () => {
    const order = orders[0] as TodaysOrder;
    const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order.barcode });
    expect(outcome.outcome).toBe('duplicate');
    if (outcome.outcome !== 'duplicate') return;
    expect(outcome.previous.printerName).toBe('Bench Zebra');
    expect(outcome.previous.state).toBe('printed');
    // Proves that nothing more happens: a second label would reach the local printer well within this.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(zebra.printed()).toHaveLength(1);
  });

  it('reprints on an explicit reprint, recording who and why', async () => {
    const order = orders[0] as TodaysOrder;
    await expect(station.call('printing.print', { scan: order.orderRef, reprint: { reason: 'damaged' } })).rejects.toThrow(/OPERATOR_REQUIRED.*operator/);
    const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef, reprint: { reason: 'damaged', operator: 'Sam' } });
    expect(outcome.outcome).toBe('printed');
    if (outcome.outcome !== 'printed') return;
    expect(outcome.reprint).toBe(true);
    expect(outcome.entry.reason).toBe('Reprint by Sam: damaged');
    expect(outcome.entry.reprintOf).not.toBeNull();
    expect(outcome.entry.operator).toBe('Sam');
    const labels = await zebra.waitForLabels(2);
    expect(labels.map((label) => barcodeOfZpl(label.zpl))).toEqual([order.barcode, order.barcode]);
    await station.waitForEvent('printing.label', (entry) => entry.id === outcome.entry.id && entry.state === 'printed', 5000);
  });

  it('refuses a cancelled order unless a lead overrides with a reason', async () => {
    const cancelled = (await stationOrders(sandbox)).find((order) => order.status === 'cancelled');
    expect(cancelled).toBeDefined();
    await expect(station.call('printing.print', { scan: cancelled?.orderRef })).rejects.toThrow(/ORDER_TERMINAL/);
  });

  it('reports the journal for an order', async () => {
    const order = orders[0] as TodaysOrder;
    const { entries } = await station.call<{ entries: { state: string; reason: string | null }[] }>('printing.journal', { orderId: order.orderId });
    expect(entries.map((entry) => entry.state)).toEqual(['printed', 'printed']);
  });
});
