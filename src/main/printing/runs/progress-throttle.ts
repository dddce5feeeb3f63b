/**
 * At most one progress event per run per interval (a 1,000-label run would otherwise send one
 * per label), at once for a change of state, and the last one never dropped: a change inside the
 * interval is sent when it ends.
 */
import type { QueueClock } from '../queue/clock';

export class ProgressThrottle {
  private readonly sentAt = new Map<string, number>();
  private readonly pending = new Map<string, AbortController>();

  constructor(
    private readonly intervalMs: number,
    private readonly clock: QueueClock,
  ) {}

  /** Calls `emit` now or at the end of the run's interval; `important` sends at once. */
  offer(runId: string, important: boolean, emit: () => void): void {
    const last = this.sentAt.get(runId) ?? Number.NEGATIVE_INFINITY;
    const elapsed = this.clock.now() - last;
    const send = (): void => {
      this.pending.delete(runId);
      this.sentAt.set(runId, this.clock.now());
      emit();
    };
    if (important || elapsed >= this.intervalMs) {
      // A reason of our own: abort() without one builds a DOMException (and its stack) each time.
      this.pending.get(runId)?.abort('superseded');
      send();
      return;
    }
    if (this.pending.has(runId)) return;
    const later = new AbortController();
    this.pending.set(runId, later);
    void this.clock.sleep(this.intervalMs - elapsed, later.signal).then(() => {
      if (!later.signal.aborted) send();
    });
  }

  /** The run is over: nothing more is sent for it. */
  forget(runId: string): void {
    this.pending.get(runId)?.abort('forgotten');
    this.pending.delete(runId);
    this.sentAt.delete(runId);
  }

  clear(): void {
    for (const later of this.pending.values()) later.abort();
    this.pending.clear();
  }
}
