import type { Environment } from '../../shared/contract/app';
import type { PrinterCheckData, PrinterStatusData } from '../../shared/contract/printers';
import { StationError } from '../../shared/errors';
import { printerFault } from '../../shared/zebra/faults';
import type { Handlers } from '../contract/dispatcher';
import { checkPrinter } from '../printing/check';
import type { PrinterRecord } from '../printing/printers';
import { stateName } from '../printing/queue/printer-queue';
import type { PrintingCore } from '../printing/runs/printing-core';
import { runTestPrint } from '../printing/runs/test-print';
import { readPrinterStatus } from '../printing/status/printer-status';
import { canQuery, PrinterTransportError } from '../printing/transports/transport';
import type { Logger } from '../logging/logger';
import type { StationSettings } from '../settings/station-settings';

export interface PrintersHandlerDeps {
  settings: StationSettings;
  printing: PrintingCore;
  /**
   * Readies the current environment's printers (on the sandbox: the virtual Zebra at its port of
   * this launch). Best effort for the list: a sandbox that cannot start leaves the list as it is.
   */
  prepare?(): Promise<void>;
  logger?: Logger;
  /** Longest wait for a printer's answers during a check or a status read. */
  statusTimeoutMs?: number;
}

type PrintersCallName =
  | 'printers.list'
  | 'printers.add'
  | 'printers.update'
  | 'printers.remove'
  | 'printers.status'
  | 'printers.check'
  | 'printers.test'
  | 'printers.osQueues'
  | 'printers.usbDevices';

export function printersHandlers({ settings, printing, prepare, logger, statusTimeoutMs = 3000 }: PrintersHandlerDeps): Pick<Handlers, PrintersCallName> {
  const { printers, service, transports } = printing;

  const ready = async (): Promise<void> => {
    await prepare?.().catch((error: unknown) => logger?.warn('the printers are used without readying the environment', { error }));
  };

  const check = async (environment: Environment, printer: PrinterRecord): Promise<PrinterCheckData> => {
    const transport = transports.forPrinter(printer.address);
    let data: PrinterCheckData;
    try {
      const result = await checkPrinter(transport, { timeoutMs: statusTimeoutMs });
      data = {
        checked: result.checked,
        passed: result.passed,
        model: result.identity?.model ?? null,
        firmware: result.identity?.firmware ?? null,
        dpi: result.identity?.dpi ?? null,
        printWidthDots: result.identity?.printWidthDots ?? null,
        warnings: result.warnings,
        faults: result.status?.faults ?? [],
      };
    } catch (error) {
      if (!(error instanceof PrinterTransportError)) throw error;
      data = {
        checked: false,
        passed: false,
        model: null,
        firmware: null,
        dpi: null,
        printWidthDots: null,
        warnings: [{ issue: 'unreachable', message: `${error.message} The printer is saved; check it again once it is on.` }],
        faults: [{ ...printerFault('offline'), message: error.message }],
      };
    }
    if (data.checked) {
      printers.recordCheck(environment, printer.id, {
        dpi: data.dpi,
        printWidthDots: data.printWidthDots,
        model: data.model,
        warnings: data.warnings.map((warning) => warning.message),
      });
    }
    return data;
  };

  return {
    'printers.list': async () => {
      await ready();
      return { printers: printers.list(settings.environment()) };
    },

    'printers.add': async (input) => {
      const environment = settings.environment();
      const added = printers.add(environment, input);
      const result = input.check === false ? null : await check(environment, added);
      return { printer: printers.require(environment, added.id), check: result };
    },

    'printers.update': (input) => {
      const updated = printers.update(settings.environment(), input);
      service.printerChanged(updated);
      return updated;
    },

    'printers.remove': ({ id }) => {
      const environment = settings.environment();
      if (service.journal.hasUnfinishedRuns(environment, id)) {
        throw new StationError('INVALID_INPUT', 'This printer has a print run that is not finished. Finish or cancel the run first.');
      }
      printers.remove(environment, id);
      return { removed: true as const };
    },

    'printers.status': async ({ id }): Promise<PrinterStatusData> => {
      await ready();
      const environment = settings.environment();
      const printer = printers.require(environment, id);
      const pending = service.pendingOn(printer);
      const queueFault = service.queueFor(printer).currentFault;
      const transport = transports.forPrinter(printer.address);
      const checkedAt = new Date().toISOString();
      if (!canQuery(transport)) {
        return {
          printerId: id,
          state: queueFault ? stateName(queueFault, pending > 0) : 'unknown',
          answered: false,
          faults: queueFault ? [queueFault] : [],
          formatsInBuffer: null,
          labelsPending: pending,
          checkedAt,
        };
      }
      try {
        const report = await readPrinterStatus(transport, { timeoutMs: statusTimeoutMs });
        return {
          printerId: id,
          state: stateName(report.faults[0] ?? null, pending > 0 || report.host.formatsInBuffer > 0),
          answered: true,
          faults: report.faults,
          formatsInBuffer: report.host.formatsInBuffer,
          labelsPending: pending,
          checkedAt,
        };
      } catch (error) {
        if (!(error instanceof PrinterTransportError)) throw error;
        const fault = { ...printerFault('offline'), message: error.message };
        return { printerId: id, state: 'offline', answered: false, faults: [fault], formatsInBuffer: null, labelsPending: pending, checkedAt };
      }
    },

    'printers.check': async ({ id }) => {
      await ready();
      const environment = settings.environment();
      return check(environment, printers.require(environment, id));
    },

    'printers.test': async ({ id }) => {
      await ready();
      const environment = settings.environment();
      const printer = printers.require(environment, id);
      const result = await runTestPrint(service, environment, printer, settings.operator(), settings.stationName());
      return { runId: result.runId, entryId: result.entry.id, barcode: result.barcode };
    },

    'printers.usbDevices': async () => {
      try {
        const found = await transports.listUsbZebras();
        return { devices: found.map((device) => ({ serialNumber: device.serialNumber, productId: device.productId, product: device.productName })) };
      } catch (error) {
        // No USB stack, no access to it, or the native module missing: for the form that is "none found".
        logger?.info('no USB devices could be listed', { error });
        return { devices: [] };
      }
    },

    'printers.osQueues': async () => {
      try {
        return { queues: await transports.listOsQueues() };
      } catch (error) {
        if (error instanceof StationError) throw error;
        throw new StationError('NOT_CONFIGURED', `The print queues of this computer could not be listed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
