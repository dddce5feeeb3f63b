// The virtual Zebra over real TCP: how it reads ZPL streams and answers status queries.
import { describe, expect, it } from 'vitest';
import {
  label,
  parseErrors,
  parseHostStatus,
  quotedValue,
  threeStatusStrings,
} from './raw-client';
import { usePrinters } from './printer-fixture';
import { waitUntil } from '../../support/wait-until';

const { startPrinter, open } = usePrinters();

describe('reading ZPL streams', () => {
  it('prints formats split across TCP packets at awkward bytes, in order', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    const formats = [label(1), label(2), label(3), label(4)];
    const stream = Buffer.from(formats.join('\r\n'));
    // Cut inside "^X" | "A", inside "^X" | "Z", and in the middle of field data.
    const cuts = [1, 2, stream.indexOf('^XZ') + 1, stream.indexOf('^XZ') + 2, stream.indexOf('Label 2') + 3, stream.length - 1];
    let from = 0;
    for (const cut of [...cuts, stream.length]) {
      await client.send(stream.subarray(from, cut));
      // Each piece read by the printer before the next is sent: each arrives as its own packet.
      await waitUntil(() => printer.stats().bytesReceived === cut, `the first ${cut} bytes read`, 20_000, 1);
      from = cut;
    }
    const labels = await printer.waitForLabels(4);
    expect(labels.map((printed) => printed.zpl)).toEqual(formats);
    expect(labels.map((printed) => printed.index)).toEqual([0, 1, 2, 3]);
  });

  it('prints several formats that arrive in one packet', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    const formats = Array.from({ length: 12 }, (_, n) => label(n));
    await client.send(formats.join(''));
    const labels = await printer.waitForLabels(12);
    expect(labels.map((printed) => printed.zpl)).toEqual(formats);
    expect(printer.stats().formatsReceived).toBe(12);
  });

  it('prints every copy a ^PQ asks for and reports the batch in ~HS', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 20 });
    const client = await open(port);
    await client.send(label(1, '^PQ3'));
    await printer.waitForLabels(1);
    const status = parseHostStatus(await client.ask('~HS', threeStatusStrings));
    expect(status.labelsRemaining).toBe(2);
    const labels = await printer.waitForLabels(3);
    expect(labels.map((printed) => printed.copy)).toEqual([1, 2, 3]);
    expect(printer.stats().formatsPrinted).toBe(1);
  });

  it('ignores noise, survives garbage bytes and discards an endless format', async () => {
    const { printer, port } = await startPrinter({ maxFormatBytes: 4096 });
    const client = await open(port);
    const garbage = Buffer.alloc(20_000);
    for (let i = 0; i < garbage.length; i += 1) garbage[i] = (i * 7919 + 13) % 256;
    await client.send(garbage);
    await client.send(`^XA^FD${'x'.repeat(10_000)}`);
    await client.send(`^FS^XZ${label(1)}`);
    const labels = await printer.waitForLabels(1);
    expect(labels.at(-1)?.zpl).toBe(label(1));
    const oversize = printer.discarded().filter((discard) => discard.reason === 'oversize');
    expect(oversize).toHaveLength(1);
    expect(oversize[0]?.byteLength).toBeGreaterThan(4096);
    // Still answering after all that.
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).paperOut).toBe(false);
  });

  it('serves several printers, each on its own port', async () => {
    const a = await startPrinter({ name: 'Bench A' });
    const b = await startPrinter({ name: 'Bench B' });
    expect(a.port).not.toBe(b.port);
    await (await open(a.port)).send(label(1));
    await (await open(b.port)).send(label(2) + label(3));
    await a.printer.waitForLabels(1);
    await b.printer.waitForLabels(2);
    expect(a.printer.printed().map((printed) => printed.zpl)).toEqual([label(1)]);
    expect(b.printer.printed().map((printed) => printed.zpl)).toEqual([label(2), label(3)]);
  });

  it('reports connections as they arrive', async () => {
    const { printer, port } = await startPrinter();
    const seen: number[] = [];
    printer.on('connection', (connection) => seen.push(connection.remotePort));
    const client = await open(port);
    await waitUntil(() => seen.length > 0, 'the connection reported');
    expect(seen).toEqual([client.socket.localPort]);
  });
});

