/**
 * Real-world carrier ZPL through the station's own path: the sandbox serves a hand-written label as
 * an order's ZPL (control route PUT …/orders/:orderId/label), the packer scans the order, and the
 * virtual Zebra's raw capture shows exactly which bytes arrived. Labels that would change the
 * printer are refused on every route — scan, reprint, bundle run, retry — and nothing of them
 * reaches the printer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntryData, PrintOutcomeData, RunSummaryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { controlCall, createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from '../printing-queue/support';

const fixtures = join(__dirname, '../../fixtures/zpl');
const read = (name: string): Buffer => readFileSync(join(fixtures, name));
const readRefused = (name: string): Buffer => read(join('refused', name));

/** Labels carrying ^JUS: the station cuts those four bytes out. */
const persisting = ['darkness-jus.zpl', 'designer-settings-prelude.zpl'];
const unchanged = readdirSync(fixtures).filter((name) => name.endsWith('.zpl') && !persisting.includes(name));

/** Each refused label, and the command its refusal must name. */
const refused: [file: string, command: string][] = [
  ['reset-jr.zpl', '~JR'],
  ['factory-defaults-juf.zpl', '^JUF'],
  ['network-ns.zpl', '^NSP,192.168.10.77'],
  ['password-kp.zpl', '^KP9999'],
  ['flash-graphic-dg.zpl', '~DGE:LOGO.GRF'],
  ['flash-delete-id.zpl', '^IDE:*.*'],
  ['sgd-setvar.zpl', '! U1 setvar "ip.dhcp.enable" "off"'],
  ['sgd-json.zpl', '{}{"device.reset":""}'],
  ['wireless-wi.zpl', '^WIP,10.1.1.20'],
];

function occurrences(haystack: Buffer, needle: Buffer): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count += 1;
  return count;
}

