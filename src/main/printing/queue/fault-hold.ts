/**
 * The fault holding a printer's queue, and the attached sources told of it: each hears a fault
 * once (again when it changes), and hears that it cleared only if it heard of it.
 */
import type { PrinterFault } from '../../../shared/zebra/faults';
import type { Logger } from '../../logging/logger';
import type { PrinterTransport } from '../transports/transport';
import type { LabelSource } from './label-source';

export class FaultHold {
  private fault: PrinterFault | null = null;
  /** Sources told about the current fault. */
  private readonly told = new Set<LabelSource>();

  constructor(private readonly deps: { transport: PrinterTransport; logger: Logger }) {}

  /** The fault holding the queue, or null. */
  get current(): PrinterFault | null {
    return this.fault;
  }

  /** Holds the queue with `fault`, and tells the sources that have not heard it. True when nothing held the queue before. */
  hold(fault: PrinterFault, sources: readonly LabelSource[]): boolean {
    const changed = this.fault?.kind !== fault.kind || this.fault.message !== fault.message;
    const first = this.fault === null;
    this.fault = fault;
    if (changed) this.deps.logger.warn('printer fault holds the queue', { printer: this.deps.transport.description, fault: fault.kind, message: fault.message });
    for (const source of [...sources]) {
      if (!changed && this.told.has(source)) continue;
      this.told.add(source);
      source.printerPaused(fault);
    }
    return first;
  }

  /** The fault cleared: the sources told of it, for the queue to tell it is gone; null when nothing held the queue. */
  release(): LabelSource[] | null {
    if (!this.fault) return null;
    this.deps.logger.info('printer fault cleared', { printer: this.deps.transport.description, fault: this.fault.kind });
    this.fault = null;
    const told = [...this.told];
    this.told.clear();
    return told;
  }

  /** A source detached: it is told nothing more. */
  forget(source: LabelSource): void {
    this.told.delete(source);
  }
}
