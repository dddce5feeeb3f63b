/**
 * Printer settings read and set on purpose (docs/printing.md, "Printer settings"): only what the
 * admin names changes, with the printer's own commands (settingsCommands), each confirmed by ~HS on
 * the same connection; the settings are read back and the change journaled with who, when, the
 * bytes sent and the values before and after. Calibration (~JC) waits until the printer is ready
 * again; the configuration label is ~WC. None of it while a run or a scan of any station process
 * holds the printer, nor while another bench drives it (its lease).
 */
import { z } from 'zod';
import type { Environment } from '../../../shared/contract/app';
import type { PrinterSettingsChangeData, PrinterSettingsData, SettingChangeData } from '../../../shared/contract/printers';
import { StationError } from '../../../shared/errors';
import { parseHostStatus } from '../../../shared/zebra/host-status';
import { calibrateCommand, configurationLabelCommand, headCleanedCommand, settingsCommands, type SettingsChange } from '../../../shared/zebra/printer-settings';
import { hostStatusQuery } from '../../../shared/zebra/queries';
import type { StoreEngine } from '../../store';
import type { PrinterRecord } from '../printers';
import type { PrintingCore } from '../printing-core';
import { canQuery, type StatusTransport } from '../transports/transport';
import { readPrinterSettings } from './read-settings';

export interface PrinterSettingsServiceDeps {
  printing: PrintingCore;
  /** Where the journal of changes is kept: the store the printers live in. */
  store: StoreEngine;
  stationName(): string;
  timeoutMs?: number;
  /** Longest wait for a calibration to end. */
  calibrationTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}

export interface ChangeRequest extends SettingsChange {
  save?: boolean;
  headCleaned?: boolean;
  operator: string;
}

const ChangeRowSchema = z.object({
  id: z.coerce.number().int(),
  printer_id: z.string(),
  printer_name: z.string(),
  operator: z.string(),
  station_name: z.string(),
  changed_at: z.string(),
  changes: z.string(),
  saved: z.coerce.number().int(),
});
const ChangesSchema = z.array(
  z.object({
    setting: z.enum(['darkness', 'speed', 'mediaType', 'tracking', 'reprintAfterError', 'save', 'headCleaned']),
    sent: z.string(),
    before: z.union([z.string(), z.number(), z.null()]),
    after: z.union([z.string(), z.number(), z.null()]),
  }),
);