/** ^JUS cut out, written here independently of the station's code: every occurrence, nothing else. */
function withoutJus(bytes: Buffer): Buffer {
  const marker = Buffer.from('^JUS');
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = bytes.indexOf(marker); at !== -1; at = bytes.indexOf(marker, from)) {
    parts.push(bytes.subarray(from, at));
    from = at + marker.length;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

describe('carrier ZPL reaches the printer byte for byte; labels that would change the printer never do', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let station: PrintingStation;
  let orders: TodaysOrder[];
  let next = 0;

  const everyByteReceived = (): Buffer => Buffer.concat(zebra.received().map((connection) => connection.bytes));
  const supply = async (order: TodaysOrder, document: Buffer) => {
    await controlCall(sandbox, `/environments/test/orders/${encodeURIComponent(order.orderId)}/label`, { method: 'PUT', body: { format: 'zpl', base64: document.toString('base64') } });
  };
  /** An order of its own for each test, so no test sees another's label or journal entry. */
  const freshOrder = (): TodaysOrder => {
    const order = orders[next];
    next += 1;
    if (!order) throw new Error('ran out of orders');
    return order;
  };
  const entriesOf = async (order: TodaysOrder) => (await station.call<{ entries: JournalEntryData[] }>('printing.journal', { orderId: order.orderId })).entries;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 400 });
    const started = await startZebra();
    zebra = started.zebra;
    station = await createPrintingStation(sandbox, started.port);
    // Whole bundles of two or three printable orders come first, for the bundle-run test; singles after.
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status !== 'cancelled');
  });

  afterAll(async () => {
    await station?.dispose();
    await zebra?.stop();
    await sandbox?.close();
  });

  it.each(unchanged)('%s arrives byte-identical', async (file) => {
    const label = read(file);
    const order = freshOrder();
    await supply(order, label);
    const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef });
    expect(outcome.outcome).toBe('printed');
    expect(occurrences(everyByteReceived(), label)).toBe(1);
    const [entry] = await entriesOf(order);
    expect(entry?.reason).toBeNull();
  });

  it.each(persisting)('%s arrives with exactly ^JUS removed, and the journal entry says so', async (file) => {
    const label = read(file);
    const order = freshOrder();
    await supply(order, label);
    const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef });
    expect(outcome.outcome).toBe('printed');
    const sent = withoutJus(label);
    expect(sent.length).toBe(label.length - 4);
    const received = everyByteReceived();
    expect(occurrences(received, sent)).toBe(1);
    expect(occurrences(received, label)).toBe(0);
    const [entry] = await entriesOf(order);
    expect(entry?.reason).toMatch(/^removed \^JUS: it would save the label's settings as the printer's power-on settings/);
    expect(zebra.configurationCommands()).toEqual([]);
  });

  it.each(refused)('%s is refused on a scan, naming %s, and nothing reaches the printer', async (file, command) => {
    const order = freshOrder();
    await supply(order, readRefused(file));
    const before = everyByteReceived().length;
    const failure = await station.call('printing.print', { scan: order.orderRef }).then(
      () => null,
      (error: { data?: { code: string; message: string; details?: string[] } }) => error.data ?? null,
    );
    expect(failure?.code).toBe('LABEL_REFUSED');
    expect(failure?.message).toContain(`${command}`);
    expect(failure?.message).toMatch(/was not printed: it would change the printer itself/);
    expect(failure?.details?.some((detail) => detail.startsWith(command))).toBe(true);
    const arrived = everyByteReceived().subarray(before).toString('latin1');
    expect(arrived).not.toMatch(/\^XA/i);
    expect(zebra.configurationCommands()).toEqual([]);
    const [entry] = await entriesOf(order);
    expect(entry?.state).toBe('failed');
    expect(entry?.reason).toContain(command);
  });

  it('refuses on a reprint: the order printed before, its label now changes the printer', async () => {
    const order = freshOrder();
    await supply(order, read('comments-fx.zpl'));
    expect((await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef })).outcome).toBe('printed');
    await supply(order, readRefused('reset-jr.zpl'));
    const before = everyByteReceived().length;
    await expect(station.call('printing.print', { scan: order.orderRef, reprint: { reason: 'smudged', operator: 'Sam' } })).rejects.toThrow(/LABEL_REFUSED.*~JR/);
    expect(everyByteReceived().subarray(before).toString('latin1')).not.toMatch(/\^XA/i);
    expect(zebra.configurationCommands()).toEqual([]);
  });

  it('refuses in a bundle run and again on its retry, while the bundle’s other labels print unchanged', async () => {
    const byBundle = new Map<string, TodaysOrder[]>();
    for (const order of orders.slice(next)) byBundle.set(order.bundleId, [...(byBundle.get(order.bundleId) ?? []), order]);
    const everyOrder = await stationOrders(sandbox);
    const [bundleId, members] =
      [...byBundle.entries()].find(([id, list]) => list.length >= 2 && list.length <= 3 && everyOrder.filter((order) => order.bundleId === id).length === list.length) ?? [];
    if (!bundleId || !members) throw new Error('no whole printable bundle of two or three orders');
    const [dangerous, ...safe] = members as [TodaysOrder, ...TodaysOrder[]];
    await supply(dangerous, readRefused('network-ns.zpl'));
    const safeLabels = safe.map((order, index) => Buffer.from(`^XA^FO40,40^A0N,40,40^FDBundle label ${index + 2} of ${bundleId}^FS^XZ\r\n`));
    for (const [index, order] of safe.entries()) await supply(order, safeLabels[index]!);

    const summary = await station.call<RunSummaryData>('printing.printBundles', { bundleIds: [bundleId] });
    const finished = await station.waitForEvent('printing.finished', (event) => event.runId === summary.runId, 60_000);
    expect(finished.failed.map((entry) => entry.orderRef)).toEqual([dangerous.orderRef]);
    expect(finished.failed[0]?.reason).toMatch(/was not printed: it would change the printer itself: \^NSP,192\.168\.10\.77/);
    const received = everyByteReceived();
    for (const label of safeLabels) expect(occurrences(received, label)).toBe(1);

    const retry = await station.call<RunSummaryData>('printing.retryFailed', { runId: summary.runId });
    const retried = await station.waitForEvent('printing.finished', (event) => event.runId === retry.runId, 60_000);
    expect(retried.failed.map((entry) => entry.reason)).toEqual([expect.stringMatching(/\^NSP,192\.168\.10\.77/)]);
    expect(everyByteReceived().toString('latin1')).not.toContain('^NSP');
    expect(zebra.configurationCommands()).toEqual([]);
  });
});
