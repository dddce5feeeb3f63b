/**
 * The queue's state as the screen's status area hears it (printers.state): once things settle, on
 * the next turn of the event loop, and only when it changed, so a scan's label never waits on the
 * events it causes.
 */
import type { PrinterStateName } from '../../../shared/contract/printers';
import type { PrinterFault } from '../../../shared/zebra/faults';

export interface PrinterQueueState {
  state: PrinterStateName;
  fault: PrinterFault | null;
  /** Labels of this station pending: attached runs' unsent labels are not counted, only those in flight or in the printer. */
  labelsPending: number;
}

export class QueueStatePublisher {
  private last: PrinterQueueState | null = null;
  private pending = false;

  /** `current`: the queue's state as it is when the turn comes. */
  constructor(
    private readonly current: () => PrinterQueueState,
    private readonly onState?: (state: PrinterQueueState) => void,
  ) {}

  publish(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.publishNow();
    });
  }

  private publishNow(): void {
    const state = this.current();
    const last = this.last;
    if (last && last.state === state.state && last.fault?.message === state.fault?.message && last.labelsPending === state.labelsPending) return;
    this.last = state;
    this.onState?.(state);
  }
}
