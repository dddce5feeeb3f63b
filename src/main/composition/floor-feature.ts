/**
 * The floor feature: this bench on the lead's floor (its report, the floor it follows, the actions
 * a lead sends to it and from it). Reporting starts only with a long-running host (`start`), once
 * the shared store answers; a command-line call reads the floor and sends actions.
 */
import type { Handlers } from '../contract/dispatcher';
import type { EventBus } from '../contract/event-bus';
import { applyAtBench } from '../floor/apply-at-bench';
import { BenchFloor, type FloorOptions } from '../floor/bench-floor';
import { floorHandlers } from '../handlers/floor';
import type { Logger } from '../logging/logger';
import type { PrinterStatusData } from '../../shared/contract/printers';
import type { StationSettings } from '../settings/station-settings';
import type { StoreEngine } from '../store';
import type { PrintingFeature } from './printing-feature';

export interface FloorFeatureDeps {
  engine: StoreEngine;
  benchId: string;
  settings: StationSettings;
  printing: PrintingFeature;
  /** Asks a printer how it is through the printers.status call (bound once the dispatcher exists). */
  printerStatus(printerId: string): Promise<PrinterStatusData>;
  onceReachable(work: () => Promise<void>): Promise<void>;
  events: EventBus;
  logger: Logger;
  options?: FloorOptions;
}

export interface FloorFeature {
  readonly floor: BenchFloor;
  readonly handlers: ReturnType<typeof floorHandlers>;
  /** The handlers that tell the floor a scan arrived or a setting changed, around the given ones. */
  observing(handlers: Handlers): Handlers;
  start(): Promise<void>;
  close(): Promise<void>;
}

export function floorFeature(deps: FloorFeatureDeps): FloorFeature {
  const { core, places, localOnly, leases } = deps.printing;
  const floor = new BenchFloor({
    engine: deps.engine,
    benchId: deps.benchId,
    settings: deps.settings,
    state: { journal: deps.engine, printers: core.printers, service: core.service, runs: core.journal.runRecords, ...(leases ? { leases } : {}) },
    printers: core.printers,
    apply: (command) => applyAtBench({ printing: places, localOnly }, command),
    printerStatus: deps.printerStatus,
    events: deps.events,
    logger: deps.logger,
    ...(deps.options ? { options: deps.options } : {}),
  });
  return {
    floor,
    handlers: floorHandlers(floor),
    observing(handlers) {
      const scan = handlers['printing.scan'];
      const print = handlers['printing.print'];
      const settingsSet = handlers['settings.set'];
      return {
        ...handlers,
        'printing.scan': (input, context) => {
          floor.scanned();
          return scan(input, context);
        },
        'printing.print': (input, context) => {
          floor.scanned();
          return print(input, context);
        },
        'settings.set': async (input, context) => {
          const settings = await settingsSet(input, context);
          floor.changed();
          return settings;
        },
      };
    },
    start: () => deps.onceReachable(() => floor.start()),
    close: () => floor.close(),
  };
}
