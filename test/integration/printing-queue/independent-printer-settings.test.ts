/**
 * `packing-station printers settings|calibrate|config-label`, in a process of its own, against a
 * Zebra written for this test from Zebra's documentation (test/support/independent-zebra.ts), not
 * the project's virtual Zebra: the settings read as that printer reports them over SGD (and from
 * ^HH where its firmware answers "?"), each change sent with the documented command and read back,
 * saved only when asked; calibration waits for the feed and measures the roll; the roll is judged
 * against A6 at 203 and 300 dpi; messy answers (LF only, padded quotes, CR LF after the quotes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrinterData, PrinterSettingsChangeData, PrinterSettingsData, PrinterStatusData, RollFitData } from '../../../src/shared/contract/printers';
import type { PrintOutcomeData } from '../../../src/shared/contract/printing';
import type { RunningSandbox } from '../../../src/sandbox';
import { IndependentZebra, type IndependentZebraOptions } from '../../support/independent-zebra';
import { waitUntil } from '../../support/wait-until';
import { startCli } from './cli-process';
import { bundlesWithLabels, createPrintingStation, startTestSandbox, stationOrders, type PrintingStation } from './support';

describe('printer settings on a printer modelled from Zebra’s documentation', () => {
  let sandbox: RunningSandbox;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ orders: 300 });
  });

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await sandbox?.close();
  });

  async function bench(options: IndependentZebraOptions = {}, environment: 'sandbox' | 'test' = 'test'): Promise<{ zebra: IndependentZebra; station: PrintingStation; port: number }> {
    const zebra = new IndependentZebra({ labelMs: 20, ...options });
    const port = await zebra.start();
    const station = await createPrintingStation(sandbox, port, {}, {}, environment);
    cleanups.push(async () => {
      await station.dispose();
      await zebra.stop();
    });
    return { zebra, station, port };
  }

  async function cli(station: PrintingStation, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const run = startCli(sandbox, station.dataDir, args);
    const code = await run.exit;
    return { code, ...run.output };
  }

  it('reads every setting as the printer reports it over SGD', async () => {
    const { zebra, station } = await bench({ labelCountStart: 48_213, headCleanInches: 1200 });
    const read = await cli(station, ['printers', 'settings', station.printerId, '--json']);
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout) as PrinterSettingsData).toMatchObject({
      darkness: 15,
      speedIps: 4,
      mediaType: 'transfer',
      tracking: 'gap',
      printWidthDots: 832,
      // An A6 roll, 148 mm, as the printer measured it at power-up.
      labelLengthDots: 1183,
      dpi: 203,
      reprintAfterError: 'on',
      labelCount: 48_213,
      fromConfiguration: [],
      roll: { fits: true, issues: [] },
      head: { sinceCleanedInches: 1200, headInches: 11_200, cleanNow: false, faults: [] },
    });
    expect(zebra.commands, 'reading changes nothing').toEqual([]);
  });

  it('sends each change with the documented command, reads it back from the printer, and saves only with --save', async () => {
    const { zebra, station } = await bench();
    const changed = await cli(station, [
      'printers', 'settings', station.printerId,
      '--darkness', '23', '--speed', '5', '--media-type', 'direct', '--tracking', 'continuous', '--reprint-after-error', 'off',
      '--operator', 'Ida', '--json',
    ]);
    expect(changed.code, changed.stderr).toBe(0);
    const result = JSON.parse(changed.stdout) as PrinterSettingsChangeData;
    expect(result.changes.map(({ setting, sent, before, after }) => [setting, sent, before, after])).toEqual([
      ['darkness', '~SD23', 15, 23],
      ['speed', '^XA^PR5^XZ', 4, 5],
      ['mediaType', '^XA^MTD^XZ', 'transfer', 'direct'],
      ['tracking', '^XA^MNN^XZ', 'gap', 'continuous'],
      ['reprintAfterError', '^XA^JZN^XZ', 'on', 'off'],
    ]);
    // The printer itself: exactly those commands, in effect, not saved.
    expect(zebra.commands).toEqual(['~SD23', '^PR5', '^MTD', '^MNN', '^JZN']);
    expect(zebra.currentSettings).toMatchObject({ darkness: 23, speed: 5, method: 'D', tracking: 'N' });
    expect(zebra.reprintAfterError).toBe(false);
    expect(zebra.savedSettings).toMatchObject({ darkness: 15, speed: 4, method: 'T', tracking: 'Y' });

    // The mark tracking and the reprint switched back on, saved on purpose: ^JUS after them.
    const saved = await cli(station, ['printers', 'settings', station.printerId, '--tracking', 'mark', '--reprint-after-error', 'on', '--save', '--json']);
    expect(saved.code, saved.stderr).toBe(0);
    expect((JSON.parse(saved.stdout) as PrinterSettingsChangeData).changes.map(({ sent, after }) => [sent, after])).toEqual([
      ['^XA^MNM^XZ', 'mark'],
      ['^XA^JZY^XZ', 'on'],
      ['^XA^JUS^XZ', null],
    ]);
    expect(zebra.commands.slice(5)).toEqual(['^MNM', '^JZY', '^JUS']);
    // Switched off and on: the saved settings come back.
    zebra.restart();
    expect(zebra.currentSettings).toMatchObject({ darkness: 23, speed: 5, method: 'D', tracking: 'M' });
    const after = await station.call<PrinterSettingsData>('printers.settings', { id: station.printerId });
    expect(after).toMatchObject({ darkness: 23, speedIps: 5, mediaType: 'direct', tracking: 'mark', reprintAfterError: 'on' });

    // The printhead cleaned: the documented SGD setvar, and the printer's count starts again.
    zebra.headCleanInches = 3100;
    const cleaned = await cli(station, ['printers', 'settings', station.printerId, '--head-cleaned', '--json']);
    expect(cleaned.code, cleaned.stderr).toBe(0);
    expect((JSON.parse(cleaned.stdout) as PrinterSettingsChangeData).changes).toEqual([
      { setting: 'headCleaned', sent: '! U1 setvar "odometer.headclean" "0"\r\n', before: 3100, after: 0 },
    ]);
    expect(zebra.commands.at(-1)).toBe('setvar odometer.headclean 0');
  });

  it('calibrates (~JC), waits while the printer feeds, and then says the 100 × 100 mm roll it measured is shorter than A6', async () => {
    // The printer measured an A6 roll at power-up; the roll loaded since is 100 mm long.
    const { zebra, station } = await bench({ calibrationLabels: 3, labelMs: 250 });
    zebra.rollLengthDots = 800;
    const before = await station.call<PrinterSettingsData>('printers.settings', { id: station.printerId });
    expect(before).toMatchObject({ labelLengthDots: 1183, roll: { fits: true } });
    const calibrated = await cli(station, ['printers', 'calibrate', station.printerId, '--json']);
    expect(calibrated.code, calibrated.stderr).toBe(0);
    const result = JSON.parse(calibrated.stdout) as { labelLengthAfter: number; roll: RollFitData; tookMs: number };
    expect(zebra.commands).toEqual(['~JC']);
    // Three blank labels at 250 ms each: the station waited for them.
    expect(result.tookMs).toBeGreaterThanOrEqual(700);
    expect(result.labelLengthAfter).toBe(800);
    expect(result.roll).toMatchObject({ fits: false, issues: [{ issue: 'too-short', printerDots: 800, labelDots: 1184 }] });
    expect(zebra.out, 'a calibration prints no label').toEqual([]);

    const label = await cli(station, ['printers', 'config-label', station.printerId]);
    expect(label.code, label.stderr).toBe(0);
    expect(zebra.commands.at(-1)).toBe('~WC');
    await waitUntil(() => zebra.out.length === 1, 'the configuration label out');
    expect(zebra.out[0]?.format).toMatch(/REPRINT MODE/);
  });

  it('reads the settings from ^HH where the firmware answers "?" to getvar, through LF-only lines, padded quotes and CR LF after them', async () => {
    const { station } = await bench({
      lineEnd: '\n',
      sgdPadding: true,
      sgdTrailer: '\r\n',
      unknownVariables: ['print.tone', 'media.speed', 'ezpl.print_method', 'ezpl.media_type', 'ezpl.reprint_mode', 'odometer.headclean', 'odometer.headnew'],
      headCleanInches: 3200,
    });
    const settings = await station.call<PrinterSettingsData>('printers.settings', { id: station.printerId });
    expect(settings).toMatchObject({
      darkness: 15,
      speedIps: 4,
      mediaType: 'transfer',
      tracking: 'gap',
      printWidthDots: 832,
      labelLengthDots: 1183,
      dpi: 203,
      reprintAfterError: 'on',
      roll: { fits: true },
    });
    expect([...settings.fromConfiguration].sort()).toEqual(['darkness', 'mediaType', 'reprintAfterError', 'speedIps', 'tracking']);
    // No printhead lengths over SGD, and no answer to ~HQPH: the printer's own "clean printhead" warning (~HQES) still says it is time.
    expect(settings.head).toMatchObject({ sinceCleanedInches: null, cleanNow: true, faults: [] });
    const status = await station.call<PrinterStatusData>('printers.status', { id: station.printerId });
    expect(status.faults).toEqual([]);
  });

  it('firmware that answers "?" for head.resolution.in_dpi and zpl.label_length: the resolution from ~HI, the label length from ^HH, and a 100 × 100 mm roll is still called too short, in the settings and the status', async () => {
    const { zebra, station } = await bench({ rollLengthDots: 800, unknownVariables: ['head.resolution.in_dpi', 'zpl.label_length'] });
    const settings = await station.call<PrinterSettingsData>('printers.settings', { id: station.printerId });
    expect(settings).toMatchObject({ dpi: 203, labelLengthDots: 800, roll: { fits: false, issues: [{ issue: 'too-short', printerDots: 800, labelDots: 1184 }] } });
    expect(settings.fromConfiguration).toEqual(['labelLengthDots']);
    // A new connection: the roll is read again, as at every connect.
    zebra.restart();
    const status = await station.call<PrinterStatusData>('printers.status', { id: station.printerId });
    expect(status.roll).toMatchObject({ fits: false, issues: [{ issue: 'too-short', printerDots: 800 }] });
  });

  it('a 4 × 6 in roll on a 203 dpi printer whose print width is set to the roll: too narrow for A6, on the status and before a run, which sends nothing', async () => {
    const { zebra, station } = await bench({ printWidthDots: 812, rollLengthDots: 1218 }, 'sandbox');
    const status = await station.call<PrinterStatusData>('printers.status', { id: station.printerId });
    expect(status.roll).toMatchObject({ fits: false, issues: [{ issue: 'too-narrow', printerDots: 812, labelDots: 832 }] });
    const { bundleIds } = bundlesWithLabels(await stationOrders(sandbox), 2);
    const refused = await station.call('printing.printBundles', { bundleIds }).catch((error: { data?: unknown }) => error.data);
    expect(refused).toMatchObject({ code: 'CONFLICT', facts: { subject: 'roll-does-not-fit', issue: 'too-narrow' } });
    expect(zebra.received, 'no label was sent').not.toMatch(/\^XA/);
  });

  it('a 300 dpi printer whose head is 104 mm (1229 dots): A6 labels go as a 300 dpi image and its A6 roll fits; a 100 × 100 mm roll there is too short', async () => {
    const { zebra, station, port } = await bench({ dpi: 300, headDots: 1229 }, 'sandbox');
    const added = await station.call<{ printer: PrinterData }>('printers.add', {
      name: 'Bench 300',
      address: { kind: 'network-zebra', host: '127.0.0.1', port },
      defaultForSingle: true,
    });
    expect(added.printer.route).toMatchObject({ kind: 'raster', dpi: 300 });
    const order = (await stationOrders(sandbox)).find((candidate) => candidate.zplAvailable && candidate.status === 'draft');
    const outcome = await station.call<PrintOutcomeData>('printing.print', { scan: order?.orderRef });
    expect(outcome.outcome).toBe('printed');
    await waitUntil(() => zebra.out.length === 1, 'the label out');
    expect(zebra.out[0]?.format).toContain('^PW1229^LL1748');
    // The scan holds the printer until its label is proven printed; then the printer is asked itself.
    await waitUntil(async () => (await station.call<PrinterStatusData>('printers.status', { id: added.printer.id })).source === 'printer', 'the printer free again', 10_000, 50);
    const settings = await station.call<PrinterSettingsData>('printers.settings', { id: added.printer.id });
    expect(settings).toMatchObject({ dpi: 300, printWidthDots: 1229, labelLengthDots: 1748, roll: { fits: true, issues: [] } });
    const status = await station.call<PrinterStatusData>('printers.status', { id: added.printer.id });
    expect(status.roll).toMatchObject({ fits: true, issues: [] });

    // A 100 × 100 mm roll loaded and calibrated: 1181 dots at 300 dpi.
    zebra.rollLengthDots = 1181;
    const calibrated = await station.call<{ roll: RollFitData }>('printers.calibrate', { id: added.printer.id });
    expect(calibrated.roll).toMatchObject({ fits: false, issues: [{ issue: 'too-short', printerDots: 1181, labelDots: 1748, labelMm: 148 }] });
  });
});