const encoder = new TextEncoder();
const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class PrinterSettingsService {
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly deps: PrinterSettingsServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.sleep = deps.sleep ?? defaultSleep;
  }

  async read(environment: Environment, id: string): Promise<PrinterSettingsData> {
    const { printer, transport } = await this.free(environment, id);
    return this.readFrom(printer, transport);
  }

  async change(environment: Environment, id: string, request: ChangeRequest): Promise<PrinterSettingsChangeData> {
    const { printer, transport } = await this.free(environment, id);
    const before = await this.readFrom(printer, transport);
    const commands = settingsCommands(request, request.save === true);
    if (request.headCleaned) commands.push({ setting: 'headCleaned' as never, bytes: headCleanedCommand });
    if (commands.length === 0) throw new StationError('INVALID_INPUT', 'Name at least one setting to change.', undefined, { facts: { subject: 'no-setting' } });
    // Each command on the same connection, confirmed by ~HS: the printer has read it before the next.
    for (const command of commands) await transport.send(encoder.encode(command.bytes), { confirm: true, jobName: `settings ${command.setting}` });
    const after = await this.readFrom(printer, transport);
    const changes: SettingChangeData[] = commands.map((command) => ({
      setting: command.setting as SettingChangeData['setting'],
      sent: command.bytes,
      before: valueOf(before, command.setting),
      after: valueOf(after, command.setting),
    }));
    const at = this.now().toISOString();
    const saved = request.save === true;
    const [row] = await this.deps.store.query(
      `INSERT INTO printer_setting_changes (environment, printer_id, printer_name, operator, station_name, changed_at, changes, saved)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [environment, printer.id, printer.name, request.operator, this.deps.stationName(), at, JSON.stringify(changes), saved ? 1 : 0],
    );
    const changeId = z.object({ id: z.coerce.number().int() }).parse(row).id;
    return { changeId, changes, saved, before, after, operator: request.operator, at };
  }

  /** ~JC, then a format that prints nothing: it leaves the buffer once the calibration is over. */
  async calibrate(environment: Environment, id: string): Promise<{ labelLengthBefore: number | null; labelLengthAfter: number | null; roll: PrinterSettingsData['roll']; tookMs: number }> {
    const { printer, transport } = await this.free(environment, id);
    const before = await this.readFrom(printer, transport);
    const started = Date.now();
    await transport.send(encoder.encode(`${calibrateCommand}^XA^FXcalibrated^FS^XZ`), { confirm: true, jobName: 'calibrate' });
    const limit = this.deps.calibrationTimeoutMs ?? 60_000;
    for (;;) {
      const status = parseHostStatus(await transport.query(hostStatusQuery, this.limits()));
      const stopped = status.paperOut || status.headOpen || status.ribbonOut;
      if (status.formatsInBuffer === 0 && !stopped) break;
      if (Date.now() - started > limit) {
        throw new StationError('PRINTER_ERROR', `The printer did not finish calibrating within ${Math.round(limit / 1000)} s${stopped ? ': it reports a fault' : ''}.`, undefined, { facts: { subject: 'calibration' } });
      }
      await this.sleep(200);
    }
    const after = await this.readFrom(printer, transport);
    return { labelLengthBefore: before.labelLengthDots, labelLengthAfter: after.labelLengthDots, roll: after.roll, tookMs: Date.now() - started };
  }

  async configurationLabel(environment: Environment, id: string): Promise<{ sent: '~WC' }> {
    const { transport } = await this.free(environment, id);
    await transport.send(encoder.encode(configurationLabelCommand), { confirm: true, jobName: 'configuration label' });
    return { sent: '~WC' };
  }

  async changesOf(environment: Environment, id: string, limit = 50) {
    const rows = await this.deps.store.query(
      `SELECT id, printer_id, printer_name, operator, station_name, changed_at, changes, saved FROM printer_setting_changes
       WHERE environment = $1 AND printer_id = $2 ORDER BY id DESC LIMIT $3`,
      [environment, id, limit],
    );
    return rows.map((raw) => {
      const row = ChangeRowSchema.parse(raw);
      return {
        changeId: row.id,
        printerId: row.printer_id,
        printerName: row.printer_name,
        operator: row.operator,
        stationName: row.station_name,
        at: row.changed_at,
        saved: row.saved === 1,
        changes: ChangesSchema.parse(JSON.parse(row.changes)),
      };
    });
  }

  private limits(): { timeoutMs?: number } {
    return this.deps.timeoutMs !== undefined ? { timeoutMs: this.deps.timeoutMs } : {};
  }

  /** Everything the printer reports; the roll it read is kept as the roll on this connection. */
  private async readFrom(printer: PrinterRecord, transport: StatusTransport): Promise<PrinterSettingsData> {
    const settings = { printerId: printer.id, ...(await readPrinterSettings(transport, { ...this.limits(), now: this.now })) };
    this.deps.printing.service.rolls.record(printer, settings.roll, settings.readAt);
    return settings;
  }

  /**
   * The printer, when nothing else holds it: no run or scan of this process on its queue, no run
   * of another station process, and (on a shared store) this bench's lease. CONFLICT with subject
   * printer-in-use otherwise, naming the run.
   */
  private async free(environment: Environment, id: string): Promise<{ printer: PrinterRecord; transport: StatusTransport }> {
    const { printers, service, transports } = this.deps.printing;
    const printer = await printers.require(environment, id);
    const transport = transports.forPrinter(printer.address);
    if (!canQuery(transport)) {
      throw new StationError('NOT_CONFIGURED', `${printer.name} is reached through a print queue: the station cannot ask it for its settings. Use the printer's own menu or its driver.`, undefined, { facts: { subject: 'printer-not-askable', printerName: printer.name } });
    }
    const busyHere = !service.queueFor(printer).idle;
    const elsewhere = busyHere ? null : ((await service.runsHoldingPrinterElsewhere(environment, printer))[0] ?? null);
    if (busyHere || elsewhere) {
      const run = busyHere ? ((await service.runsOn(environment, printer))[0] ?? null) : elsewhere;
      throw new StationError(
        'CONFLICT',
        `${printer.name} is printing${run ? ` (print run ${run.id})` : ''}: its settings are not read or changed while a run or a scan holds it. Try again once it has finished, or pause the run first.`,
        undefined,
        { facts: { subject: 'printer-in-use', printerName: printer.name, ...(run ? { id: run.id } : {}) } },
      );
    }
    await service.claimPrinter(printer);
    return { printer, transport };
  }
}

/** A setting's value as the settings report gives it, for "before → after". */
function valueOf(settings: PrinterSettingsData, setting: string): string | number | null {
  switch (setting) {
    case 'darkness':
      return settings.darkness;
    case 'speed':
      return settings.speedIps;
    case 'mediaType':
      return settings.mediaType;
    case 'tracking':
      return settings.tracking;
    case 'reprintAfterError':
      return settings.reprintAfterError;
    case 'headCleaned':
      return settings.head.sinceCleanedInches;
    default:
      return null;
  }
}
