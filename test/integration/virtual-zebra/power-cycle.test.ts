// Switching the virtual Zebra off and on, and putting another printer at its address, over real
// TCP: what a host sees on the wire and what the printer's records say.
import { describe, expect, it } from 'vitest';
import { connectionError, label, parseHostStatus, quotedValue, threeStatusStrings, type RawClient } from './raw-client';
import { usePrinters } from './printer-fixture';

const { startPrinter, open } = usePrinters();

const getvar = (client: RawClient, name: string): Promise<string> =>
  client.ask(`! U1 getvar "${name}"\r\n`, quotedValue).then((reply) => reply.slice(1, -1));

const identification = (client: RawClient): Promise<string> => client.ask('~HI', (reply) => reply.includes('\x03\r\n'));

/** A clock the test moves by hand: the printer's power-on time and uptime follow it, not real time. */
function manualClock(start = Date.UTC(2026, 10, 24, 8, 0, 0)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('power cycle', () => {
  it('loses the buffered formats and the label printing, resets connections, keeps the label counter', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 5, odometerStart: 1000 });
    const client = await open(port);
    const formats = [1, 2, 3, 4].map((n) => label(n));
    await client.send(formats.join(''));
    await printer.waitForLabels(1);
    // Label 2 is printing now and 3 and 4 wait in the buffer.
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).formatsInBuffer).toBe(3);

    await printer.powerCycle();

    expect((await client.closed).error?.code).toBe('ECONNRESET');
    const lost = printer.discarded();
    expect(lost.map((format) => format.reason)).toEqual(['power-cycle', 'power-cycle', 'power-cycle']);
    expect(lost.map((format) => format.zpl)).toEqual(formats.slice(1));
    expect(printer.printed().map((printed) => printed.zpl)).toEqual([formats[0]]);

    const after = await open(port);
    expect(parseHostStatus(await after.ask('~HS', threeStatusStrings)).formatsInBuffer).toBe(0);
    expect(await getvar(after, 'odometer.total_label_count')).toBe('1001');
    await after.send(label(5));
    await printer.waitForLabels(2);
    expect(await getvar(after, 'odometer.total_label_count')).toBe('1002');
  });

  it('loses a format half received and one read from the socket but not yet taken into the buffer', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 1, receiveBufferBytes: 1024 });
    const big = (n: number): string => label(n, `^FO10,300^FD${'x'.repeat(700)}^FS`);
    const client = await open(port);
    // The first format fills the buffer, so the second waits unread; the third is cut off.
    await client.send(big(1) + big(2) + '^XA^FO10,10^FDhalf');
    await expect.poll(() => printer.stats().readsPaused).toBeGreaterThan(0);

    await printer.powerCycle();

    const lost = printer.discarded();
    expect(lost.every((format) => format.reason === 'power-cycle')).toBe(true);
    expect(lost.map((format) => format.zpl).sort()).toEqual([big(1), big(2), '^XA^FO10,10^FDhalf'].sort());
    expect(printer.printed()).toEqual([]);
    expect((await client.closed).error?.code).toBe('ECONNRESET');
  });

  it('refuses connections while off and answers once it is back on', async () => {
    const { printer, port } = await startPrinter();
    const offs: string[] = [];
    printer.on('power', (state) => offs.push(state));
    const cycling = printer.powerCycle({ offMs: 400 });
    await expect.poll(() => printer.state().listening).toBe(false);
    expect(await connectionError(port)).toBe('ECONNREFUSED');
    expect(printer.state().poweredOn).toBe(false);
    await cycling;
    expect(offs).toEqual(['off', 'on']);
    const client = await open(port);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).paperOut).toBe(false);
  });

  it('restarts the power-on time taken from the injected clock', async () => {
    const clock = manualClock();
    const { printer, port } = await startPrinter({ now: clock.now });
    const client = await open(port);
    clock.advance(127_000);
    expect(await getvar(client, 'device.uptime')).toBe('0 days 00 hours 02 mins 07 secs');
    clock.advance(((2 * 24 + 3) * 3600 + 4 * 60) * 1000);
    expect(await getvar(client, 'device.uptime')).toBe('2 days 03 hours 06 mins 07 secs');

    await printer.powerCycle();
    clock.advance(5_000);
    const after = await open(port);
    expect(await getvar(after, 'device.uptime')).toBe('0 days 00 hours 00 mins 05 secs');
    expect(printer.state().poweredOnAt).toBe(clock.now() - 5_000);
  });

  it('reverts settings not saved with ^JUS and keeps the ones that were', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    expect(await getvar(client, 'print.tone')).toBe('15.0');
    await client.send('~SD25');
    expect(await getvar(client, 'print.tone')).toBe('25.0');
    await printer.powerCycle();

    const second = await open(port);
    expect(await getvar(second, 'print.tone')).toBe('15.0');
    // The way carrier labels persist their darkness: ~SD then ^JUS in the format.
    await second.send('^XA~SD28^JUS^FO10,10^FDsaved^FS^XZ');
    await printer.waitForLabels(1);
    await printer.powerCycle();

    const third = await open(port);
    expect(await getvar(third, 'print.tone')).toBe('28.0');
    expect(printer.configurationCommands().map((record) => record.command)).toEqual(['^JUS']);
  });

  it('keeps paper out, head open and ribbon out, and clears a pause', async () => {
    const { printer, port } = await startPrinter({ faults: { paperOut: true, headOpen: true, ribbonOut: true, paused: true } });
    await printer.powerCycle();
    expect(printer.faults()).toMatchObject({ paperOut: true, headOpen: true, ribbonOut: true, paused: false });
    const client = await open(port);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings))).toMatchObject({ paperOut: true, paused: false, headUp: true, ribbonOut: true });
  });

  it('forgets graphics downloaded to RAM (R:) and keeps those stored in flash (E:)', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    await client.send('~DGR:LOGO.GRF,4,1,FF00FF00~DGE:KEEP.GRF,2,1,FFFF');
    await expect.poll(() => printer.state().storedObjects).toEqual(['E:KEEP.GRF', 'R:LOGO.GRF']);
    await printer.powerCycle();
    expect(printer.state().storedObjects).toEqual(['E:KEEP.GRF']);
  });

  it('refuses to cycle a printer that was never started or is stopped', async () => {
    const { printer } = await startPrinter();
    await printer.stop();
    await expect(printer.powerCycle()).rejects.toThrow(/not running/);
    await expect(printer.powerCycle({ offMs: -1 } as never)).rejects.toThrow();
  });
});

