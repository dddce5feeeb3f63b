// Formats sent while the printer cannot print are held in its buffer, never dropped: they print
// once the fault is cleared, the interrupted label first, unless the power goes meanwhile. A label
// cut short by paper out, head open or ribbon out comes out as far as it got and (^JZY, the
// power-up default) again whole once the fault clears: ZPL II Programming Guide, ^JZ.
import { describe, expect, it } from 'vitest';
import { label, parseHostStatus, threeStatusStrings } from './raw-client';
import { usePrinters } from './printer-fixture';

const { startPrinter, open } = usePrinters();

const twoCopies = label(1, '^PQ2');

describe.each([
  ['out of paper', { paperOut: true }, { paperOut: false }, 'paperOut'],
  ['head open', { headOpen: true }, { headOpen: false }, 'headOpen'],
  ['out of ribbon', { ribbonOut: true }, { ribbonOut: false }, 'ribbonOut'],
] as const)('formats held while %s', (_fault, raise, clear, cutShortBy) => {
  it('counts them in ~HS, prints them once cleared, and (^JZY, the power-up default) prints the cut-short label again, counting both copies', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 4 });
    expect(printer.state().reprintAfterError).toBe(true);
    const client = await open(port);
    await client.send(twoCopies);
    await printer.waitForLabels(1);
    // Copy 2 of the first format is printing now: the fault stops it half-way.
    await printer.setFaults(raise);
    await client.send(label(2) + label(3));
    await expect.poll(() => printer.stats().formatsReceived).toBe(3);

    const status = parseHostStatus(await client.ask('~HS', threeStatusStrings));
    expect(status).toMatchObject({ formatsInBuffer: 3, labelsRemaining: 1 });
    // The part printed before the fault left the printer, and its media was counted.
    expect(printer.printed().map((entry) => [entry.copy, entry.cutShortBy, entry.reprint])).toEqual([
      [1, null, false],
      [2, cutShortBy, false],
    ]);
    expect(printer.state().odometer).toBe(2);

    printer.setLabelsPerSecond(1000);
    await printer.setFaults(clear);
    const printed = await printer.waitForLabels(5);
    expect(printed.map((entry) => [entry.zpl, entry.copy, entry.cutShortBy, entry.reprint])).toEqual([
      [twoCopies, 1, null, false],
      [twoCopies, 2, cutShortBy, false],
      [twoCopies, 2, null, true],
      [label(2), 1, null, false],
      [label(3), 1, null, false],
    ]);
    expect(printer.state().odometer).toBe(5);
    expect(printer.discarded()).toEqual([]);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).formatsInBuffer).toBe(0);
  });

  it('with ^JZN the cut-short copy stands: nothing is printed again', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 4 });
    const client = await open(port);
    // The setting arrives as ZPL, as a bench admin's ^JZN would: a format that draws nothing prints nothing.
    await client.send('^XA^JZN^XZ' + label(1) + label(2) + label(3));
    await printer.waitForLabels(1);
    expect(printer.state().reprintAfterError).toBe(false);
    await printer.setFaults(raise);
    // Label 2 left the buffer, cut short; label 3 waits.
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).formatsInBuffer).toBe(1);

    printer.setLabelsPerSecond(1000);
    await printer.setFaults(clear);
    await expect.poll(() => printer.stats().formatsPrinted).toBe(4);
    expect(printer.printed().map((entry) => [entry.zpl, entry.cutShortBy, entry.reprint])).toEqual([
      [label(1), null, false],
      [label(2), cutShortBy, false],
      [label(3), null, false],
    ]);
    expect(printer.state().odometer).toBe(3);
  });

  it('a label counter that counts whole labels only: the reprint is counted, the cut-short copy is not', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 4, labelCounter: 'whole-labels' });
    const client = await open(port);
    await client.send(twoCopies);
    await printer.waitForLabels(1);
    await printer.setFaults(raise);
    await expect.poll(() => printer.printed().length).toBe(2);
    expect(printer.printed()[1]?.cutShortBy).toBe(cutShortBy);
    expect(printer.state().odometer, 'the cut-short copy is not counted').toBe(1);

    printer.setLabelsPerSecond(1000);
    await printer.setFaults(clear);
    await printer.waitForLabels(3);
    expect(printer.printed().map((entry) => [entry.copy, entry.cutShortBy, entry.reprint])).toEqual([
      [1, null, false],
      [2, cutShortBy, false],
      [2, null, true],
    ]);
    expect(printer.state().odometer).toBe(2);
  });

  it('goes back to ^JZY at power-up', async () => {
    const { printer } = await startPrinter();
    printer.setReprintAfterError(false);
    await printer.powerCycle();
    expect(printer.state().reprintAfterError).toBe(true);
  });
});

describe('formats held while the printer cannot print, then a power cycle', () => {
  it('loses every held format and keeps the paper out; nothing prints when paper is loaded', async () => {
    const { printer, port } = await startPrinter({ faults: { paperOut: true } });
    const client = await open(port);
    await client.send(label(1) + label(2));
    await expect.poll(() => printer.state().status.formatsInBuffer).toBe(2);

    await printer.powerCycle();

    expect(printer.discarded().map((format) => [format.reason, format.zpl])).toEqual([
      ['power-cycle', label(1)],
      ['power-cycle', label(2)],
    ]);
    const after = await open(port);
    expect(parseHostStatus(await after.ask('~HS', threeStatusStrings))).toMatchObject({ paperOut: true, formatsInBuffer: 0 });
    await printer.setPaperOut(false);
    await after.send(label(3));
    const printed = await printer.waitForLabels(1);
    expect(printed.map((entry) => entry.zpl)).toEqual([label(3)]);
  });

  it('loses the formats held by a pause too, and comes back on unpaused', async () => {
    const { printer, port } = await startPrinter({ faults: { paused: true } });
    const client = await open(port);
    await client.send(label(1) + label(2));
    await expect.poll(() => printer.state().status.formatsInBuffer).toBe(2);

    await printer.powerCycle();

    expect(printer.discarded().map((format) => [format.reason, format.zpl])).toEqual([
      ['power-cycle', label(1)],
      ['power-cycle', label(2)],
    ]);
    expect(printer.faults().paused).toBe(false);
    const after = await open(port);
    await after.send(label(3));
    expect((await printer.waitForLabels(1)).map((entry) => entry.zpl)).toEqual([label(3)]);
  });
});
