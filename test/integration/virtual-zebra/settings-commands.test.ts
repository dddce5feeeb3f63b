// The settings a bench admin changes on purpose, over the raw port as a host sends them: ZPL and
// SGD change the same setting and both read it back; only ^JUS makes a change outlive a restart;
// ~JC measures the roll and takes its time; ~WC prints the configuration label and ^HH returns it;
// ~HQOD and ~HQPH report the media run through; head faults show in ~HS and ~HQES.
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../../support/wait-until';
import { label, parseErrors, parseHostStatus, quotedValue, threeStatusStrings, type RawClient } from './raw-client';
import { usePrinters } from './printer-fixture';

const { startPrinter, open } = usePrinters();

const getvar = (client: RawClient, name: string): Promise<string> =>
  client.ask(`! U1 getvar "${name}"\r\n`, quotedValue).then((reply) => reply.slice(1, -1));
const framed = (reply: string): boolean => reply.includes('\x03');

describe('settings set on purpose', () => {
  it('reads back through SGD what ZPL set, and through ZPL what SGD set', async () => {
    const { port } = await startPrinter();
    const client = await open(port);
    expect(await getvar(client, 'print.tone')).toBe('15.0');
    expect(await getvar(client, 'media.speed')).toBe('4.0');
    expect(await getvar(client, 'ezpl.print_method')).toBe('thermal trans');
    expect(await getvar(client, 'ezpl.media_type')).toBe('gap/notch');
    expect(await getvar(client, 'ezpl.reprint_mode')).toBe('on');

    await client.send('~SD22\r\n^XA^PR3^MTD^MNM^JZN^XZ');
    expect(await getvar(client, 'print.tone')).toBe('22.0');
    expect(await getvar(client, 'media.speed')).toBe('3.0');
    expect(await getvar(client, 'ezpl.print_method')).toBe('direct thermal');
    expect(await getvar(client, 'ezpl.media_type')).toBe('mark');
    expect(await getvar(client, 'ezpl.reprint_mode')).toBe('off');
    // ~HS string 2, q: thermal transfer mode, now off.
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).thermalTransfer).toBe(false);

    await client.send('! U1 setvar "ezpl.media_type" "continuous"\r\n! U1 setvar "media.speed" "9"\r\n! U1 setvar "ezpl.reprint_mode" "on"\r\n');
    const config = await client.ask('^XA^HH^XZ', framed);
    expect(config).toMatch(/CONTINUOUS\s+MEDIA TYPE/);
    // A speed beyond what the printer can do is its fastest.
    expect(config).toMatch(/6\.0 IPS\s+PRINT SPEED/);
    expect(config).toMatch(/DIRECT-THERMAL\s+PRINT METHOD/);
    expect(config).toMatch(/ENABLED\s+REPRINT MODE/);
    expect(config).toMatch(/22\.0\s+DARKNESS/);
  });

  it('a settings-only format prints nothing', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    await client.send(`^XA^PR2^XZ${label(1)}`);
    await printer.waitForLabels(1);
    expect(printer.printed().map((printed) => printed.zpl)).toEqual([label(1)]);
    expect(printer.stats().formatsPrinted).toBe(2);
    expect(printer.state().odometer).toBe(1);
  });

  it('keeps across a restart only what ^JUS saved', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    await client.send('^XA^PR2^MTD^XZ^XA^JUS^XZ^XA^PR5^MNN^XZ');
    expect(await getvar(client, 'media.speed')).toBe('5.0');
    await printer.powerCycle();
    const after = await open(port);
    expect(await getvar(after, 'media.speed')).toBe('2.0');
    expect(await getvar(after, 'ezpl.print_method')).toBe('direct thermal');
    expect(await getvar(after, 'ezpl.media_type')).toBe('gap/notch');
    // ^JZ is not a saved setting: Y at every power-up.
    expect(await getvar(after, 'ezpl.reprint_mode')).toBe('on');
  });
});