describe('~HS host status', () => {
  it('counts formats in the buffer and flags a partial format and pause', async () => {
    const { printer, port } = await startPrinter({ faults: { paused: true } });
    const client = await open(port);
    await client.send(label(1) + label(2) + label(3) + '^XA^FO10,10^FDhalf');
    await waitUntil(() => printer.stats().bytesReceived === Buffer.byteLength(label(1) + label(2) + label(3) + '^XA^FO10,10^FDhalf'), 'every byte received');
    // Answered at once, although it arrives in the middle of a format.
    const status = parseHostStatus(await client.ask('~HS', threeStatusStrings));
    expect(status).toMatchObject({ paused: true, paperOut: false, formatsInBuffer: 3, partialFormat: true, bufferFull: false, headUp: false });
    expect(status.labelLength).toBe(1184);
  });

  it('answers before formats queued ahead of it have printed', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 10 });
    const client = await open(port);
    const reply = await client.ask(label(1) + label(2) + label(3) + '~HS', threeStatusStrings, 500);
    expect(printer.stats().labelsPrinted).toBe(0);
    expect(parseHostStatus(reply).formatsInBuffer).toBe(3);
  });

  it('reports paper out, head up and ribbon out', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    await printer.setFaults({ paperOut: true, headOpen: true, ribbonOut: true });
    const status = parseHostStatus(await client.ask('~HS', threeStatusStrings));
    expect(status).toMatchObject({ paperOut: true, headUp: true, ribbonOut: true, paused: false });
  });

  it('keeps the label length of the last printed format', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    await client.send('^XA^LL812^FDshort^FS^XZ');
    await printer.waitForLabels(1);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).labelLength).toBe(812);
  });
});

describe('~HQES, ~HI and SGD', () => {
  it('~HQES sets the error bits for paper out, ribbon out and head open', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    const ask = async (): Promise<ReturnType<typeof parseErrors>> => parseErrors(await client.ask('~HQES', (reply) => reply.includes('\x03')));
    expect(await ask()).toEqual({ flag: 0, group2: 0, group1: 0 });
    await printer.setPaperOut();
    expect(await ask()).toEqual({ flag: 1, group2: 0, group1: 0x1 });
    await printer.setFaults({ paperOut: false, ribbonOut: true });
    expect(await ask()).toEqual({ flag: 1, group2: 0, group1: 0x2 });
    await printer.setFaults({ ribbonOut: false, headOpen: true });
    expect(await ask()).toEqual({ flag: 1, group2: 0, group1: 0x4 });
    await printer.setFaults({ paperOut: true, ribbonOut: true });
    expect(await ask()).toEqual({ flag: 1, group2: 0, group1: 0x7 });
    const reply = await client.ask('~HQES', (text) => text.includes('\x03'));
    expect(reply).toContain('PRINTER STATUS');
    expect(reply).toMatch(/WARNINGS:\s+0 00000000 00000000/);
  });

  it('~HI identifies model, firmware, dots per mm and memory', async () => {
    const { port } = await startPrinter({ model: 'ZD421-203dpi', firmware: 'V84.20.18Z' });
    const client = await open(port);
    const reply = await client.ask('~HI', (text) => text.endsWith('\x03\r\n'));
    expect(reply).toBe('\x02ZD421-203dpi,V84.20.18Z,8,8176KB\x03\r\n');
  });

  it('answers getvar with a quoted value, "?" for unknown names', async () => {
    const { port } = await startPrinter();
    const client = await open(port);
    const getvar = (name: string, end = '\r\n'): Promise<string> => client.ask(`! U1 getvar "${name}"${end}`, quotedValue);
    expect(await getvar('device.languages')).toBe('"zpl"');
    expect(await getvar('head.resolution.in_dpi')).toBe('"203"');
    expect(await getvar('ezpl.print_width', ' ')).toBe('"832"');
    expect(await getvar('media.status')).toBe('"ok"');
    expect(await getvar('no.such.setting')).toBe('"?"');
  });

  it('setvar changes what getvar answers', async () => {
    const { port } = await startPrinter({ name: 'Bench 1' });
    const client = await open(port);
    await client.send('! U1 setvar "device.friendly_name" "Bench 7"\r\n');
    expect(await client.ask('! U1 getvar "device.friendly_name"\r\n', quotedValue)).toBe('"Bench 7"');
  });

  it('~JA cancels every format in the buffer', async () => {
    const { printer, port } = await startPrinter({ faults: { paused: true } });
    const client = await open(port);
    await client.send(label(1) + label(2) + '^XA^FDpartial');
    await waitUntil(() => printer.stats().bytesReceived === Buffer.byteLength(label(1) + label(2) + '^XA^FDpartial'), 'every byte received');
    const status = parseHostStatus(await client.ask('~JA~HS', threeStatusStrings));
    expect(status.formatsInBuffer).toBe(0);
    expect(status.partialFormat).toBe(false);
    expect(printer.discarded().map((discard) => discard.reason)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    await printer.setPaused(false);
    await client.send(label(3));
    expect((await printer.waitForLabels(1)).map((printed) => printed.zpl)).toEqual([label(3)]);
  });
});
