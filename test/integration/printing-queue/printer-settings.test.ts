/**
 * Printer settings read and set on purpose, through the CLI in a process of its own (and the
 * contract), against a virtual Zebra over TCP: what the printer reports, only the settings named
 * changed with its own commands and read back, the change journaled, saved only on --save;
 * calibration waits for the printer and measures the roll; the configuration label prints; none of
 * it while a run holds the printer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrinterSettingsChangeData, PrinterSettingsData, PrinterStatusData, RollFitData } from '../../../src/shared/contract/printers';
import type { RunSummaryData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import type { VirtualZebra, VirtualZebraOptions } from '../../../src/sandbox/printer';
import { waitUntil } from '../../support/wait-until';
import { startCli } from './cli-process';
import { bundlesWithLabels, createPrintingStation, startTestSandbox, startZebra, stationOrders, type PrintingStation } from './support';

describe('printer settings, set on purpose', () => {
  let sandbox: RunningSandbox;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 600 });
  });

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await sandbox?.close();
  });

  async function bench(options: VirtualZebraOptions = {}, environment: 'sandbox' | 'test' = 'test'): Promise<{ zebra: VirtualZebra; station: PrintingStation }> {
    const { zebra, port } = await startZebra({ labelsPerSecond: 50, ...options });
    const station = await createPrintingStation(sandbox, port, {}, {}, environment);
    cleanups.push(async () => {
      await station.dispose();
      await zebra.stop();
    });
    return { zebra, station };
  }

  async function cli(station: PrintingStation, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const run = startCli(sandbox, station.dataDir, args);
    const code = await run.exit;
    return { code, ...run.output };
  }

  /** Everything the printer read, as text. */
  const receivedText = (zebra: VirtualZebra): string => zebra.received().map((connection) => connection.bytes.toString('latin1')).join('');

  it('reads the settings as the printer reports them', async () => {
    const { zebra, station } = await bench({ headCleanInchesStart: 120, headNewInchesStart: 5000 });
    const read = await cli(station, ['printers', 'settings', station.printerId, '--json']);
    expect(read.code, read.stderr).toBe(0);
    const settings = JSON.parse(read.stdout) as PrinterSettingsData;
    expect(settings).toMatchObject({
      darkness: 15,
      speedIps: 4,
      mediaType: 'transfer',
      tracking: 'gap',
      printWidthDots: 832,
      labelLengthDots: 1184,
      dpi: 203,
      reprintAfterError: 'on',
      labelCount: zebra.state().odometer,
      fromConfiguration: [],
      roll: { fits: true, issues: [] },
      head: { sinceCleanedInches: 120, headInches: 5000, cleanNow: false, faults: [] },
    });
    // The words a person reads.
    const words = await cli(station, ['printers', 'settings', station.printerId]);
    expect(words.stdout).toMatch(/reprint after error on/);
    expect(words.stdout).toMatch(/print speed\s+4 in\/s/);
  });

  it('changes only what is named, with the printer’s own commands, reads it back, journals it, and keeps it only when saved', async () => {
    const { zebra, station } = await bench();
    const changed = await cli(station, [
      'printers', 'settings', station.printerId,
      '--darkness', '22', '--speed', '3', '--media-type', 'direct', '--tracking', 'mark', '--reprint-after-error', 'off',
      '--operator', 'Ana', '--json',
    ]);
    expect(changed.code, changed.stderr).toBe(0);
    const result = JSON.parse(changed.stdout) as PrinterSettingsChangeData;
    expect(result.changes.map(({ setting, sent, before, after }) => [setting, sent, before, after])).toEqual([
      ['darkness', '~SD22', 15, 22],
      ['speed', '^XA^PR3^XZ', 4, 3],
      ['mediaType', '^XA^MTD^XZ', 'transfer', 'direct'],
      ['tracking', '^XA^MNM^XZ', 'gap', 'mark'],
      ['reprintAfterError', '^XA^JZN^XZ', 'on', 'off'],
    ]);
    expect(result).toMatchObject({ saved: false, operator: 'Ana' });
    // The printer itself: changed, not saved, and it read exactly those commands.
    expect(zebra.state().settings).toMatchObject({ darkness: 22, speedIps: 3, printMethod: 'direct thermal', mediaTracking: 'mark' });
    expect(zebra.state().reprintAfterError).toBe(false);
    expect(zebra.state().savedSettings).toMatchObject({ darkness: 15, speedIps: 4 });
    const sent = receivedText(zebra);
    for (const bytes of ['~SD22', '^XA^PR3^XZ', '^XA^MTD^XZ', '^XA^MNM^XZ', '^XA^JZN^XZ']) expect(sent).toContain(bytes);
    expect(sent).not.toContain('^JUS');
    expect(zebra.configurationCommands()).toEqual([]);

    // Switched off and on: back to what was saved.
    await zebra.powerCycle();
    expect(zebra.state().settings).toMatchObject({ darkness: 15, speedIps: 4, printMethod: 'thermal transfer' });

    // Saved on purpose: it outlives the restart.
    const saved = await cli(station, ['printers', 'settings', station.printerId, '--darkness', '24', '--save', '--operator', 'Ben']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toMatch(/darkness: 15 → 24 {2}\(sent "~SD24"\)/);
    expect(saved.stdout).toMatch(/Saved as the printer’s power-on settings/);
    expect(zebra.configurationCommands().map((record) => record.command)).toEqual(['^JUS']);
    await zebra.powerCycle();
    expect(zebra.state().settings.darkness).toBe(24);

    // The journal: who changed what, newest first.
    const journal = await station.call<{ changes: { operator: string; saved: boolean; changes: { setting: string; sent: string }[] }[] }>('printers.settingChanges', { id: station.printerId });
    expect(journal.changes.map((entry) => [entry.operator, entry.saved, entry.changes.map((change) => change.sent)])).toEqual([
      ['Ben', true, ['~SD24', '^XA^JUS^XZ']],
      ['Ana', false, ['~SD22', '^XA^PR3^XZ', '^XA^MTD^XZ', '^XA^MNM^XZ', '^XA^JZN^XZ']],
    ]);
  });

  it('calibrates and waits for the printer, then says the 100 × 100 mm roll is shorter than the label', async () => {
    const { zebra, station } = await bench({ labelsPerSecond: 5, labelLengthDots: 800, calibrationLabels: 3 });
    // The printer last printed an A6 label: it reports the label's length until it measures the roll.
    const calibrated = await cli(station, ['printers', 'calibrate', station.printerId, '--json']);
    expect(calibrated.code, calibrated.stderr).toBe(0);
    const result = JSON.parse(calibrated.stdout) as { labelLengthBefore: number; labelLengthAfter: number; roll: RollFitData; tookMs: number };
    // Three labels' feed at five a second.
    expect(result.tookMs).toBeGreaterThanOrEqual(550);
    expect(result.labelLengthAfter).toBe(800);
    expect(result.roll).toMatchObject({ fits: false, issues: [{ issue: 'too-short', printerDots: 800, labelDots: 1184 }] });
    expect(zebra.state().calibrating).toBe(false);
    const words = await cli(station, ['printers', 'settings', station.printerId]);
    expect(words.stderr).toMatch(/The roll does not fit the label\. The labels on the roll are 800 dots \(100\.1 mm\) long; the label needs 1184 \(148 mm\)/);
  });

  it('says before a shift-start run, and in printers status (its words and --json), that a 100 × 100 mm roll will not fit; the run starts only when told to', async () => {
    const { zebra, station } = await bench({ labelLengthDots: 800 }, 'sandbox');
    const status = await cli(station, ['printers', 'status', station.printerId, '--json']);
    expect((JSON.parse(status.stdout) as PrinterStatusData).roll).toMatchObject({ fits: false, issues: [{ issue: 'too-short', printerMm: 100.1, labelMm: 148 }] });
    const words = await cli(station, ['printers', 'status', station.printerId]);
    expect(words.stderr).toMatch(/The roll does not fit the label\. The labels on the roll are 800 dots \(100\.1 mm\) long/);
    const { bundleIds } = bundlesWithLabels(await stationOrders(sandbox), 3);
    const refused = await station.call('printing.printBundles', { bundleIds }).catch((error: { data?: unknown }) => error.data);
    expect(refused).toMatchObject({ code: 'CONFLICT', facts: { subject: 'roll-does-not-fit', issue: 'too-short' } });
    expect(zebra.stats().formatsReceived, 'nothing was sent').toBe(0);
    const started = await station.call<RunSummaryData>('printing.printBundles', { bundleIds, acceptRoll: true });
    await station.waitForEvent('printing.finished', (finished) => finished.runId === started.runId, 60_000);
    expect(zebra.printed()).toHaveLength(3);
  });

  it('reminds the lead to clean the printhead after a roll’s length, and starts the count again once told it was cleaned, in the bench’s name when nobody is signed in', async () => {
    const { zebra, station } = await bench({ headCleanInchesStart: 3000 });
    const due = await station.call<PrinterSettingsData>('printers.settings', { id: station.printerId });
    // One roll of 500 A6 labels is 2,972 inches.
    expect(due.head).toMatchObject({ sinceCleanedInches: 3000, cleanNow: true });
    const cleaned = await cli(station, ['printers', 'settings', station.printerId, '--head-cleaned', '--json']);
    expect(cleaned.code, cleaned.stderr).toBe(0);
    const result = JSON.parse(cleaned.stdout) as PrinterSettingsChangeData;
    expect(result.changes).toEqual([{ setting: 'headCleaned', sent: '! U1 setvar "odometer.headclean" "0"\r\n', before: 3000, after: 0 }]);
    expect(result.after.head).toMatchObject({ sinceCleanedInches: 0, cleanNow: false });
    expect(zebra.state().mediaInches.sinceHeadCleaned).toBe(0);
    const { stationName } = await station.call<{ stationName: string }>('settings.get', {});
    expect(result.operator).toBe(stationName);
  });

  it('names the printhead faults the printer reports, in its status and its settings', async () => {
    const { station } = await bench({ faults: { headTooCold: true, headElementBad: true } });
    const status = await station.call<PrinterStatusData>('printers.status', { id: station.printerId });
    expect(status.headFaults).toEqual(['too-cold', 'element-bad']);
    const words = await cli(station, ['printers', 'status', station.printerId]);
    expect(words.stderr).toMatch(/Printhead: too cold; labels may print light\.\n {2}Printhead: a printhead element is broken/);
    const settings = await station.call<PrinterSettingsData>('printers.settings', { id: station.printerId });
    expect(settings.head.faults).toEqual(['too-cold', 'element-bad']);
  });

  it('prints the configuration label', async () => {
    const { zebra, station } = await bench();
    const printed = await cli(station, ['printers', 'config-label', station.printerId]);
    expect(printed.code, printed.stderr).toBe(0);
    const [label] = await zebra.waitForLabels(1);
    expect(label?.zpl).toMatch(/PRINT SPEED/);
  });

  it('refuses while a run holds the printer, and sends it nothing', async () => {
    const { zebra, station } = await bench({ labelsPerSecond: 2 }, 'sandbox');
    const { bundleIds } = bundlesWithLabels(await stationOrders(sandbox), 8);
    const started = await station.call<RunSummaryData>('printing.printBundles', { bundleIds });
    await zebra.waitForLabels(1, 20_000);
    const refused = await station.call('printers.changeSettings', { id: station.printerId, darkness: 29, operator: 'Ana' }).catch((error: { data?: unknown }) => error.data);
    expect(refused).toMatchObject({ code: 'CONFLICT', facts: { subject: 'printer-in-use', id: started.runId } });
    expect(receivedText(zebra)).not.toContain('~SD29');
    zebra.setLabelsPerSecond(1000);
    await station.waitForEvent('printing.finished', (finished) => finished.runId === started.runId, 60_000);
    // The queue goes idle once the run's last label is proven printed: status then asks the printer itself.
    await waitUntil(async () => (await station.call<PrinterStatusData>('printers.status', { id: station.printerId })).source === 'printer', 'the printer free again', 10_000, 50);
    const after = await station.call<PrinterSettingsChangeData>('printers.changeSettings', { id: station.printerId, darkness: 29, operator: 'Ana' });
    expect(after.changes[0]).toMatchObject({ sent: '~SD29', after: 29 });
  });
});
