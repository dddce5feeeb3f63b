/**
 * A scan asks the service for its label before its run is written (the journal's work overlaps
 * the wait for the answer). What must still hold: the label is asked for once, nothing is marked
 * as being sent while the service has not answered, and a label the service refuses fails the
 * scan with nothing sent to the printer. A loopback relay in front of the sandbox sees every
 * request and can hold a label's answer back.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntryData, PrintOutcomeData } from '../../../src/shared/contract/printing';
import { attachEmbeddedSandbox, type EmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from './support';

/**
 * Forwards to the sandbox's API. The next label request of an order in `holdNext` waits for
 * release(); label requests of orders in `refused` go out for an order that does not exist.
 */
class LabelRelay {
  readonly labelRequests: string[] = [];
  readonly holdNext = new Set<string>();
  readonly refused = new Set<string>();
  private readonly held = new Map<string, () => void>();
  private readonly arrivals = new Map<string, () => void>();
  private server: Server | null = null;

  constructor(private readonly target: string) {}

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      void this.relay(request).then(
        ({ status, headers, body }) => {
          response.writeHead(status, headers);
          response.end(body);
        },
        () => {
          response.writeHead(502);
          response.end();
        },
      );
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  release(orderId: string): void {
    this.held.get(orderId)?.();
    this.held.delete(orderId);
  }

  /** Resolves when the label of `orderId` has been asked for (and is held, if it is). */
  arrived(orderId: string): Promise<void> {
    if (this.labelRequests.includes(orderId)) return Promise.resolve();
    return new Promise((resolve) => this.arrivals.set(orderId, resolve));
  }

  private async relay(request: IncomingMessage): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let path = request.url ?? '/';
    const label = /^\/orders\/label\/([^/?]+)/.exec(path);
    if (label?.[1]) {
      const orderId = decodeURIComponent(label[1]);
      this.labelRequests.push(orderId);
      const hold = this.holdNext.delete(orderId) ? new Promise<void>((resolve) => this.held.set(orderId, resolve)) : null;
      this.arrivals.get(orderId)?.();
      if (hold) await hold;
      if (this.refused.has(orderId)) path = path.replace(label[1], 'NO-SUCH-ORDER');
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value;
    const answer = await fetch(`${this.target}${path}`, { method: request.method ?? 'GET', headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) });
    const answerHeaders: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'connection') answerHeaders[name] = value;
    });
    return { status: answer.status, headers: answerHeaders, body: Buffer.from(await answer.arrayBuffer()) };
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

describe('a scan asks for its label before its run is written', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let relay: LabelRelay;
  let station: PrintingStation;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 300 });
    relay = new LabelRelay(sandbox.environments.test.baseUrl);
    const relayUrl = await relay.start();
    const embedded = attachEmbeddedSandbox(sandbox);
    const throughRelay: EmbeddedSandbox = { ...embedded, api: async () => ({ ...(await embedded.api()), baseUrl: relayUrl }) };
    const started = await startZebra();
    zebra = started.zebra;
    station = await createPrintingStation(sandbox, started.port, { sandbox: throughRelay });
    // Drafts in the station's order index: a scan prints them at once, asking the service only for the label.
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft');
  });

  afterAll(async () => {
    await station?.dispose();
    await zebra?.stop();
    await relay?.stop();
    await sandbox?.close();
  });

  /** Label formats the printer has read (status queries are not formats). */
  const formatsReceived = (): number => zebra.received().reduce((formats, connection) => formats + connection.bytes.toString('latin1').split('^XA').length - 1, 0);

  const journalOf = async (orderId: string): Promise<JournalEntryData[]> =>
    (await station.call<{ entries: JournalEntryData[] }>('printing.journal', { orderId })).entries;

  it('asks once, and marks nothing as being sent while the service has not answered', async () => {
    const order = orders[0] as TodaysOrder;
    relay.holdNext.add(order.orderId);
    const answer = station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef });
    await relay.arrived(order.orderId);

    // The run is written meanwhile; its label is queued, not "sending", and nothing reached the printer.
    const waiting = await journalOf(order.orderId);
    expect(waiting.map((entry) => [entry.state, entry.sentAt])).toEqual([['queued', null]]);
    expect(formatsReceived()).toBe(0);

    relay.release(order.orderId);
    const outcome = await answer;
    expect(outcome.outcome).toBe('printed');
    await zebra.waitForLabels(1);
    const [entry] = await journalOf(order.orderId);
    expect(entry?.sentAt).not.toBeNull();
    expect(relay.labelRequests.filter((orderId) => orderId === order.orderId)).toHaveLength(1);
  });

  it('fails the scan when the service refuses the label: journaled as failed, nothing sent', async () => {
    const order = orders[1] as TodaysOrder;
    relay.refused.add(order.orderId);
    const printedBefore = zebra.printed().length;
    const receivedBefore = formatsReceived();

    await expect(station.call('printing.print', { scan: order.orderRef })).rejects.toThrow(/printing\.print: [A-Z_]+/);

    const entries = await journalOf(order.orderId);
    expect(entries.map((entry) => [entry.state, entry.sentAt])).toEqual([['failed', null]]);
    expect(relay.labelRequests.filter((orderId) => orderId === order.orderId)).toHaveLength(1);
    expect(formatsReceived()).toBe(receivedBefore);
    expect(zebra.printed().length).toBe(printedBefore);
  });
});
