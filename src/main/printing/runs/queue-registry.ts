/**
 * One print queue per physical route to a printer, shared by printer records with the same
 * address; each queue's state goes to the screen for every printer record on it.
 */
import type { PrinterStateName } from '../../../shared/contract/printers';
import { printerAddressKey } from '../../../shared/zebra/printer-address';
import type { PrinterFault } from '../../../shared/zebra/faults';
import type { Logger } from '../../logging/logger';
import type { QueueClock } from '../queue/clock';
import type { LabelMarkStore } from '../queue/label-marks';
import { PrinterQueue, type PrinterQueueState, type PrinterQueueTiming } from '../queue/printer-queue';
import type { PrinterRecord } from '../printers';
import type { PrinterTransports } from '../transports/printer-transports';

export interface QueueRegistryDeps {
  transports: PrinterTransports;
  logger: Logger;
  clock: QueueClock;
  marks?: LabelMarkStore;
  timing?: Partial<PrinterQueueTiming>;
  /** A queue's state changed, for each printer record on it. */
  onPrinterState(printerId: string, state: { state: PrinterStateName; fault: PrinterFault | null; labelsPending: number }): void;
  /** A queue has nothing left to do. */
  onQueueIdle(): void;
  /** The serial number last identified for a printer's address (see PrinterQueueDeps.identifiedSerial). */
  identifiedSerial?(printer: PrinterRecord): string | null;
}

interface QueueEntry {
  queue: PrinterQueue;
  printerIds: Set<string>;
  /** Read by the queue before each label, so a settings change applies at once. */
  limit: { maxFormats: number };
}

export class QueueRegistry {
  private readonly queues = new Map<string, QueueEntry>();

  constructor(private readonly deps: QueueRegistryDeps) {}

  /** The queue of a printer, created on first use (throws when the printer cannot be reached this way at all). */
  queueFor(printer: PrinterRecord): PrinterQueue {
    const key = printerAddressKey(printer.address);
    const existing = this.queues.get(key);
    const entry = existing ?? this.create(key, printer);
    entry.printerIds.add(printer.id);
    entry.limit.maxFormats = printer.options.maxFormatsInBuffer;
    return entry.queue;
  }

  /** A printer's settings changed: the buffer limit applies from the next label. */
  printerChanged(printer: PrinterRecord): void {
    const entry = this.queues.get(printerAddressKey(printer.address));
    if (entry) entry.limit.maxFormats = printer.options.maxFormatsInBuffer;
  }

  /** Labels of this station pending on a printer (in flight or in its buffer). */
  pendingOn(printer: PrinterRecord): number {
    return this.queues.get(printerAddressKey(printer.address))?.queue.labelsPending ?? 0;
  }

  get allIdle(): boolean {
    for (const entry of this.queues.values()) if (!entry.queue.idle) return false;
    return true;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.queues.values()].map((entry) => entry.queue.close()));
  }

  private create(key: string, printer: PrinterRecord): QueueEntry {
    const transport = this.deps.transports.forPrinter(printer.address);
    const printerIds = new Set([printer.id]);
    const limit = { maxFormats: printer.options.maxFormatsInBuffer };
    const queue = new PrinterQueue({
      transport,
      maxFormatsInBuffer: () => limit.maxFormats,
      logger: this.deps.logger,
      clock: this.deps.clock,
      ...(this.deps.marks ? { marks: this.deps.marks } : {}),
      ...(this.deps.identifiedSerial ? { identifiedSerial: () => this.deps.identifiedSerial?.(printer) ?? null } : {}),
      ...(this.deps.timing ? { timing: this.deps.timing } : {}),
      onState: (state: PrinterQueueState) => {
        for (const printerId of printerIds) this.deps.onPrinterState(printerId, state);
      },
      onIdle: () => this.deps.onQueueIdle(),
    });
    const entry: QueueEntry = { queue, printerIds, limit };
    this.queues.set(key, entry);
    return entry;
  }
}
