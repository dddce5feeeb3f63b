/**
 * printers.add may be pointed at any host and port (issue 11). The station asks the address one
 * status question (~HI) and nothing else until it has answered as a Zebra; it reads back a
 * bounded answer for a bounded time, and refuses with the reason when the other end is not a
 * Zebra. Real loopback servers stand in for what a caller might point it at.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PrinterData } from '../../../src/shared/contract/printers';
import { attachEmbeddedSandbox } from '../../../src/main/embedded-sandbox';
import type { RunningSandbox } from '../../../src/sandbox';
import { runCliIn } from '../../support/cli';
import { memoryKeyStore } from '../../support/station';
import { createPrintingStation, startTestSandbox, startZebra, type PrintingStation } from '../printing-queue/support';

interface HostileServer {
  port: number;
  /** Everything every connection sent, as text. */
  received(): string;
  /** Resolves once every connection it accepted has closed. */
  allClosed(): Promise<void>;
  close(): Promise<void>;
}

async function hostileServer(onConnection: (socket: net.Socket) => void): Promise<HostileServer> {
  const chunks: Buffer[] = [];
  const closed: Promise<void>[] = [];
  const server = net.createServer((socket) => {
    closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received: () => Buffer.concat(chunks).toString('latin1'),
    allClosed: async () => {
      await Promise.all(closed);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('printers.add asks only ~HI until the other end has answered as a Zebra', () => {
  let sandbox: RunningSandbox;
  let station: PrintingStation;
  let servers: HostileServer[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 50 });
    // Its own printer is an unused port: this test only adds printers.
    station = await createPrintingStation(sandbox, 9);
  });

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });

  afterAll(async () => {
    await station?.dispose();
    await sandbox?.close();
  });

  const add = (port: number) =>
    station.station.dispatcher.dispatch('printers.add', { name: `At ${port}`, address: { kind: 'network-zebra', host: '127.0.0.1', port } }, { host: 'web' });

  const names = async () => (await station.call<{ printers: PrinterData[] }>('printers.list', {})).printers.map((printer) => printer.name);

  it('refuses a web server, having sent it nothing but ~HI', async () => {
    const server = await hostileServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n')));
    servers.push(server);
    const result = await add(server.port);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('PRINTER_NOT_ZEBRA');
    expect(result.error.message).toContain(`127.0.0.1:${server.port} is not a Zebra printer`);
    expect(result.error.details).toEqual(['It answered: HTTP/1.1 400 Bad Request Content-Length: 0']);
    await server.allClosed();
    expect(server.received()).toBe('~HI');
    expect(await names()).not.toContain(`At ${server.port}`);
  });

  it('refuses a server that floods bytes, reading no more than a small bound and quickly', async () => {
    const server = await hostileServer((socket) => {
      const noise = Buffer.alloc(64 * 1024, 0x41);
      const pump = (): void => {
        while (!socket.destroyed && socket.write(noise));
      };
      socket.on('drain', pump);
      pump();
    });
    servers.push(server);
    const started = performance.now();
    const result = await add(server.port);
    const elapsed = performance.now() - started;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('PRINTER_NOT_ZEBRA');
    expect(result.error.message).toContain('more than 512 bytes');
    expect(elapsed).toBeLessThan(1500);
    await server.allClosed();
    expect(server.received()).toBe('~HI');
  });

  it('refuses a server that accepts and says nothing, within its short time', async () => {
    const server = await hostileServer(() => undefined);
    servers.push(server);
    const started = performance.now();
    const result = await add(server.port);
    expect(performance.now() - started).toBeLessThan(4000);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('PRINTER_NOT_ZEBRA');
    expect(result.error.message).toContain('did not answer');
    await server.allClosed();
    expect(server.received()).toBe('~HI');
  });

  it('adds a Zebra after its ~HI answer, and only then asks it more', async () => {
    const { zebra, port } = await startZebra();
    try {
      const added = await station.call<{ printer: PrinterData; check: { checked: boolean; dpi: number | null } }>('printers.add', {
        name: 'Real Zebra',
        address: { kind: 'network-zebra', host: '127.0.0.1', port },
      });
      expect(added.check).toMatchObject({ checked: true, dpi: 203 });
      expect(added.printer.route.kind).toBe('native-zpl');
      expect(zebra.printed()).toEqual([]);
    } finally {
      await zebra.stop();
    }
  });

  it('says so on the command line too, with a failing exit code, and lists no such printer', async () => {
    const server = await hostileServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    servers.push(server);
    const dataDir = mkdtempSync(join(tmpdir(), 'station-probe-cli-'));
    try {
      const cli = (...argv: string[]) => runCliIn(dataDir, { keyStore: memoryKeyStore(), sandbox: attachEmbeddedSandbox(sandbox) }, argv);
      const added = await cli('printers', 'add', 'Not a printer', '--host', '127.0.0.1', '--port', String(server.port));
      expect(added.code).not.toBe(0);
      expect(added.stderr).toContain('is not a Zebra printer');
      expect(added.stderr).toContain('SSH-2.0-OpenSSH_9.6');
      await server.allClosed();
      expect(server.received()).toBe('~HI');
      expect((await cli('printers', 'list')).stdout).not.toContain('Not a printer');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
