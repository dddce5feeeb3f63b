import type { Environment } from '../../shared/contract/app';
import type { PrinterCheckData, PrinterStatusData } from '../../shared/contract/printers';
import { StationError } from '../../shared/errors';
import { printerFault } from '../../shared/zebra/faults';
import type { PrinterAddress } from '../../shared/zebra/printer-address';
import type { HandlersOf } from '../contract/dispatcher';
import { checkPrinter } from '../printing/check';
import { discoverNetworkZebras } from '../printing/discovery/network-discovery';
import { ownSubnets, parseSubnet } from '../printing/discovery/subnets';
import { labelRoute } from '../printing/label-route';
import { defaultPrinterOptions, type PrinterRecord } from '../printing/printers';
import { probeZebra, type ZebraProbeOptions } from '../printing/status/zebra-probe';
import { stateName } from '../printing/queue/printer-queue';
import type { PrintingCore } from '../printing/printing-core';
import { runTestPrint } from '../printing/runs/test-print';
import { readPrinterStatus } from '../printing/status/printer-status';
import { headFaultsOf } from '../../shared/zebra/roll-and-head';
import type { KnownRoll } from '../printing/status/roll-watch';
import { canQuery, PrinterTransportError } from '../printing/transports/transport';
import type { Logger } from '../logging/logger';
import type { EnvironmentSession } from '../environment-session';
import type { StationSettings } from '../settings/station-settings';
import { PrinterSettingsService } from '../printing/settings/printer-settings-service';
import type { StoreEngine } from '../store';
import type { printersCalls } from '../../shared/contract/printers';
import { errorText } from '../../shared/error-text';

/** A host and UDP port that answers Zebra's network discovery. */
export interface DiscoveryTarget {
  host: string;
  port: number;
}

export interface PrintersHandlerDeps {
  settings: StationSettings;
  printing: PrintingCore;
  /**
   * Where the embedded sandbox's virtual Zebras answer discovery (on loopback, each on a free
   * port): searched too when the bench works on the sandbox, so "Find printers" finds them there.
   */
  sandboxDiscovery?(): Promise<DiscoveryTarget[]>;
  /**
   * Refuses a change to the printers' setup where it would be lost: while the bench prints on its
   * own file, with the warehouse's printers as last read (printing/offline).
   */
  setupAllowed?(): void;
  /**
   * Readies the current environment's printers (on the sandbox: the virtual Zebra at its port of
   * this launch). Best effort for the list: a sandbox that cannot start leaves the list as it is.
   */
  logger?: Logger;
  /** Longest wait for a printer's answers during a check or a status read. */
  statusTimeoutMs?: number;
  /** The first question to a network address a printer is added at: its time and answer bounds. */
  probe?: Pick<ZebraProbeOptions, 'timeoutMs' | 'maxAnswerBytes'>;
  /** Where changes to printer settings are journaled: the store the printers live in. */
  store: StoreEngine;
}

/** The roll as the status answers it. */
const rollOf = (known: KnownRoll | null) => ({ roll: known?.fit ?? null, rollReadAt: known?.readAt ?? null });

/** A printer's address as the lead typed it: a fact for the screen's words, not a sentence. */
function addressWords(address: PrinterAddress): string {
  switch (address.kind) {
    case 'network-zebra':
      return `${address.host}:${address.port}`;
    case 'os-queue-raw':
    case 'os-queue-pdf':
      return address.queue;
    case 'usb-zebra':
      return address.serialNumber ?? 'USB';
  }
}

/** `where`: the address as the lead typed it (host:port, queue name or serial), for the screen's words. */
function unreachable(message: string, where: string): PrinterCheckData {
  return {
    checked: false,
    passed: false,
    model: null,
    firmware: null,
    dpi: null,
    printWidthDots: null,
    serialNumber: null,
    warnings: [{ issue: 'unreachable', message: `${message} The printer is saved; check it again once it is on.`, facts: { where } }],
    faults: [{ ...printerFault('offline'), message }],
  };
}


