// The virtual Zebra's faults over real TCP: what a host sees and what ends up printed.
import { describe, expect, it } from 'vitest';
import type { FaultChange } from '../../../src/sandbox/printer/virtual-zebra';
import {
  connectionError,
  label,
  parseErrors,
  parseHostStatus,
  quotedValue,
  threeStatusStrings,
} from './raw-client';
import { usePrinters } from './printer-fixture';
import { waitUntil } from '../../support/wait-until';

const { startPrinter, open } = usePrinters();

describe('paper out', () => {
  it('runs out after N labels, keeps the rest, and prints them once paper is loaded', async () => {
    const { printer, port } = await startPrinter();
    const faults: FaultChange[] = [];
    printer.on('fault', (change) => faults.push(change));
    await printer.runOutOfPaperAfter(2);
    const client = await open(port);
    const formats = [1, 2, 3, 4, 5].map((n) => label(n));
    await client.send(formats.join(''));
    await printer.waitForLabels(2);
    await waitUntil(() => faults.some((change) => change.fault === 'paperOut' && change.value), 'the printer out of paper');
    expect(printer.stats().labelsPrinted).toBe(2);
    expect(faults).toContainEqual(expect.objectContaining({ fault: 'paperOut', value: true, cause: 'printer' }));
    const status = parseHostStatus(await client.ask('~HS', threeStatusStrings));
    expect(status).toMatchObject({ paperOut: true, formatsInBuffer: 3 });
    expect(parseErrors(await client.ask('~HQES', (reply) => reply.includes('\x03'))).group1 & 0x1).toBe(1);
    expect(await client.ask('! U1 getvar "media.status"\r\n', quotedValue)).toBe('"out"');

    await printer.setPaperOut(false);
    const labels = await printer.waitForLabels(5);
    expect(labels.map((printed) => printed.zpl)).toEqual(formats);
  });

  it('stops in the middle of a label and prints that label again after the fault', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 2 });
    const client = await open(port);
    await client.send(label(1) + label(2));
    await waitUntil(() => printer.state().labelInProgress, 'label 1 coming out of the printer', 20_000, 1);
    await printer.setPaperOut(true);
    await waitUntil(() => printer.printed().length > 0, 'what was printed of label 1');
    // What was printed of label 1 left the printer cut short; the label stays in the buffer (^JZY).
    expect(printer.printed().map((printed) => [printed.zpl, printed.cutShortBy])).toEqual([[label(1), 'paperOut']]);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).formatsInBuffer).toBe(2);
    printer.setLabelsPerSecond(1000);
    await printer.setPaperOut(false);
    expect((await printer.waitForLabels(3)).map((printed) => [printed.zpl, printed.reprint])).toEqual([
      [label(1), false],
      [label(1), true],
      [label(2), false],
    ]);
  });
});

describe('head open and ribbon out', () => {
  it('head open holds printing and shows in ~HS and ~HQES until the head is closed', async () => {
    const { printer, port } = await startPrinter();
    await printer.setHeadOpen();
    const client = await open(port);
    await client.send(label(1) + label(2));
    await waitUntil(() => printer.stats().formatsReceived === 2, 'both formats received');
    // The engine takes a label up as its format arrives: none was taken up, so none comes out.
    expect(printer.state().labelInProgress).toBe(false);
    expect(printer.stats().labelsPrinted).toBe(0);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings))).toMatchObject({ headUp: true, formatsInBuffer: 2 });
    expect(parseErrors(await client.ask('~HQES', (reply) => reply.includes('\x03'))).group1).toBe(0x4);
    await printer.setHeadOpen(false);
    expect(await printer.waitForLabels(2)).toHaveLength(2);
  });

  it('ribbon out holds printing until cleared', async () => {
    const { printer, port } = await startPrinter({ faults: { ribbonOut: true } });
    const client = await open(port);
    await client.send(label(1));
    await waitUntil(() => printer.stats().formatsReceived === 1, 'the format received');
    // The engine takes a label up as its format arrives: none was taken up, so none comes out.
    expect(printer.state().labelInProgress).toBe(false);
    expect(printer.stats().labelsPrinted).toBe(0);
    await printer.setRibbonOut(false);
    expect(await printer.waitForLabels(1)).toHaveLength(1);
  });
});