describe('another printer at the same address', () => {
  it('reports its own model, resolution, head width, serial and counter through ~HI and SGD', async () => {
    const { printer, port } = await startPrinter({ name: 'Bench 1', odometerStart: 500 });
    const client = await open(port);
    const oldSerial = await getvar(client, 'device.unique_id');
    expect(oldSerial).toMatch(/^VZ\d{10}$/);
    expect(await identification(client)).toBe('\x02ZD421-203dpi,V84.20.18Z,8,8176KB\x03\r\n');
    await client.send('^XA~SD22^FO10,10^FDfirst^FS^XZ');
    await printer.waitForLabels(1);

    await printer.replaceWith({ model: 'ZT411-300dpi', dpi: 300, printWidthDots: 1248, odometerStart: 7 });

    expect((await client.closed).error?.code).toBe('ECONNRESET');
    const after = await open(port);
    expect(await identification(after)).toBe('\x02ZT411-300dpi,V84.20.18Z,12,8176KB\x03\r\n');
    expect(await getvar(after, 'head.resolution.in_dpi')).toBe('300');
    expect(await getvar(after, 'ezpl.print_width')).toBe('1248');
    expect(await getvar(after, 'device.product_name')).toBe('ZT411');
    expect(await getvar(after, 'odometer.total_label_count')).toBe('7');
    expect(await getvar(after, 'print.tone')).toBe('15.0');
    const newSerial = await getvar(after, 'device.unique_id');
    expect(newSerial).toMatch(/^VZ\d{10}$/);
    expect(newSerial).not.toBe(oldSerial);
  });

  it('takes a given serial, derives the model from a new dpi, and starts with an empty buffer', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 2 });
    const client = await open(port);
    await client.send(label(1) + label(2));
    await expect.poll(() => printer.state().status.formatsInBuffer).toBe(2);
    await printer.replaceWith({ dpi: 600, serial: 'XXRBJ1234567' });
    expect(printer.discarded().map((format) => format.zpl)).toEqual([label(1), label(2)]);
    const after = await open(port);
    expect(await getvar(after, 'device.unique_id')).toBe('XXRBJ1234567');
    expect(await identification(after)).toContain('ZD421-600dpi,');
    expect(parseHostStatus(await after.ask('~HS', threeStatusStrings)).formatsInBuffer).toBe(0);
  });

  it('prints ZPL dots at its own resolution: the same label renders on 203 and 300 dpi paper', async () => {
    const { printer, port } = await startPrinter({ printWidthDots: 812 });
    const client = await open(port);
    const fourBySix = '^XA^PW812^LL1218^FO50,50^GB400,400,400^FS^XZ';
    await client.send(fourBySix);
    await printer.waitForLabels(1);
    await printer.replaceWith({ dpi: 300, printWidthDots: 1200 });
    const after = await open(port);
    await after.send(fourBySix);
    await printer.waitForLabels(2);

    const size = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
    // Paper as wide as each head (812 and 1200 dots) and 1218 dots long: the 300 dpi printer
    // prints the same dots on paper two thirds as long.
    expect(size(await printer.renderPng(0))).toEqual({ width: 812, height: 1218 });
    expect(size(await printer.renderPng(1))).toEqual({ width: 1200, height: 1218 });
  });
});
