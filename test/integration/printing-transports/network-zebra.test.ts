import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNetworkZebraTransport, type NetworkZebraTransport } from '../../../src/main/printing/transports/network-zebra';
import { createPrinterTransports } from '../../../src/main/printing/transports/printer-transports';
import { createCommandRunner } from '../../../src/main/printing/transports/command-runner';
import { PrinterTransportError } from '../../../src/main/printing/transports/transport';
import { getvarQuery, hostStatusQuery, identificationQuery, parseHostStatus } from '../../../src/shared/zebra';
import { VirtualZebra, type VirtualZebraOptions } from '../../../src/sandbox/printer';
import { waitUntil } from '../../support/wait-until';

const encoder = new TextEncoder();
const label = (text: string, padding = 0): string => `^XA^FO50,50^A0N,40,40^FD${text}^FS${padding > 0 ? `^FX${'x'.repeat(padding)}^FS` : ''}^XZ`;

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function printer(options: VirtualZebraOptions = {}): Promise<{ zebra: VirtualZebra; port: number }> {
  const zebra = new VirtualZebra({ labelsPerSecond: 500, ...options });
  const port = await zebra.start();
  cleanups.push(() => zebra.stop());
  return { zebra, port };
}

function transportFor(port: number, options: Partial<Parameters<typeof createNetworkZebraTransport>[0]> = {}): NetworkZebraTransport {
  const transport = createNetworkZebraTransport({ host: '127.0.0.1', port, ...options });
  cleanups.push(() => transport.close());
  return transport;
}

async function failure(promise: Promise<unknown>): Promise<PrinterTransportError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PrinterTransportError);
  return error as PrinterTransportError;
}

