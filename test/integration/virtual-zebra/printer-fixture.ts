import { afterEach } from 'vitest';
import { VirtualZebra, type VirtualZebraOptions } from '../../../src/sandbox/printer/virtual-zebra';
import { connect, type RawClient } from './raw-client';

/**
 * Fast virtual printers and raw clients for one test file, all closed after each test.
 * Printers default to 1000 labels/s so only tests about speed wait for the print engine.
 */
export function usePrinters() {
  const printers: VirtualZebra[] = [];
  const clients: RawClient[] = [];

  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.destroy();
    await Promise.all(printers.splice(0).map((printer) => printer.stop()));
  });

  return {
    async startPrinter(options: VirtualZebraOptions = {}): Promise<{ printer: VirtualZebra; port: number }> {
      const printer = new VirtualZebra({ labelsPerSecond: 1000, ...options });
      printers.push(printer);
      return { printer, port: await printer.start({ host: '127.0.0.1', port: 0 }) };
    },
    async open(port: number): Promise<RawClient> {
      const client = await connect(port);
      clients.push(client);
      return client;
    },
  };
}
