/**
 * A shift run (bundles, or a retry of failed labels): hundreds of labels fetched ahead of the
 * printer, each step journalled before the next. It carries on through what stops it: an
 * unreachable Delivery API pauses it and it tries again by itself, a failed "sending began" leaves
 * the label next in line, and a stop of the station leaves it paused for the next start to resume.
 * The screen hears only of its labels that failed or are uncertain; the summary tells the rest.
 */
import type { PauseReasonData } from '../../../shared/contract/printing';
import type { JournalRow } from '../journal/journal-types';
import { inTurn, type QueueLabel, type Serving } from '../queue/label-source';
import { PrintRun, type Slot } from './print-run';

export class ShiftRun extends PrintRun {
  readonly serving: Serving = inTurn;

  notBegun(label: QueueLabel, error: unknown): void {
    if (this.cancelling) {
      this.failNotBegun(label, error);
      return;
    }
    // Nothing was sent: the label stays next in line for when the store answers again.
    const slot = this.slotOf(label);
    slot.entry.sentAt = null;
    slot.status = 'ready';
    this.cursor = Math.min(this.cursor, slot.index);
  }

  sent(label: QueueLabel): void {
    this.recordSent(this.markSlotSent(label));
  }

  protected journalsFetchWithSent(): boolean {
    return false;
  }

  protected fetchFailed(slot: Slot, error: unknown): void {
    if (this.deps.classifyFetchFailure(error) === 'service') {
      slot.status = 'pending';
      this.pauseForService(error);
      return;
    }
    this.failFetch(slot, error);
  }

  protected stoppedUnfinished(reason: PauseReasonData): void {
    // Offered for resume at the next start.
    this.setState('paused', reason);
  }

  protected screenHears(entry: JournalRow): boolean {
    return entry.state === 'failed' || entry.state === 'uncertain';
  }
}
