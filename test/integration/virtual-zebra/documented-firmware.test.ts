// Behaviours of real Zebras the station must live with, modelled from Zebra's documents
// (docs/virtual-zebra.md cites each): no ~HS answer while media is out or the head is open, while
// ~HQES still answers; one TCP connection served at a time, a later one held without being read.
import { describe, expect, it } from 'vitest';
import { label, parseErrors, parseHostStatus, quotedValue, threeStatusStrings } from './raw-client';
import { usePrinters } from './printer-fixture';

const { startPrinter, open } = usePrinters();

const hqesComplete = (reply: string): boolean => reply.includes('\x03');

describe('silent ~HS in media out, ribbon out and head open (newer firmware)', () => {
  it.each([
    ['media out', { paperOut: true }, 0x1],
    ['ribbon out', { ribbonOut: true }, 0x2],
    ['head open', { headOpen: true }, 0x4],
  ] as const)('%s: ~HS and device.host_status go unanswered, ~HQES names the fault', async (_name, fault, bit) => {
    const { printer, port } = await startPrinter({ faults: { silentHostStatusInFaults: true } });
    const client = await open(port);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).paperOut).toBe(false);

    await printer.setFaults(fault);
    await expect(client.ask('~HS', threeStatusStrings, 300)).rejects.toThrow(/No complete reply/);
    await expect(client.ask('! U1 getvar "device.host_status"\r\n', quotedValue, 300)).rejects.toThrow(/No complete reply/);
    const errors = parseErrors(await client.ask('~HQES', hqesComplete));
    expect(errors).toEqual({ flag: 1, group2: 0, group1: bit });
    // The rest of SGD still answers: the label counter, for one.
    expect(await client.ask('! U1 getvar "odometer.total_label_count"\r\n', quotedValue)).toBe('"0"');
  });

  it('answers ~HS while merely paused, and again once the fault clears', async () => {
    const { printer, port } = await startPrinter({ faults: { silentHostStatusInFaults: true, paused: true } });
    const client = await open(port);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).paused).toBe(true);
    await printer.setFaults({ paused: false, headOpen: true });
    await expect(client.ask('~HS', threeStatusStrings, 300)).rejects.toThrow(/No complete reply/);
    await printer.setFaults({ headOpen: false });
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).headUp).toBe(false);
  });
});

describe('one connection at a time', () => {
  it('holds a second connection unread until the first closes, then reads everything it sent', async () => {
    const { printer, port } = await startPrinter({ faults: { oneConnectionAtATime: true } });
    const first = await open(port);
    const second = await open(port);
    // The second is connected (TCP accepted it) but nothing it sends is read or answered.
    await second.send(label(2));
    await expect(second.ask('~HS', threeStatusStrings, 300)).rejects.toThrow(/No complete reply/);
    await first.send(label(1));
    await printer.waitForLabels(1);
    expect(printer.stats().formatsReceived).toBe(1);
    expect(parseHostStatus(await first.ask('~HS', threeStatusStrings)).formatsInBuffer).toBe(0);

    await first.close();
    const printed = await printer.waitForLabels(2);
    expect(printed.map((entry) => entry.zpl)).toEqual([label(1), label(2)]);
    // The question it asked while held is answered once it is served.
    await expect.poll(() => second.received().split('\x03\r\n').length - 1).toBeGreaterThanOrEqual(3);
  });
});
