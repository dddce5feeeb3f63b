/**
 * The printers' side of printing, one for the station process: a queue per physical route to a
 * printer (queue-registry.ts), the roll each Zebra holds (status/roll-watch.ts) and telling the
 * updater when printing is quiet (idle-tracker.ts). The print services of each journal place
 * (print-service.ts: on a warehouse, the shared store's and the bench's own file's) join it, so a
 * printer has one queue whichever journal its labels are written to.
 */
import type { EventBus } from '../../contract/event-bus';
import type { Logger } from '../../logging/logger';
import type { PrintActivity } from '../../updates/print-activity';
import type { QueueClock } from '../queue/clock';
import type { PrinterQueueTiming } from '../queue/printer-queue';
import type { PrinterRecord } from '../printers';
import { RollWatch } from '../status/roll-watch';
import type { PrinterTransports } from '../transports/printer-transports';
import { IdleTracker } from './idle-tracker';
import { QueueRegistry } from './queue-registry';

export interface PrintQueuesDeps {
  transports: PrinterTransports;
  events: EventBus;
  logger: Logger;
  clock: QueueClock;
  timing?: Partial<PrinterQueueTiming>;
  /** The roll watch's quiet time after a label's look at a printer (status/roll-watch.ts). */
  rollQuietMs?: number;
  /** The serial number last identified for a printer (its record as last read; see PrinterQueueDeps.identifiedSerial). */
  identifiedSerial(printer: PrinterRecord): string | null;
}

/** A print service's runs, as the queues they share see them. */
export interface QueuedRuns {
  /** No run of the service is live. */
  none(): boolean;
  /** The station stops: each run stops after the label it is sending. */
  interrupt(): void;
}

export class PrintQueues {
  readonly registry: QueueRegistry;
  /** The roll each Zebra holds, read once per connection off the labels' path. */
  readonly rolls: RollWatch;
  private readonly idle: IdleTracker;
  private readonly joined = new Set<QueuedRuns>();
  private closing: Promise<void> | null = null;

  constructor(deps: PrintQueuesDeps) {
    this.idle = new IdleTracker(() => this.registry.allIdle && [...this.joined].every((runs) => runs.none()), deps.logger);
    this.registry = new QueueRegistry({
      transports: deps.transports,
      logger: deps.logger,
      clock: deps.clock,
      ...(deps.timing ? { timing: deps.timing } : {}),
      onPrinterState: (printerId, state) => deps.events.emit('printers.state', { printerId, ...state, at: new Date(deps.clock.now()).toISOString() }),
      onQueueIdle: () => this.idle.notifyIfIdle(),
      // The label route's identity check asks each new connection's printer who it is before its first label.
      identifiedSerial: deps.identifiedSerial,
    });
    this.rolls = new RollWatch({
      transports: deps.transports,
      idle: (printer) => this.registry.idleFor(printer),
      onRead: (printer, roll) => deps.events.emit('printers.roll', { printerId: printer.id, roll: roll.fit, readAt: roll.readAt }),
      logger: deps.logger,
      ...(deps.rollQuietMs !== undefined ? { quietMs: deps.rollQuietMs } : {}),
    });
  }

  /** Tells the updater when every queue and every run is done. */
  get activity(): PrintActivity {
    return this.idle.activity;
  }

  /** A print service whose runs use these queues. */
  join(runs: QueuedRuns): void {
    this.joined.add(runs);
  }

  /** A run finished: the updater hears it if nothing is left. */
  notifyIfIdle(): void {
    this.idle.notifyIfIdle();
  }

  /** Every joined service's runs stop after the label each is sending, then the queues close and leases are given back (once). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.rolls.close();
      for (const runs of this.joined) runs.interrupt();
      await this.registry.closeAll();
    })();
    return this.closing;
  }
}
