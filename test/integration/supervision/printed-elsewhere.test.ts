import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import type { CallOutput } from '../../../src/shared/contract';
import type { PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { runCliIn } from '../../support/cli';
import { memoryKeyStore } from '../../support/station';
import { barcodeOfZpl, createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from '../printing-queue/support';

let sandbox: RunningSandbox;
let zebra: VirtualZebra;
let station: PrintingStation;
let expected: TodaysOrder[];
let drafts: TodaysOrder[];

/** Labels the virtual Zebra printed for one parcel barcode. */
const labelsOf = (order: TodaysOrder) => zebra.printed().filter((label) => barcodeOfZpl(label.zpl) === order.barcode);

const printedOnZebra = async (outcome: PrintOutcomeData) => {
  if (outcome.outcome !== 'printed') throw new Error(`expected a print, got ${outcome.outcome}`);
  await station.waitForEvent('printing.label', (entry) => entry.id === outcome.entry.id && entry.state === 'printed', 10_000);
  return outcome;
};

beforeAll(async () => {
  sandbox = await startTestSandbox({ orders: 300 });
  const started = await startZebra();
  zebra = started.zebra;
  station = await createPrintingStation(sandbox, started.port);
  await station.call('settings.set', { stationName: 'Bench 3' });
  const orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable);
  expected = orders.filter((order) => order.status === 'expected');
  drafts = orders.filter((order) => order.status === 'draft');
  if (expected.length < 3 || drafts.length < 1) throw new Error('the sandbox seeded too few expected or draft orders');
}, 60_000);

afterAll(async () => {
  await station?.dispose();
  await zebra?.stop();
  await sandbox?.close();
});

describe('a scan of an order the service has as printed, but not by this station', () => {
  it('answers elsewhere and prints nothing, then prints it once with the reason when confirmed', async () => {
    const order = expected[0] as TodaysOrder;
    const asked = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef });
    expect(asked).toEqual({
      outcome: 'elsewhere',
      scan: order.orderRef,
      order: expect.objectContaining({ orderId: order.orderId, orderRef: order.orderRef, barcode: order.barcode }),
      status: 'expected',
    });
    // Nothing was queued for it: the journal holds no label of the order.
    expect((await station.call<CallOutput<'printing.journal'>>('printing.journal', { orderId: order.orderId })).entries).toEqual([]);

    const confirmed = await printedOnZebra(await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef, reprint: { reason: 'Label lost at the other bench', operator: 'Lead' } }));
    expect(confirmed).toMatchObject({ reprint: true, order: { orderId: order.orderId } });
    // Exactly one label of this parcel came out: the refused scan sent nothing to the printer.
    expect(labelsOf(order)).toHaveLength(1);
    const { entries } = await station.call<CallOutput<'printing.journal'>>('printing.journal', { orderId: order.orderId });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ id: confirmed.entry.id, operator: 'Lead', reprintOf: null, state: 'printed' });
    expect(entries[0]?.reason).toContain('Label lost at the other bench');

    // Printed here now: the next scan is a duplicate of this station's label, not "elsewhere".
    const again = await station.call<PrintOutcomeData>('printing.print', { scan: order.barcode });
    expect(again).toMatchObject({ outcome: 'duplicate', previous: { entryId: confirmed.entry.id, stationName: 'Bench 3' } });
  });

  it('still prints a draft order at once', async () => {
    const order = drafts[0] as TodaysOrder;
    const outcome = await printedOnZebra(await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef }));
    expect(outcome).toMatchObject({ reprint: false, order: { orderId: order.orderId } });
    expect(labelsOf(order)).toHaveLength(1);
  });

  it('CLI print says so and exits non-zero unless --reprint gives a reason', async () => {
    const order = expected[1] as TodaysOrder;
    const cliOptions = { sandbox: attachEmbeddedSandbox(sandbox), keyStore: memoryKeyStore() };
    const refused = await runCliIn(station.dataDir, cliOptions, ['print', order.orderRef]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/printed, but not at this station/);
    expect(refused.stderr).toMatch(/--reprint/);
    expect((await station.call<CallOutput<'printing.journal'>>('printing.journal', { orderId: order.orderId })).entries).toEqual([]);

    const labelsBefore = zebra.printed().length;
    const printed = await runCliIn(station.dataDir, cliOptions, ['print', order.orderRef, '--reprint', 'Other bench jammed', '--operator', 'Lead']);
    expect(printed.code).toBe(0);
    await zebra.waitForLabels(labelsBefore + 1);
    expect(labelsOf(order)).toHaveLength(1);
    const { entries } = await station.call<CallOutput<'printing.journal'>>('printing.journal', { orderId: order.orderId });
    expect(entries).toHaveLength(1);
    expect(entries[0]?.reason).toContain('Other bench jammed');
  });
});
