// Formats whose size is close to the receive buffer, sent the way the station's print queue sends
// them: one format, then ~HS on the same connection, wait for the answer, next format. A format
// that straddles the buffer limit or is larger than the whole buffer must still be read to its end.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualZebra } from '../../../src/sandbox/printer/virtual-zebra';
import { connect, parseHostStatus, threeStatusStrings, type RawClient } from './raw-client';

const CAPACITY = 1024;
const printers: VirtualZebra[] = [];
const clients: RawClient[] = [];

async function startPrinter(): Promise<{ printer: VirtualZebra; client: RawClient }> {
  const printer = new VirtualZebra({ labelsPerSecond: 2000, receiveBufferBytes: CAPACITY });
  printers.push(printer);
  const client = await connect(await printer.start({ host: '127.0.0.1', port: 0 }));
  clients.push(client);
  return { printer, client };
}

afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.destroy();
  await Promise.all(printers.splice(0).map((printer) => printer.stop()));
});

/** A format of exactly `bytes` bytes, ^XA to ^XZ; `n` makes each one distinct. */
function formatOfSize(bytes: number, n: number): string {
  const head = `^XA^FO10,10^A0N,30,30^FD${n}^FS^FX`;
  const tail = '^FS^XZ';
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
}

// Every size from well below to well above the buffer, so that each byte of ^XZ (and of the text
// before it) lands on the limit once, plus formats two and three times the buffer.
const SIZES = [
  ...Array.from({ length: 241 }, (_, n) => CAPACITY - 120 + n),
  2 * CAPACITY - 1,
  2 * CAPACITY + 1,
  3 * CAPACITY,
];

describe('formats around the receive buffer size', () => {
  it('answers ~HS after every format and prints them all, one at a time', async () => {
    const { printer, client } = await startPrinter();
    const formats = SIZES.map((size, n) => formatOfSize(size, n));
    for (const [n, format] of formats.entries()) {
      const reply = await client.ask(`${format}\n~HS`, threeStatusStrings, 1000).catch(() => {
        throw new Error(`No ~HS answer after format ${n} of ${format.length} bytes; ${printer.stats().labelsPrinted} labels printed`);
      });
      expect(parseHostStatus(reply).partialFormat).toBe(false);
    }
    const labels = await printer.waitForLabels(formats.length, 5000);
    expect(labels.map((printed) => printed.zpl)).toEqual(formats);
    expect(printer.discarded()).toEqual([]);
  });

  it('answers every ~HS and prints every format when they are all sent at once', async () => {
    const { printer, client } = await startPrinter();
    const formats = SIZES.map((size, n) => formatOfSize(size, n));
    const answers = (reply: string): number => (reply.split('\x03\r\n').length - 1) / 3;
    const stream = formats.map((format) => `${format}\n~HS`).join('');
    const replies = await client.ask(stream, (reply) => answers(reply) >= formats.length, 5000).catch(() => {
      throw new Error(`${answers(client.received())} of ${formats.length} ~HS answered; ${printer.stats().labelsPrinted} labels printed`);
    });
    expect(answers(replies)).toBe(formats.length);
    const labels = await printer.waitForLabels(formats.length, 5000);
    expect(labels.map((printed) => printed.zpl)).toEqual(formats);
    expect(printer.stats().readsPaused).toBeGreaterThan(0); // the buffer really was the limit
  });
});
