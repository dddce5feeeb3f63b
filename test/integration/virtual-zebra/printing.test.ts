// The virtual Zebra's print engine over real TCP: speed, receive buffer and backpressure,
// statistics, and the record of printed labels.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { label, parseHostStatus, sleep, threeStatusStrings } from './raw-client';
import { usePrinters } from './printer-fixture';
import { waitUntil } from '../../support/wait-until';

const { startPrinter, open } = usePrinters();

describe('print speed', () => {
  it('prints at the set number of labels per second', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 20 });
    const client = await open(port);
    await client.send(Array.from({ length: 10 }, (_, n) => label(n)).join(''));
    const labels = await printer.waitForLabels(10);
    const times = labels.map((printed) => printed.printedAt);
    const gaps = times.slice(1).map((time, n) => time - (times[n] ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(48);
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeLessThan(2000);
  });
});

describe('receive buffer and backpressure', () => {
  it('stops reading when the buffer is full, so the sender sees TCP backpressure', async () => {
    const capacity = 64 * 1024;
    const { printer, port } = await startPrinter({ labelsPerSecond: 5, receiveBufferBytes: capacity });
    const sender = await open(port);
    const format = (n: number): string => `^XA^FX${'x'.repeat(16_000)}^FS^FO50,50^FD${n}^FS^XZ`;
    let written = 0;
    let accepted = true;
    while (accepted && written < 2000) accepted = sender.socket.write(format(written++));
    expect(accepted).toBe(false); // write() said stop: the printer is not keeping up
    await waitUntil(() => printer.state().status.bufferFull, 'the receive buffer full');
    const held = printer.state().bufferedBytes;
    expect(held).toBeGreaterThan(capacity / 2);
    expect(held).toBeLessThanOrEqual(capacity);
    expect(printer.stats().formatsReceived).toBeLessThan(written / 4);

    // A second connection still gets answers, and sees the buffer full.
    const status = parseHostStatus(await (await open(port)).ask('~HS', threeStatusStrings));
    expect(status.bufferFull).toBe(true);
    expect(status.formatsInBuffer).toBeLessThanOrEqual(4);

    let drained = false;
    sender.socket.once('drain', () => {
      drained = true;
    });
    // Proves that the sender is not let go: 5 labels a second drain slowly.
    await sleep(400);
    expect(drained).toBe(false);

    printer.setLabelsPerSecond(1000);
    const labels = await printer.waitForLabels(written, 30_000);
    expect(drained).toBe(true);
    expect(labels.map((printed) => printed.zpl)).toEqual(Array.from({ length: written }, (_, n) => format(n)));
    expect(printer.stats().maxFormatsInBuffer).toBeLessThanOrEqual(4);
    expect(printer.stats().readsPaused).toBeGreaterThan(0);
  });

  it('takes a single format larger than the buffer', async () => {
    const { printer, port } = await startPrinter({ receiveBufferBytes: 4096 });
    const big = `^XA^FO10,10^FD${'y'.repeat(50_000)}^FS^XZ`;
    await (await open(port)).send(big + label(1));
    expect((await printer.waitForLabels(2)).map((printed) => printed.zpl)).toEqual([big, label(1)]);
  });
});

describe('statistics', () => {
  it('counts formats, bytes and the most formats ever waiting', async () => {
    const { printer, port } = await startPrinter({ faults: { paused: true } });
    const client = await open(port);
    const formats = Array.from({ length: 6 }, (_, n) => label(n));
    const noise = '\r\n~HS';
    await client.send(formats.join('') + noise);
    await waitUntil(() => printer.stats().bytesReceived === formats.join('').length + noise.length, 'every byte received');
    await printer.setPaused(false);
    await printer.waitForLabels(6);
    expect(printer.stats()).toMatchObject({
      formatsReceived: 6,
      formatsPrinted: 6,
      labelsPrinted: 6,
      maxFormatsInBuffer: 6,
      bytesReceived: formats.join('').length + noise.length,
      connectionsAccepted: 1,
    });
  });

  it('counts idle time between labels, but not time spent paused or faulted', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    await client.send(label(1));
    await printer.waitForLabels(1);
    // Time is the input: the printer stands idle this long between the two labels.
    await sleep(200);
    await client.send(label(2));
    await printer.waitForLabels(2);
    const idle = printer.stats().idleMs;
    expect(idle).toBeGreaterThanOrEqual(180);
    expect(idle).toBeLessThan(600);

    printer.resetStats();
    await client.send(label(3));
    await printer.waitForLabels(3);
    await printer.setPaused(true);
    await client.send(label(4));
    // Time is the input: this long paused must not count as idle.
    await sleep(250);
    await printer.setPaused(false);
    await printer.waitForLabels(4);
    expect(printer.stats().idleMs).toBeLessThan(100);
    expect(printer.stats().labelsPrinted).toBe(2);
  });
});

describe('printed labels', () => {
  const barcodeLabel = '^XA^PW832^LL1184^FO80,80^A0N,50,50^FDOrder 4711^FS^FO80,200^BY3^BCN,200,Y,N,N^FD3SABCD1234567^FS^XZ';

  it('records every label with its text and time, and emits it', async () => {
    const { printer, port } = await startPrinter();
    const emitted: number[] = [];
    printer.on('printed', (printed) => emitted.push(printed.index));
    const before = Date.now();
    await (await open(port)).send(barcodeLabel + label(2));
    const labels = await printer.waitForLabels(2);
    expect(labels).toEqual([
      { index: 0, zpl: barcodeLabel, printedAt: expect.any(Number), copy: 1, formatId: 0, cutShortBy: null, reprint: false },
      { index: 1, zpl: label(2), printedAt: expect.any(Number), copy: 1, formatId: 1, cutShortBy: null, reprint: false },
    ]);
    expect(labels[0]?.printedAt).toBeGreaterThanOrEqual(before);
    expect(labels[1]?.printedAt).toBeGreaterThanOrEqual(labels[0]?.printedAt ?? 0);
    expect(emitted).toEqual([0, 1]);
  });

  it('renders a printed label to a PNG as wide as the printhead', async () => {
    const { printer, port } = await startPrinter();
    await (await open(port)).send(barcodeLabel + label(2));
    await printer.waitForLabels(2);
    const darkPixels = async (index: number): Promise<{ width: number; height: number; dark: number }> => {
      const png = await printer.renderPng(index);
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      const image = await loadImage(png);
      const canvas = createCanvas(image.width, image.height);
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, image.width, image.height);
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128 && (data[i + 3] ?? 0) > 0) dark += 1;
      return { width: image.width, height: image.height, dark };
    };
    const printed = await darkPixels(0);
    expect(printed.width).toBe(832);
    expect(printed.height).toBe(1184);
    const textOnly = await darkPixels(1);
    expect(textOnly.dark).toBeGreaterThan(0);
    // A 200-dot high barcode blackens far more of the label than one line of text.
    expect(printed.dark).toBeGreaterThan(10 * textOnly.dark);
    await expect(printer.renderPng(99)).rejects.toThrow(RangeError);
  });
});
