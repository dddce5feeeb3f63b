/**
 * One print queue per physical route to a printer, shared by printer records with the same
 * address; each queue's state goes to the screen for every printer record on it.
 *
 * On a warehouse's shared store a bench drives a printer only while it holds the printer's lease
 * (printer-leases.ts, in the store of the print service that claims it): `claim` takes it before a run is launched (a run is refused, not queued,
 * when another bench holds it), it is renewed every third of its duration while the queue has
 * work, and given back when the queue goes idle (no sooner than a third of its duration after the
 * last claim, so a packer scanning every few seconds keeps the printer without a store write per
 * scan) or the station stops.
 */
import type { PrinterStateName } from '../../../shared/contract/printers';
import { printerAddressKey } from '../../../shared/zebra/printer-address';
import type { PrinterFault } from '../../../shared/zebra/faults';
import type { Logger } from '../../logging/logger';
import type { QueueClock } from '../queue/clock';
import type { LabelMarkStore } from '../queue/label-marks';
import { PrinterQueue, type PrinterQueueTiming } from '../queue/printer-queue';
import type { PrinterQueueState } from '../queue/state-publisher';
import type { PrinterRecord } from '../printers';
import { leaseKey, type PrinterLeases } from '../printer-leases';
import type { PrinterTransports } from '../transports/printer-transports';
import { errorText } from '../../../shared/error-text';

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
  /** The printer leases a claim takes when it names none; none on one bench (its printers are its own). */
  leases?: PrinterLeases;
}

interface HeldLease {
  printer: PrinterRecord;
  /** Until when this bench's last take or renewal holds it, on the queue clock. */
  until: number;
  /** When it was last claimed: a claim whose run never reached the queue is given back after a renewal period. */
  claimedAt: number;
  stop: AbortController;
  /** Where it was last claimed: renewed and given back there. */
  leases: PrinterLeases;
}

interface QueueEntry {
  queue: PrinterQueue;
  printerIds: Set<string>;
  /** Read by the queue before each label, so a settings change applies at once. */
  limit: { maxFormats: number };
}

export class QueueRegistry {
  private readonly queues = new Map<string, QueueEntry>();
  private readonly held = new Map<string, HeldLease>();

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

  /**
   * Makes sure this bench may drive the printer: takes (or, when held, renews) its lease in
   * `leases` (none on one bench: its printers are its own). PRINTER_LEASED when another bench
   * holds it; nothing is queued then.
   */
  async claim(printer: PrinterRecord, leases: PrinterLeases | undefined = this.deps.leases): Promise<void> {
    const key = leases ? leaseKey(printer.address) : null;
    if (!leases || key === null) return;
    const now = this.deps.clock.now();
    const held = this.held.get(key);
    // Held with more than two renewal periods left: the renewal loop keeps it, no store write per scan.
    if (held && held.until - now > (leases.durationMs * 2) / 3) {
      held.claimedAt = now;
      held.leases = leases;
      return;
    }
    await leases.take(printer);
    const after = this.deps.clock.now();
    const current = this.held.get(key);
    if (current) {
      current.until = after + leases.durationMs;
      current.claimedAt = after;
      current.leases = leases;
      return;
    }
    const lease: HeldLease = { printer, until: after + leases.durationMs, claimedAt: after, stop: new AbortController(), leases };
    this.held.set(key, lease);
    void this.renew(key, lease);
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

  /** Nothing of this station's on the printer's route: no queue yet, or an idle one. */
  idleFor(printer: PrinterRecord): boolean {
    return this.queues.get(printerAddressKey(printer.address))?.queue.idle ?? true;
  }

  get allIdle(): boolean {
    for (const entry of this.queues.values()) if (!entry.queue.idle) return false;
    return true;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.queues.values()].map((entry) => entry.queue.close()));
    await Promise.all([...this.held.keys()].map((key) => this.giveBack(key)));
  }

  /** Renews a held lease every third of its duration while its queue has work (or a claim is fresh). */
  private async renew(key: string, lease: HeldLease): Promise<void> {
    const period = lease.leases.durationMs / 3;
    for (;;) {
      await this.deps.clock.sleep(period, lease.stop.signal);
      if (lease.stop.signal.aborted) return;
      const queue = this.queues.get(key)?.queue;
      const busy = queue !== undefined && !queue.idle;
      if (!busy && this.deps.clock.now() - lease.claimedAt >= period) {
        await this.giveBack(key);
        return;
      }
      try {
        await lease.leases.take(lease.printer);
        lease.until = this.deps.clock.now() + lease.leases.durationMs;
      } catch (error) {
        // Lost (another bench took it over after this one could not renew in time) or the store is
        // unreachable: the next claim takes it again or is refused; labels already queued go on.
        this.deps.logger.warn('printer lease not renewed', { printer: lease.printer.name, error: errorText(error) });
        this.forgetLease(key);
        return;
      }
    }
  }

  /**
   * The queue went idle: the lease is given back, unless it was claimed within the last renewal
   * period (that claim's run may not have reached the queue yet; the renewal loop gives it back
   * at its next turn if no work came).
   */
  private idleNow(key: string): void {
    const lease = this.held.get(key);
    if (!lease) return;
    if (this.deps.clock.now() - lease.claimedAt >= lease.leases.durationMs / 3) void this.giveBack(key);
  }

  /** The station stops, or the queue went idle: the printer is free for other benches. */
  private async giveBack(key: string): Promise<void> {
    const lease = this.held.get(key);
    if (!lease) return;
    this.forgetLease(key);
    try {
      await lease.leases.release(lease.printer);
    } catch (error) {
      // It then expires by itself.
      this.deps.logger.warn('printer lease not given back', { printer: lease.printer.name, error: errorText(error) });
    }
  }

  private forgetLease(key: string): void {
    const lease = this.held.get(key);
    if (!lease) return;
    lease.stop.abort();
    this.held.delete(key);
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
      onIdle: () => {
        this.idleNow(key);
        this.deps.onQueueIdle();
      },
    });
    const entry: QueueEntry = { queue, printerIds, limit };
    this.queues.set(key, entry);
    return entry;
  }
}
