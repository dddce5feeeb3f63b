/**
 * The one label a person at the bench waits for: a packer's scan, or a printer's test label. It
 * fetches the label, hands it to the printer's queue as a label that goes first (label-source.ts,
 * personWaiting), and settles its outcome for the caller as soon as it is known: sent, waiting
 * for a fault to clear, or why not. The answer goes out before the journal's "sent" and the
 * screen hears every state of the label. It never waits out the service or a stop: the packer
 * scans again, and a stop closes its run (journal recovery).
 */
import { StationError } from '../../../shared/errors';
import type { PrinterFault } from '../../../shared/zebra/faults';
import { personWaiting, type QueueLabel, type Serving } from '../queue/label-source';
import { asStationError, PrintRun, type PreparedDocument, type Slot } from './print-run';
import type { JournalRow } from '../journal/journal-types';

/**
 * How the label ended for the caller waiting on it: sent (the printer has it), waiting (a fault
 * holds it, before or after it reached the printer: it prints when the fault clears, or the
 * packer cancels it), or an error.
 */
export type WaitedOutcome =
  | { kind: 'sent'; entry: JournalRow }
  | { kind: 'waiting'; entry: JournalRow; fault: PrinterFault }
  | { kind: 'error'; error: StationError };

export class WaitedPrint extends PrintRun {
  readonly serving: Serving = personWaiting;
  private waiters: ((outcome: WaitedOutcome) => void)[] = [];
  private outcome: WaitedOutcome | null = null;

  /** Resolves when the label is sent or has failed. */
  whenFirstLabelSettles(): Promise<WaitedOutcome> {
    if (this.outcome) return Promise.resolve(this.outcome);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  notBegun(label: QueueLabel, error: unknown): void {
    // Answered now, with the store's reason: the packer scans again once it is back. The journal
    // row is settled "failed" (nothing was sent) when the store answers again.
    this.failNotBegun(label, error, () => this.settle({ kind: 'error', error: asStationError(error) }));
  }

  sent(label: QueueLabel, fault: PrinterFault | null): void {
    const slot = this.markSlotSent(label);
    // The printer has it but a fault holds it (the confirmation showed paper out): not printed yet.
    const outcome: WaitedOutcome = fault ? { kind: 'waiting', entry: { ...slot.entry }, fault } : { kind: 'sent', entry: { ...slot.entry } };
    // The answer goes out before the journal records it: until then the row says "sending", which
    // a recovery reads as uncertain, never as printed.
    this.settle(outcome);
    setImmediate(() => this.recordSent(slot));
  }

  protected journalsFetchWithSent(document: PreparedDocument): boolean {
    // The label goes to the printer first; the journal learns it was fetched with the "sent" that
    // follows the answer (a row left "sending" is uncertain after a crash).
    return !document.note && this.record.state === 'running';
  }

  protected fetchFailed(slot: Slot, error: unknown): void {
    // The service out of reach is the packer's answer too: nobody waits for it to come back.
    this.failFetch(slot, error, () => this.settle({ kind: 'error', error: asStationError(error) }));
  }

  protected stoppedUnfinished(): void {
    // Closed by the recovery of the next start, never resumed.
  }

  protected screenHears(): boolean {
    return true;
  }

  protected override labelMoved(slot: Slot): void {
    // The scan's screen (and a waiting CLI) hears what became of its label.
    this.announce(slot);
  }

  protected override heldByFault(fault: PrinterFault): void {
    const first = this.slots[0];
    // Answered now: the label waits for the printer, and prints once the fault clears (or the
    // packer cancels it).
    if (this.outcome === null && first) this.settle({ kind: 'waiting', entry: first.entry, fault });
  }

  protected override unproven(slot: Slot, reason: string): void {
    this.settle({
      kind: 'error',
      error: new StationError('PRINT_UNCERTAIN', `${reason} Say whether it printed; the journal keeps it as uncertain until then.`, [`journal entry: ${slot.entry.id}`], {
        facts: { entryId: slot.entry.id },
      }),
    });
  }

  protected override cancelledUnsent(reason: string, operator: string): void {
    this.settle({ kind: 'error', error: new StationError('CANCELLED', reason, undefined, { facts: { subject: 'label', runId: this.runId, by: operator || null } }) });
  }

  protected override ended(): void {
    this.settle({ kind: 'error', error: new StationError('INTERNAL', 'The run ended without sending its label.') });
  }

  private settle(outcome: WaitedOutcome): void {
    if (this.outcome) return;
    this.outcome = outcome;
    for (const waiter of this.waiters.splice(0)) waiter(outcome);
  }
}