describe('calibration and the configuration label', () => {
  it('~JC feeds blank labels for a while, formats wait behind it, and the roll’s label length is measured', async () => {
    // A 100 × 100 mm roll (800 dots at 203 dpi) in a printer that last printed an A6 label.
    const { printer, port } = await startPrinter({ labelsPerSecond: 10, labelLengthDots: 800, calibrationLabels: 3 });
    const client = await open(port);
    await client.send(label(1));
    await printer.waitForLabels(1);
    expect(await getvar(client, 'zpl.label_length')).toBe('1184');

    const started = Date.now();
    await client.send(`~JC${label(2)}`);
    await waitUntil(() => printer.state().calibrating, 'the calibration to start', 2000, 1);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).formatsInBuffer).toBe(1);
    await printer.waitForLabels(2);
    // Three labels' feed at 10 a second, before label 2.
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(printer.state().calibrating).toBe(false);
    // Feeds are media run through, not labels counted.
    expect(printer.state().odometer).toBe(2);
    expect(await getvar(client, 'zpl.label_length')).toBe('1184');
    // Label 2 set ^LL1184 again; a calibration on its own leaves the measured length.
    const calibrated = new Promise((resolve) => printer.once('calibrated', resolve));
    await client.send('~JC');
    expect(await calibrated).toEqual({ labelLengthDots: 800 });
    expect(await getvar(client, 'zpl.label_length')).toBe('800');
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).labelLength).toBe(800);
  });

  it('~WC prints the configuration label when idle; it is not counted as a label', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    await client.send('~WC');
    const [configuration] = await printer.waitForLabels(1);
    expect(configuration?.zpl).toMatch(/DARKNESS/);
    expect(configuration?.zpl).toMatch(/LABEL LENGTH/);
    expect(printer.state().odometer).toBe(0);
    expect(parseHostStatus(await client.ask('~HS', threeStatusStrings)).formatsInBuffer).toBe(0);
  });

  it('~WC while a label prints is ignored, as the guide says it works only when idle', async () => {
    const { printer, port } = await startPrinter({ labelsPerSecond: 5 });
    const client = await open(port);
    await client.send(`${label(1)}~WC`);
    await printer.waitForLabels(1);
    await expect.poll(() => printer.state().status.formatsInBuffer).toBe(0);
    expect(printer.printed()).toHaveLength(1);
  });
});

describe('the printhead', () => {
  it('reports the media run through since the head was cleaned and since it was new, and resets the first on setvar "0"', async () => {
    const { printer, port } = await startPrinter({ headCleanInchesStart: 2900, headNewInchesStart: 40_000 });
    const client = await open(port);
    await client.send(label(1));
    await printer.waitForLabels(1);
    // An A6 label is 1184 dots: 5 inches at 203 dpi.
    expect(await getvar(client, 'odometer.headclean')).toBe('2905 INCHES, 7380 CENTIMETERS');
    expect(await getvar(client, 'odometer.headnew')).toMatch(/^40005 INCHES/);
    expect(await client.ask('~HQPH', framed)).toMatch(/LAST CLEANED:\s+2905 "[\s\S]*1:\s+40005 "/);
    expect(await client.ask('~HQOD', framed)).toMatch(/TOTAL NONRESETTABLE:\s+5 "/);
    await client.send('! U1 setvar "odometer.headclean" "0"\r\n');
    expect(await getvar(client, 'odometer.headclean')).toBe('0 INCHES, 0 CENTIMETERS');
  });

  it('shows a head too hot in ~HS l and ~HQES, and holds printing until it cools', async () => {
    const { printer, port } = await startPrinter({ faults: { headTooHot: true, headElementBad: true } });
    const client = await open(port);
    const status = await client.ask('~HS', threeStatusStrings);
    expect(status.split('\x03\r\n')[0]?.split(',').slice(10)).toEqual(['0', '1']);
    expect(parseErrors(await client.ask('~HQES', framed)).group1).toBe(0x50);
    await client.send(label(1));
    await expect.poll(() => printer.stats().formatsReceived).toBe(1);
    expect(printer.printed()).toEqual([]);
    await printer.setFaults({ headTooHot: false });
    await printer.waitForLabels(1);
  });
});