export function printersHandlers({ settings, printing, setupAllowed = () => undefined, sandboxDiscovery, logger, statusTimeoutMs = 3000, probe: probeOptions = {}, store }: PrintersHandlerDeps): HandlersOf<typeof printersCalls> {
  const { printers, service, transports } = printing;
  const printerSettings = new PrinterSettingsService({ printing, store, stationName: () => settings.stationName(), timeoutMs: statusTimeoutMs });

  const ready = async (session: EnvironmentSession): Promise<void> => {
    await session.ready().catch((error: unknown) => logger?.warn('the printers are used without readying the environment', { error }));
  };

  /** Asks the printer at an address what it is; an unreachable printer is a result (offline), not an error. */
  const checkAddress = async (address: PrinterAddress): Promise<PrinterCheckData> => {
    try {
      const result = await checkPrinter(transports.forPrinter(address), { timeoutMs: statusTimeoutMs });
      return {
        checked: result.checked,
        passed: result.passed,
        model: result.identity?.model ?? null,
        firmware: result.identity?.firmware ?? null,
        dpi: result.identity?.dpi ?? null,
        printWidthDots: result.identity?.printWidthDots ?? null,
        serialNumber: result.identity?.serialNumber ?? null,
        warnings: result.warnings,
        faults: result.status?.faults ?? [],
      };
    } catch (error) {
      if (!(error instanceof PrinterTransportError)) throw error;
      return unreachable(error.message, addressWords(address));
    }
  };

  const found = (data: PrinterCheckData) => ({
    dpi: data.dpi,
    printWidthDots: data.printWidthDots,
    serialNumber: data.serialNumber,
    model: data.model,
    // The roll is not the printer's: the card shows it as read on each connection instead.
    warnings: data.warnings.filter((warning) => warning.issue !== 'roll-too-short').map((warning) => warning.message),
  });

  const check = async (environment: Environment, printer: PrinterRecord): Promise<PrinterCheckData> => {
    const data = await checkAddress(printer.address);
    if (data.checked) await printers.recordCheck(environment, printer.id, found(data));
    return data;
  };

  /**
   * A network address gets one status question (~HI) before anything else, bounded in size and
   * time; something that answers but not as a Zebra is refused (PRINTER_NOT_ZEBRA) and nothing
   * more is sent to it. Null when it may be asked further (a Zebra, or another kind of printer).
   */
  const probe = async (address: PrinterAddress): Promise<PrinterCheckData | null> => {
    if (address.kind !== 'network-zebra') return null;
    const result = await probeZebra({ host: address.host, port: address.port, ...probeOptions });
    return result.kind === 'unreachable' ? unreachable(result.message, addressWords(address)) : null;
  };

  return {
    'printers.list': async (_input, { session }) => {
      await ready(session);
      return { printers: await printers.list(settings.environment()) };
    },

    'printers.add': async (input) => {
      setupAllowed();
      const environment = settings.environment();
      // The environment's first printer prints everything: there is nobody to take a role from.
      const first = (await printers.list(environment)).length === 0;
      if (first) input = { ...input, defaultForSingle: true, defaultForBundles: true };
      if (input.check === false) return { printer: await printers.add(environment, input), check: null };
      const probed = await probe(input.address);
      if (probed) {
        // Nothing answers at the address: saved so it can be checked once it is on, but it takes no
        // role from a printer that works — the bench keeps printing where it did.
        const roles = first ? {} : { defaultForSingle: false, defaultForBundles: false };
        return { printer: await printers.add(environment, { ...input, ...roles }), check: probed };
      }
      const result = await checkAddress(input.address);
      if (result.checked && result.dpi !== null && result.printWidthDots !== null) {
        // A head too narrow for the label is not saved: every label would be refused on it.
        const route = labelRoute({ name: input.name, format: 'zpl', options: { ...defaultPrinterOptions, ...found(result) } });
        if (route.kind === 'refused') throw route.error;
      }
      const added = result.checked
        ? await printers.add(environment, input, { model: result.model, checkedAt: new Date().toISOString(), warnings: found(result).warnings }, found(result))
        : await printers.add(environment, input);
      // The connection the check opened is up: the roll on it is kept for the card and the runs.
      if (result.checked) service.rolls.connected(added);
      return { printer: added, check: result };
    },

    'printers.update': async (input) => {
      setupAllowed();
      if (input.address) await probe(input.address);
      const updated = await printers.update(settings.environment(), input);
      service.printerChanged(updated);
      return updated;
    },

    'printers.remove': async ({ id }) => {
      setupAllowed();
      const environment = settings.environment();
      if (await printing.journal.runRecords.hasUnfinishedRuns(environment, id)) {
        throw new StationError('CONFLICT', 'This printer has a print run that is not finished. Finish or cancel the run first.', undefined, { facts: { subject: 'printer-busy', id } });
      }
      await printers.remove(environment, id);
      return { removed: true as const };
    },

    'printers.status': async ({ id }, { session }): Promise<PrinterStatusData> => {
      await ready(session);
      const environment = settings.environment();
      const printer = await printers.require(environment, id);
      const pending = service.pendingOn(printer);
      const queueFault = service.queueFor(printer).currentFault;
      const queue = service.queueFor(printer);
      const transport = transports.forPrinter(printer.address);
      const checkedAt = new Date().toISOString();
      const base = { printerId: id, labelsPending: pending, checkedAt, busyWith: null, headFaults: [], ...rollOf(service.rolls.last(printer)) };
      if (!canQuery(transport)) {
        return {
          ...base,
          state: queueFault ? stateName(queueFault, pending > 0) : 'unknown',
          answered: false,
          faults: queueFault ? [queueFault] : [],
          formatsInBuffer: null,
          source: 'printer',
        };
      }
      if (!queue.idle) {
        // A run of this process prints on it: its queue asks ~HS after every label and while a
        // fault holds it, so it already knows; asking again would wait behind the labels.
        const live = (await service.runsOn(environment, printer))[0] ?? null;
        return {
          ...base,
          state: stateName(queueFault, true),
          answered: false,
          faults: queueFault ? [queueFault] : [],
          formatsInBuffer: queue.lastHostStatus?.formatsInBuffer ?? null,
          source: 'queue',
          busyWith: live ? { runId: live.id, kind: live.kind, processId: process.pid } : null,
        };
      }
      const elsewhere = (await service.runsHoldingPrinterElsewhere(environment, printer))[0];
      if (elsewhere) {
        // Another station process holds the printer's connection: a printer that serves one
        // connection at a time would leave a second one unanswered, and that is not "offline".
        const fault = elsewhere.state === 'paused' ? (elsewhere.pauseReason?.fault ?? null) : null;
        return {
          ...base,
          state: stateName(fault, true),
          answered: false,
          faults: fault ? [fault] : [],
          formatsInBuffer: null,
          source: 'run-elsewhere',
          busyWith: { runId: elsewhere.id, kind: elsewhere.kind, processId: elsewhere.options.owner?.pid ?? null },
        };
      }
      try {
        const report = await readPrinterStatus(transport, { timeoutMs: statusTimeoutMs });
        const formatsInBuffer = report.host?.formatsInBuffer ?? null;
        return {
          ...base,
          state: stateName(report.faults[0] ?? null, pending > 0 || (formatsInBuffer ?? 0) > 0),
          answered: true,
          faults: report.faults,
          formatsInBuffer,
          source: 'printer',
          headFaults: headFaultsOf(report.host, report.extended),
          // Read once per connection, and only while nothing of ours is on its way to the printer.
          ...rollOf(await service.rolls.current(printer)),
        };
      } catch (error) {
        if (!(error instanceof PrinterTransportError)) throw error;
        const fault = { ...printerFault('offline'), message: error.message };
        return { ...base, state: 'offline', answered: false, faults: [fault], formatsInBuffer: null, source: 'printer' };
      }
    },

    'printers.check': async ({ id }, { session }) => {
      await ready(session);
      const environment = settings.environment();
      return check(environment, await printers.require(environment, id));
    },

    'printers.test': async ({ id, label }, { session }) => {
      await ready(session);
      const environment = settings.environment();
      const printer = await printers.require(environment, id);
      const result = await runTestPrint(service, environment, printer, settings.operator(), settings.stationName(), new Date(), label ?? 'printer');
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

    'printers.discover': async ({ subnet, port, timeoutMs }, { session }) => {
      const subnets = subnet ? [parseSubnet(subnet)] : ownSubnets();
      await ready(session);
      const environment = settings.environment();
      // On the sandbox, a search of this computer's networks also asks the sandbox's virtual Zebras, on loopback.
      const practice = environment === 'sandbox' && !subnet && sandboxDiscovery ? await sandboxDiscovery().catch(() => []) : [];
      const practiceSubnets = practice.map((target) => parseSubnet(`${target.host}/32`));
      const [zebras, queues, known] = await Promise.all([
        Promise.all([
          discoverNetworkZebras({ subnets, port, timeoutMs }),
          ...practice.map((target, index) => discoverNetworkZebras({ subnets: [practiceSubnets[index]!], port: target.port, timeoutMs })),
        ]).then((found) => found.flat()),
        transports.listOsQueues().catch((error: unknown) => {
          logger?.info('no print queues could be listed for the search', { error: errorText(error) });
          return [];
        }),
        printers.list(environment),
      ]);
      const at = (host: string, port: number) => known.find((printer) => printer.address.kind === 'network-zebra' && printer.address.host === host && printer.address.port === port)?.id ?? null;
      const queued = (queue: string) => known.find((printer) => (printer.address.kind === 'os-queue-raw' || printer.address.kind === 'os-queue-pdf') && printer.address.queue === queue)?.id ?? null;
      return {
        subnets: [...new Set([...subnets, ...practiceSubnets].map((found) => found.cidr))],
        printers: [
          ...zebras.map((zebra) => ({
            kind: 'network-zebra' as const,
            name: zebra.systemName ?? zebra.model ?? zebra.address,
            model: zebra.model,
            firmware: zebra.firmware,
            serialNumber: zebra.serialNumber,
            dpi: zebra.dpi,
            host: zebra.address,
            port: zebra.port,
            addedAs: at(zebra.address, zebra.port),
          })),
          ...queues.map((queue) => ({ kind: 'os-queue' as const, name: queue.name, system: queue.system, state: queue.state, isDefault: queue.isDefault, addedAs: queued(queue.name) })),
        ],
      };
    },

    'printers.settings': async ({ id }, { session }) => {
      await ready(session);
      return printerSettings.read(settings.environment(), id);
    },

    'printers.changeSettings': async ({ id, operator, save, headCleaned, ...change }, { session }) => {
      await ready(session);
      // Who: the one named, else the operator signed in, else the bench itself.
      const who = operator ?? (settings.operator() || settings.stationName());
      return printerSettings.change(settings.environment(), id, { ...change, ...(save !== undefined ? { save } : {}), ...(headCleaned !== undefined ? { headCleaned } : {}), operator: who });
    },

    'printers.calibrate': async ({ id }, { session }) => {
      await ready(session);
      return printerSettings.calibrate(settings.environment(), id);
    },

    'printers.configLabel': async ({ id }, { session }) => {
      await ready(session);
      return printerSettings.configurationLabel(settings.environment(), id);
    },

    'printers.settingChanges': async ({ id, limit }) => ({ changes: await printerSettings.changesOf(settings.environment(), id, limit) }),

    'printers.osQueues': async () => {
      try {
        return { queues: await transports.listOsQueues() };
      } catch (error) {
        if (error instanceof StationError) throw error;
        throw new StationError('NOT_CONFIGURED', `The print queues of this computer could not be listed: ${errorText(error)}`);
      }
    },
  };
}
