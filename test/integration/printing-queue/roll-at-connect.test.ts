/**
 * The roll is checked at every connection to a network Zebra, off the scan's path: a scan on a new
 * connection sends its label first, the roll (print width, label length) is asked only after it,
 * once, and told to the screen as an event; the printer card's status answers it from then on
 * without asking again on that connection, and a new connection reads it again.
 *
 * A Zebra reports the label length of the last ^LL it printed until it measures the roll again
 * (~JC), so after the service's A6 label it says 1184 dots whatever the roll: the short roll shows
 * once the printer has been calibrated on it.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrinterStatusData } from '../../../src/shared/contract/printers';
import type { PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { waitUntil } from '../../support/wait-until';
import { createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from './support';

const rollQuestion = 'getvar "zpl.label_length"';

describe('the roll, read at each connection', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let station: PrintingStation;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 300 });
    // A 100 × 100 mm roll: its labels are 800 dots long at 203 dpi.
    const started = await startZebra({ labelLengthDots: 800 });
    zebra = started.zebra;
    station = await createPrintingStation(sandbox, started.port);
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft');
  });

  afterAll(async () => {
    await station?.dispose();
    await zebra?.stop();
    await sandbox?.close();
  });

  const transport = () => station.station.services.printing.transports.forPrinter({ kind: 'network-zebra', host: '127.0.0.1', port: Number(zebra.boundPort) });
  /** What the printer read on its newest connection. */
  const lastConnection = () => zebra.received().at(-1)?.bytes.toString('latin1') ?? '';
  const everything = () => zebra.received().map((connection) => connection.bytes.toString('latin1')).join('');
  const count = (text: string, part: string) => text.split(part).length - 1;

  it('a scan on a new connection sends its label before the roll is asked, and the roll is then read once and told to the screen', async () => {
    const order = orders[0] as TodaysOrder;
    // The scanner's first keys open the connection; the scan follows.
    expect(await station.call<{ ready: boolean }>('printing.prepare', {})).toEqual({ ready: true });
    expect((await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef })).outcome).toBe('printed');
    const roll = await station.waitForEvent('printers.roll', (event) => event.printerId === station.printerId, 10_000);
    // The A6 label just printed set the length the printer reports.
    expect(roll.roll).toMatchObject({ fits: true, issues: [], printWidthDots: 832, labelLengthDots: 1184 });

    const onConnection = lastConnection();
    const label = onConnection.indexOf('^XA');
    expect(label, 'the label on the new connection').toBeGreaterThanOrEqual(0);
    expect(onConnection.indexOf(rollQuestion), 'the roll asked after the label').toBeGreaterThan(label);
    expect(count(onConnection, rollQuestion)).toBe(1);

    // The card's status on the same connection: the roll as read, nothing asked again.
    const connection = transport().connectionCount;
    const status = await station.call<PrinterStatusData>('printers.status', { id: station.printerId });
    expect(transport().connectionCount).toBe(connection);
    expect(status.roll).toEqual(roll.roll);
    expect(status.rollReadAt).toBe(roll.readAt);
    expect(count(everything(), rollQuestion)).toBe(1);
  });

  it('a new connection has its roll read again: a roll calibrated at the printer meanwhile is seen', async () => {
    await transport().close();
    await waitUntil(() => transport().connected === false, 'the connection closed');
    // The lead calibrates at the printer itself (its feed button, here ~JC from another host): it measures the 100 × 100 mm roll.
    const calibrated = new Promise((resolve) => zebra.once('calibrated', resolve));
    const other = net.connect({ host: '127.0.0.1', port: Number(zebra.boundPort) });
    await new Promise<void>((resolve) => other.once('connect', () => resolve()));
    other.end('~JC');
    await calibrated;
    const before = count(everything(), rollQuestion);

    const status = await station.call<PrinterStatusData>('printers.status', { id: station.printerId });
    expect(status.roll).toMatchObject({ fits: false, issues: [{ issue: 'too-short', printerDots: 800, printerMm: 100.1, labelMm: 148 }] });
    expect(count(everything(), rollQuestion)).toBe(before + 1);
    // Asked again on this connection: answered as read.
    const again = await station.call<PrinterStatusData>('printers.status', { id: station.printerId });
    expect(again.rollReadAt).toBe(status.rollReadAt);
    expect(count(everything(), rollQuestion)).toBe(before + 1);
  });
});
