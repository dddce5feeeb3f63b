// Formats sent while the printer cannot print are held in its buffer, never dropped: they print
// once the fault is cleared, the interrupted label first, unless the power goes meanwhile.
import { describe, expect, it } from 'vitest';
import { label, parseHostStatus, threeStatusStrings } from './raw-client';
import { usePrinters } from './printer-fixture';

const { startPrinter, open } = usePrinters();

const twoCopies = label(1, '^PQ2');

describe.each([
  ['out of paper', { paperOut: true }, { paperOut: false }],
  ['head open', { headOpen: true }, { headOpen: false }],
] as const)('formats held while %s', (_fault, raise, clear) => {
  it('counts them in ~HS, prints them once cleared, and prints the interrupted label again', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 4 });
    const client = await open(port);
    await client.send(twoCopies);
    await printer.waitForLabels(1);
    // Copy 2 of the first format is printing now: the fault stops it half-way.
    await printer.setFaults(raise);
    await client.send(label(2) + label(3));
    await expect.poll(() => printer.stats().formatsReceived).toBe(3);

    const status = parseHostStatus(await client.ask('~HS', threeStatusStrings));
    expect(status).toMatchObject({ formatsInBuffer: 3, labelsRemaining: 1 });
    expect(printer.printed()).toHaveLength(1);

    printer.setLabelsPerSecond(1000);
    await printer.setFaults(clear);
    const printed = await printer.waitForLabels(4);
    expect(printed.map((entry) => [entry.zpl, entry.copy])).toEqual([
      [twoCopies, 1],
      [twoCopies, 2],
      [label(2), 1],
      [label(3), 1],
    ]);
    expect(printer.discarded()).toEqual([]);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).formatsInBuffer).toBe(0);
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