describe('network Zebra transport against the virtual Zebra', () => {
  it('prints a label and confirms it with a ~HS answer on the same connection', async () => {
    const { zebra, port } = await printer();
    const transport = transportFor(port);
    const result = await transport.send(encoder.encode(label('ORDER 1')));

    expect(result.confirmed).toBe(true);
    expect(result.bytesWritten).toBe(label('ORDER 1').length);
    expect(result.status?.paperOut).toBe(false);
    const [printed] = await zebra.waitForLabels(1);
    expect(printed?.zpl).toBe(label('ORDER 1'));
    expect(zebra.stats().connectionsAccepted).toBe(1);
  });

  it('answers status, identification and SGD queries', async () => {
    const { zebra, port } = await printer({ printWidthDots: 812 });
    const transport = transportFor(port);
    expect(parseHostStatus(await transport.query(hostStatusQuery)).formatsInBuffer).toBe(0);
    expect(await transport.query(identificationQuery)).toBe('\x02ZD421-203dpi,V84.20.18Z,8,8176KB\x03\r\n');
    expect(await transport.query(getvarQuery('ezpl.print_width'))).toBe('"812"');
    expect(await transport.query(getvarQuery('no.such.variable'))).toBe('"?"');
    await zebra.setPaperOut(true);
    expect(parseHostStatus(await transport.query(hostStatusQuery)).paperOut).toBe(true);
  });

  it('keeps one connection and never interleaves two callers’ labels', async () => {
    const { zebra, port } = await printer({ labelsPerSecond: 2000 });
    const transport = transportFor(port, { chunkBytes: 256 });
    const batch = (prefix: string): string => Array.from({ length: 20 }, (_, i) => label(`${prefix}-${i}`, 500)).join('');
    await Promise.all([
      transport.send(encoder.encode(batch('A'))),
      transport.send(encoder.encode(batch('B'))),
      transport.query(hostStatusQuery),
    ]);
    const printed = await zebra.waitForLabels(40);
    const order = printed.map((entry) => /\^FD([AB])-(\d+)/.exec(entry.zpl)?.slice(1).join('-'));
    const first = order[0]?.[0] === 'A' ? 'A' : 'B';
    const second = first === 'A' ? 'B' : 'A';
    expect(order).toEqual([...Array.from({ length: 20 }, (_, i) => `${first}-${i}`), ...Array.from({ length: 20 }, (_, i) => `${second}-${i}`)]);
    expect(zebra.stats().connectionsAccepted).toBe(1);
    expect(zebra.discarded()).toEqual([]);
  });

  it('waits for the printer to take data when its buffer is full, and finishes', async () => {
    // 2 MiB of labels into a 4 KiB receive buffer: the printer stops reading, the socket fills
    // up, and the transport must wait for 'drain' again and again.
    const { zebra, port } = await printer({ labelsPerSecond: 10_000, receiveBufferBytes: 4096 });
    const transport = transportFor(port);
    const labels = Array.from({ length: 1000 }, (_, i) => label(`BULK-${i}`, 2000));
    const data = encoder.encode(labels.join(''));
    const result = await transport.send(data);

    expect(result.bytesWritten).toBe(data.byteLength);
    const printed = await zebra.waitForLabels(1000, 20_000);
    expect(printed.map((entry) => entry.zpl)).toEqual(labels);
    expect(zebra.stats().readsPaused).toBeGreaterThan(0);
  });

  it('gives up when a paused printer stops taking data, and says how much was written', async () => {
    const { zebra, port } = await printer({ receiveBufferBytes: 4096 });
    await zebra.setPaused(true);
    const transport = transportFor(port, { writeTimeoutMs: 500 });
    const data = encoder.encode(Array.from({ length: 2000 }, (_, i) => label(`STUCK-${i}`, 2000)).join(''));
    const error = await failure(transport.send(data));

    expect(error.code).toBe('PRINTER_OFFLINE');
    expect(error.failure).toBe('write-timeout');
    expect(error.message).toContain('stopped taking data for 0.5 s');
    expect(error.delivery).toBe('partial');
    expect(error.uncertain).toBe(true);
    expect(error.bytesWritten).toBeGreaterThan(0);
    expect(error.bytesWritten).toBeLessThan(data.byteLength);
    expect(error.totalBytes).toBe(data.byteLength);
  });

  it('marks a label cut by a dropped connection as uncertain, then reconnects for the next one', async () => {
    const { zebra, port } = await printer();
    const transport = transportFor(port);
    await zebra.dropConnectionAfter(20);
    const cut = label('CUT-OFF', 100);
    const error = await failure(transport.send(encoder.encode(cut)));

    expect(error.code).toBe('PRINTER_OFFLINE');
    expect(error.failure).toBe('reset');
    expect(error.uncertain).toBe(true);
    expect(error.delivery).not.toBe('none');
    expect(zebra.discarded().map((format) => format.reason)).toEqual(['connection-dropped']);

    const next = await transport.send(encoder.encode(label('NEXT')));
    expect(next.confirmed).toBe(true);
    const printed = await zebra.waitForLabels(1);
    expect(printed.map((entry) => entry.zpl)).toEqual([label('NEXT')]);
    expect(zebra.stats().connectionsAccepted).toBe(2);
  });

  it('treats a status query without an answer as a fault', async () => {
    const { zebra, port } = await printer();
    await zebra.ignoreStatusQueries(true);
    const transport = transportFor(port, { queryTimeoutMs: 300, confirmTimeoutMs: 600 });

    const queried = await failure(transport.query(hostStatusQuery));
    expect(queried.code).toBe('PRINTER_OFFLINE');
    expect(queried.failure).toBe('no-answer');
    expect(queried.message).toBe('The printer at 127.0.0.1:' + port + ' did not answer the status request (~HS) within 0.3 s.');

    // The label itself went out; only its confirmation is missing, so it is uncertain, not failed.
    const sent = await failure(transport.send(encoder.encode(label('UNCONFIRMED'))));
    expect(sent.failure).toBe('no-answer');
    expect(sent.message).toContain('within 0.6 s');
    expect(sent.delivery).toBe('unconfirmed');
    expect(sent.bytesWritten).toBe(label('UNCONFIRMED').length);
    await zebra.waitForLabels(1);
  });

  it('reports a refused connection as offline with nothing sent', async () => {
    const { zebra, port } = await printer();
    await zebra.refuseConnections(true);
    const transport = transportFor(port);
    const error = await failure(transport.send(encoder.encode(label('NEVER'))));
    expect(error.code).toBe('PRINTER_OFFLINE');
    expect(error.failure).toBe('refused');
    expect(error.delivery).toBe('none');
    expect(error.uncertain).toBe(false);
    expect(error.message).toContain('refused the connection');
  });

  it('times out a connection the printer never accepts', async () => {
    const port = await unacceptingPort();
    const transport = transportFor(port, { connectTimeoutMs: 300 });
    const started = Date.now();
    const error = await failure(transport.send(encoder.encode(label('NEVER'))));
    expect(error.failure).toBe('connect-timeout');
    expect(error.delivery).toBe('none');
    expect(error.message).toContain('did not accept a connection within 0.3 s');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops sending when cancelled and reports what went out', async () => {
    const { zebra, port } = await printer({ receiveBufferBytes: 4096 });
    await zebra.setPaused(true);
    const transport = transportFor(port, { writeTimeoutMs: 10_000 });
    const controller = new AbortController();
    const data = encoder.encode(Array.from({ length: 2000 }, (_, i) => label(`C-${i}`, 2000)).join(''));
    const sending = failure(transport.send(data, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 200);
    const error = await sending;
    expect(error.failure).toBe('cancelled');
    expect(error.delivery).toBe('partial');
  });

  it('closes an idle connection so other hosts can reach the printer', async () => {
    const { zebra, port } = await printer();
    const transport = transportFor(port, { idleCloseMs: 100 });
    await transport.send(encoder.encode(label('IDLE')));
    expect(transport.connected).toBe(true);
    await waitUntil(() => zebra.state().connections === 0, 'the idle connection closed', 2000);
    expect(transport.connected).toBe(false);
    await transport.send(encoder.encode(label('AGAIN')));
    expect(zebra.stats().connectionsAccepted).toBe(2);
  });

  it('gives every caller of the station the same transport for the same printer', async () => {
    const { zebra, port } = await printer();
    const transports = createPrinterTransports({ platform: 'linux', runner: createCommandRunner() });
    cleanups.push(() => transports.closeAll());
    const a = transports.forPrinter({ kind: 'network-zebra', host: '127.0.0.1', port });
    const b = transports.forPrinter({ kind: 'network-zebra', host: '127.0.0.1', port });
    expect(b).toBe(a);
    await Promise.all([a.send(encoder.encode(label('ONE'))), b.send(encoder.encode(label('TWO')))]);
    await zebra.waitForLabels(2);
    expect(zebra.stats().connectionsAccepted).toBe(1);
  });
});

/**
 * A port whose listener never accepts: a child process listens with a backlog of 1 and then
 * blocks its only thread, and a few connections fill the backlog. Linux then drops further
 * SYNs, so a new connection hangs, as it does to a printer that is gone from the network.
 */
async function unacceptingPort(): Promise<number> {
  const script = [
    "const net = require('node:net');",
    'const server = net.createServer();',
    "server.listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => {",
    '  process.stdout.write(String(server.address().port) + "\\n");',
    // A pipe's stdout is written synchronously on Linux: the parent reads "blocked" only once the
    // thread is about to stop accepting.
    '  setTimeout(() => { process.stdout.write("blocked\\n"); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000); }, 20);',
    '});',
  ].join('\n');
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => child.kill('SIGKILL'));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  await waitUntil(() => output.includes('blocked') || exited, 'the listener to block its thread', 10_000);
  if (exited) throw new Error('listener exited');
  const port = Number.parseInt(output, 10);
  // A backlog of 1 lets the kernel complete two connections that nobody accepts; the others wait.
  let queued = 0;
  for (let i = 0; i < 4; i += 1) {
    const filler = net.connect({ host: '127.0.0.1', port }, () => (queued += 1));
    filler.on('error', () => undefined);
    cleanups.push(() => filler.destroy());
  }
  await waitUntil(() => queued >= 2, 'the listen backlog full', 10_000);
  return port;
}