describe('pause', () => {
  it('~PP pauses and ~PS resumes, as the pause key would', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    await client.send('~PP' + label(1) + label(2));
    // ~PP comes before the formats in the stream: once both are in, the printer was paused first.
    await waitUntil(() => printer.stats().formatsReceived === 2, 'both formats received');
    expect(printer.stats().labelsPrinted).toBe(0);
    expect(printer.faults().paused).toBe(true);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings))).toMatchObject({ paused: true, formatsInBuffer: 2 });
    await client.send('~PS');
    expect(await printer.waitForLabels(2)).toHaveLength(2);
  });

  it('lets the label in progress finish before pausing', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 4 });
    const client = await open(port);
    await client.send(label(1) + label(2));
    await waitUntil(() => printer.state().labelInProgress, 'label 1 coming out of the printer', 20_000, 1);
    await printer.setPaused(true);
    await waitUntil(() => printer.printed().length > 0, 'label 1 finished');
    // The engine takes the next label up as the last one ends: label 2 was not taken up (at 4 labels
    // a second it would still be coming out), so it does not follow.
    expect(printer.state().labelInProgress).toBe(false);
    expect(printer.printed().map((printed) => printed.zpl)).toEqual([label(1)]);
    await printer.setPaused(false);
    expect(await printer.waitForLabels(2)).toHaveLength(2);
  });
});

describe('refused connections', () => {
  it('refuses new connections, keeps open ones, and accepts again on the same port', async () => {
    const { printer, port } = await startPrinter();
    const existing = await open(port);
    await printer.refuseConnections(true);
    expect(await connectionError(port)).toBe('ECONNREFUSED');
    expect(parseHostStatus(await existing.ask('~HS', threeStatusStrings)).paperOut).toBe(false);
    await existing.send(label(1));
    await printer.waitForLabels(1);
    await printer.refuseConnections(false);
    expect(printer.boundPort).toBe(port);
    const again = await open(port);
    await again.send(label(2));
    expect((await printer.waitForLabels(2)).map((printed) => printed.zpl)).toEqual([label(1), label(2)]);
  });
});

describe('dropped connection', () => {
  it('resets the connection mid-format; complete formats survive and print once the fault clears', async () => {
    const { printer, port } = await startPrinter({ faults: { paused: true } });
    const client = await open(port);
    await client.send(label(1) + label(2));
    await waitUntil(() => printer.stats().formatsReceived === 2, 'both formats received');
    await printer.dropConnectionAfter(20);
    const third = label(3);
    client.socket.write(third);
    const { error } = await client.closed;
    expect(error?.code).toMatch(/ECONNRESET|EPIPE/);
    const dropped = printer.discarded().filter((discard) => discard.reason === 'connection-dropped');
    expect(dropped).toEqual([expect.objectContaining({ zpl: third.slice(0, 20), byteLength: 20 })]);
    expect(printer.faults().dropConnectionAfterBytes).toBeNull();

    const status = parseHostStatus(await (await open(port)).ask('~HS', threeStatusStrings));
    expect(status).toMatchObject({ formatsInBuffer: 2, partialFormat: false });
    await printer.setPaused(false);
    expect((await printer.waitForLabels(2)).map((printed) => printed.zpl)).toEqual([label(1), label(2)]);
  });

  it('discards a partial format when the host closes the connection', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    await client.send(label(1) + '^XA^FDnever finished');
    await client.close();
    await printer.waitForLabels(1);
    await waitUntil(() => printer.discarded().length > 0, 'the partial format discarded');
    expect(printer.discarded()).toEqual([expect.objectContaining({ reason: 'connection-closed', zpl: '^XA^FDnever finished' })]);
  });
});

describe('no answer to status queries', () => {
  it('reads but never answers ~HS, ~HQES, ~HI and getvar, and still prints', async () => {
    const { printer, port } = await startPrinter({ faults: { ignoreStatusQueries: true } });
    const client = await open(port);
    await client.send('~HS~HQES~HI! U1 getvar "device.languages"\r\n' + label(1));
    await printer.waitForLabels(1);
    expect(client.received()).toBe('');
    await printer.ignoreStatusQueries(false);
    const answer = await client.ask('~HS', threeStatusStrings);
    expect(parseHostStatus(answer).formatsInBuffer).toBe(0);
    // The printer reads and answers in the stream's order: an answer to the first queries would
    // have come before this one. All that came is this one ~HS answer (three status strings).
    expect(client.received()).toBe(answer);
    expect(answer.split('\x02')).toHaveLength(4);
  });
});

describe('setFaults', () => {
  it('takes plain JSON and rejects unknown or malformed knobs', async () => {
    const { printer } = await startPrinter();
    const parsed: unknown = JSON.parse('{"paperOut":true,"paperOutAfterLabels":null}');
    expect(await printer.setFaults(parsed)).toMatchObject({ paperOut: true, headOpen: false });
    await expect(printer.setFaults({ paperOutt: true })).rejects.toThrow();
    await expect(printer.setFaults({ dropConnectionAfterBytes: -1 })).rejects.toThrow();
    expect(await printer.clearFaults()).toMatchObject({ paperOut: false });
  });
});
