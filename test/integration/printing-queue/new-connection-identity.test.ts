/**
 * At a packer's pace the printer's connection has closed between two scans, so the next scan
 * meets a new connection, whose printer is asked who it is (serial number, resolution) before any
 * label goes out on it. That question must not hold the label's request back: the service is asked
 * for the label at once, and the label reaches the printer only once the printer has answered.
 * A relay in front of the sandbox sees the label requests; one in front of the printer drops its
 * connections (as an idle close does) and can hold the printer's answer to the identity question.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintOutcomeData } from '../../../src/shared/contract/printing';
import { attachEmbeddedSandbox, type EmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra } from '../../../src/sandbox/printer';
import { waitUntil } from '../../support/wait-until';
import { createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation, type TodaysOrder } from './support';

/** Forwards to the sandbox's API and notes each label request's order id. */
async function startApiRelay(target: string) {
  const labelRequests: string[] = [];
  const relay = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '/';
    const label = /^\/orders\/label\/([^/?]+)/.exec(path);
    if (label?.[1]) labelRequests.push(decodeURIComponent(label[1]));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value;
    const answer = await fetch(`${target}${path}`, { method: request.method ?? 'GET', headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) });
    const answerHeaders: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) answerHeaders[name] = value;
    });
    return { status: answer.status, headers: answerHeaders, body: Buffer.from(await answer.arrayBuffer()) };
  };
  const server: Server = createServer((request, response) => {
    void relay(request).then(
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    labelRequests,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A relay in front of the printer: notes the labels it passes, drops its connections, holds the answer to the identity question. */
async function startPrinterRelay(printerPort: number) {
  const sockets = new Set<net.Socket>();
  const state = { holdIdentity: false, labelsPassed: 0, held: [] as (() => void)[], identityAbandoned: false, connections: 0, identityQuestions: 0, questionsBeforeLastLabel: 0 };
  const server = net.createServer((station) => {
    state.connections += 1;
    const printer = net.connect({ host: '127.0.0.1', port: printerPort });
    sockets.add(station).add(printer);
    let identityAsked = false;
    station.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      if (text.includes('^XA')) state.questionsBeforeLastLabel = state.identityQuestions;
      state.labelsPassed += text.split('^XA').length - 1;
      if (text.includes('device.unique_id')) identityAsked = true;
      // Who the printer is: its serial number and its resolution. (The serial alone is also one of
      // the marks read to prove earlier labels printed.)
      state.identityQuestions += text.split('head.resolution.in_dpi').length - 1;
      printer.write(chunk);
    });
    printer.on('data', (chunk: Buffer) => {
      if (identityAsked && state.holdIdentity) {
        identityAsked = false;
        state.held.push(() => station.write(chunk));
        return;
      }
      station.write(chunk);
    });
    const end = () => {
      // The station gave up waiting for the held answer (its question timed out) and closed the connection.
      if (state.held.length > 0 && state.holdIdentity) state.identityAbandoned = true;
      station.destroy();
      printer.destroy();
      sockets.delete(station);
      sockets.delete(printer);
    };
    station.on('close', end).on('error', end);
    printer.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    state,
    /** As the station's idle close would: every connection through the relay goes. */
    dropConnections() {
      for (const socket of sockets) socket.destroy();
    },
    releaseIdentity() {
      state.holdIdentity = false;
      for (const write of state.held.splice(0)) write();
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a scan on a new printer connection', () => {
  let sandbox: RunningSandbox;
  let zebra: VirtualZebra;
  let api: Awaited<ReturnType<typeof startApiRelay>>;
  let printer: Awaited<ReturnType<typeof startPrinterRelay>>;
  let station: PrintingStation;
  let orders: TodaysOrder[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 300 });
    api = await startApiRelay(sandbox.environments.test.baseUrl);
    const embedded = attachEmbeddedSandbox(sandbox);
    const throughRelay: EmbeddedSandbox = { ...embedded, api: async () => ({ ...(await embedded.api()), baseUrl: api.url }) };
    const started = await startZebra();
    zebra = started.zebra;
    printer = await startPrinterRelay(started.port);
    // A printer's question may take long to answer: the wait is the service's, not the printer's timeout.
    station = await createPrintingStation(sandbox, printer.port, {
      sandbox: throughRelay,
      printing: { queueTiming: { faultPollMs: 100 }, serviceRetryMs: 500, progressIntervalMs: 50, transports: { network: { queryTimeoutMs: 8000, connectTimeoutMs: 1000 } } },
    });
    orders = (await stationOrders(sandbox)).filter((order) => order.zplAvailable && order.status === 'draft');
  });

  afterAll(async () => {
    await station?.dispose();
    await printer?.stop();
    await zebra?.stop();
    await api?.stop();
    await sandbox?.close();
  });

  it('asks the service for its label while the printer says who it is, and sends it only after', async () => {
    const [first, second] = orders as [TodaysOrder, TodaysOrder];
    expect((await station.call<PrintOutcomeData>('printing.print', { scan: first.orderRef })).outcome).toBe('printed');
    await zebra.waitForLabels(1);

    // The connection goes (the station's idle close, at a packer's pace); the printer will be slow to say who it is.
    printer.dropConnections();
    const transport = station.station.services.printing.transports.forPrinter({ kind: 'network-zebra', host: '127.0.0.1', port: printer.port });
    await waitUntil(() => transport.connected === false, 'the station to see its printer connection gone');
    printer.state.holdIdentity = true;
    const labelsBefore = printer.state.labelsPassed;
    const answer = station.call<PrintOutcomeData>('printing.print', { scan: second.orderRef });

    // The label is asked for while the identity answer is held, and nothing is sent on the unidentified connection.
    await waitUntil(() => api.labelRequests.includes(second.orderId), 'the label request while the printer has not said who it is', 6000);
    await waitUntil(() => printer.state.held.length > 0, 'the identity question on the new connection', 6000);
    expect(printer.state.identityAbandoned).toBe(false);
    expect(printer.state.labelsPassed).toBe(labelsBefore);

    printer.releaseIdentity();
    const outcome = await answer;
    expect(outcome.outcome).toBe('printed');
    await zebra.waitForLabels(2);
    expect(printer.state.labelsPassed).toBe(labelsBefore + 1);
    expect(api.labelRequests.filter((orderId) => orderId === second.orderId)).toHaveLength(1);
  });

  it('a scanner’s first keys (printing.prepare) open the new connection and hear who the printer is, so the scan’s label goes out with no question before it', async () => {
    const order = orders[2] as TodaysOrder;
    printer.dropConnections();
    const transport = station.station.services.printing.transports.forPrinter({ kind: 'network-zebra', host: '127.0.0.1', port: printer.port });
    await waitUntil(() => transport.connected === false, 'the station to see its printer connection gone');
    const connectionsBefore = printer.state.connections;
    const questionsBefore = printer.state.identityQuestions;
    const labelsBefore = printer.state.labelsPassed;

    expect(await station.call<{ ready: boolean }>('printing.prepare', {})).toEqual({ ready: true });
    // Ready before the Enter: connected, the printer asked who it is once, nothing printed.
    expect(transport.connected).toBe(true);
    expect(printer.state.connections).toBe(connectionsBefore + 1);
    expect(printer.state.identityQuestions).toBe(questionsBefore + 1);
    expect(printer.state.labelsPassed).toBe(labelsBefore);

    expect((await station.call<PrintOutcomeData>('printing.print', { scan: order.orderRef })).outcome).toBe('printed');
    await zebra.waitForLabels(3);
    // The scan's label went out on that connection, with no question to the printer before it.
    expect(printer.state.labelsPassed).toBe(labelsBefore + 1);
    expect(printer.state.connections).toBe(connectionsBefore + 1);
    expect(printer.state.questionsBeforeLastLabel).toBe(questionsBefore + 1);
  });
});
