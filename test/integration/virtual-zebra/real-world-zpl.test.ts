// Real-world ZPL over TCP: every valid label prints, byte for byte as sent, and what it
// downloads before ^XA is stored, recalled and rendered.
import { describe, expect, it } from 'vitest';
import { inkedDots, readGreyPng } from './png-pixels';
import { usePrinters } from './printer-fixture';
import { realWorldLabels } from './real-world-labels';

const { startPrinter, open } = usePrinters();

describe('real-world ZPL', () => {
  it.each(realWorldLabels.map((label) => [label.name, label] as const))('%s: prints every format exactly as sent', async (_name, label) => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    await client.send(label.bytes);
    await client.close();
    const printed = await printer.waitForLabels(label.labels);

    const formatsPrinted = [...new Map(printed.map((entry) => [entry.formatId, Buffer.from(entry.zpl, 'utf8')])).values()];
    expect(formatsPrinted).toEqual(label.formats);
    expect(printed).toHaveLength(label.labels);
    expect(printer.discarded()).toEqual([]);
    expect(printer.received()).toEqual([{ connectionId: 1, bytes: label.bytes }]);
  });

  it('prints a label whose base64 download arrived in an earlier packet, ended only by the ^XA after it', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    const download = '~DGR:Z.GRF,4,1,:Z64:eJz7/x8AAv8B/g==:3C1A';
    await client.send(download);
    await expect.poll(() => printer.stats().bytesReceived).toBe(download.length);
    await client.send('^XA^FO1,1^XGR:Z.GRF^FS^XZ');
    const printed = await printer.waitForLabels(1);
    expect(printed.map((entry) => entry.zpl)).toEqual(['^XA^FO1,1^XGR:Z.GRF^FS^XZ']);
    expect(printer.state().storedObjects).toEqual(['R:Z.GRF']);
  });

  it('holds at least 15 labels', () => {
    expect(realWorldLabels.length).toBeGreaterThanOrEqual(15);
  });
});

describe('downloaded graphics', () => {
  const logoLabel = '^XA^PW400^LL300^FO100,50^XGR:BOX.GRF,2,2^FS^XZ';
  // 8 bytes × 40 rows: 64 × 40 dots, magnified twice by ^XG: 128 × 80 black dots.
  const logo = `~DGR:BOX.GRF,320,8,${'FF'.repeat(320)}`;

  it('renders a ~DG graphic recalled by ^XG where the label puts it, magnified', async () => {
    const { printer, port } = await startPrinter({ printWidthDots: 400, labelLengthDots: 300 });
    const client = await open(port);
    await client.send(`${logo}\r\n${logoLabel}`);
    await printer.waitForLabels(1);
    const image = readGreyPng(await printer.renderPng(0));
    expect({ width: image.width, height: image.height }).toEqual({ width: 400, height: 300 });
    expect(inkedDots(image, 100, 50, 228, 130)).toBe(128 * 80);
    expect(inkedDots(image)).toBe(128 * 80);
  });

  it('deletes a RAM graphic with ^ID: a label recalling it afterwards prints without it', async () => {
    const { printer, port } = await startPrinter({ printWidthDots: 400, labelLengthDots: 300 });
    const client = await open(port);
    await client.send(`${logo}^XA^IDR:BOX.GRF^FS^XZ${logoLabel.replace('^XZ', '^FO10,10^GB20,20,20^FS^XZ')}`);
    // The format that only deletes prints nothing; the label after it is the first one out.
    await printer.waitForLabels(1);
    expect(printer.state().storedObjects).toEqual([]);
    expect(printer.stats().formatsPrinted).toBe(2);
    const image = readGreyPng(await printer.renderPng(0));
    expect(inkedDots(image, 100, 50, 228, 130)).toBe(0);
    expect(inkedDots(image, 0, 0, 40, 40)).toBeGreaterThanOrEqual(20 * 20);
  });
});
