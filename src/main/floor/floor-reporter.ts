/**
 * Writes this bench's report to the floor: soon after a change (a burst of changes is one write),
 * at most one write in flight and at most one every `minGapMs`, and a heartbeat every
 * `heartbeatMs` so the others know it is alive. Whoever says "changed" (a scan, a label, a printer
 * event) only sets a flag and maybe a timer: nothing on their path waits for the store. While the
 * store is away, writes fail and are tried again after a short pause that grows to a second:
 * only the newest state is ever written, so nothing piles up; the first write once it answers
 * carries everything that changed meanwhile.
 */
import type { BenchReportData } from '../../shared/contract/floor';
import type { Logger } from '../logging/logger';
import type { FloorTimers } from './floor-timers';
import { errorText } from '../../shared/error-text';

/** The reporter's clock and one-shot timers. */
export type ReporterTimers = Pick<FloorTimers, 'now' | 'after'>;

export interface FloorReporterTiming {
  /** Wait after the first change, so a burst of changes is one write. Default 50 ms. */
  settleMs: number;
  /** Least time between two writes. Default 250 ms. */
  minGapMs: number;
  /** A write at least this often, changed or not. Default 10 s. */
  heartbeatMs: number;
  /** First pause after a failed write; doubles up to maxRetryMs. Defaults 250 ms and 1 s. */
  retryMs: number;
  maxRetryMs: number;
}

export const defaultReporterTiming: FloorReporterTiming = { settleMs: 50, minGapMs: 250, heartbeatMs: 10_000, retryMs: 250, maxRetryMs: 1_000 };

export interface FloorReporterDeps {
  /** The bench's report now (stoppedAt set for the last one, written as the station closes). */
  build(stoppedAt: string | null): Promise<BenchReportData>;
  /** Writes it; `changed` false: only a heartbeat. */
  write(report: BenchReportData, at: string, changed: boolean): Promise<void>;
  timers: ReporterTimers;
  timing?: Partial<FloorReporterTiming>;
  logger: Logger;
}

export class FloorReporter {
  private readonly timing: FloorReporterTiming;
  private dirty = true;
  private writing: Promise<void> | null = null;
  private cancelTimer: (() => void) | null = null;
  private dueAt = Number.POSITIVE_INFINITY;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private lastText: string | null = null;
  private retryMs: number;
  private failures = 0;
  private stopped = false;

  constructor(private readonly deps: FloorReporterDeps) {
    this.timing = { ...defaultReporterTiming, ...deps.timing };
    this.retryMs = this.timing.retryMs;
  }

  /** Starts reporting: the first report now. */
  start(): void {
    this.arm(0);
  }

  /** Something the report shows may have changed. Cheap: a flag and at most one timer. */
  changed(): void {
    if (this.stopped) return;
    this.dirty = true;
    if (this.writing || this.failures > 0) return;
    const delay = Math.max(this.timing.settleMs, this.lastWriteAt + this.timing.minGapMs - this.deps.timers.now());
    // A write already due sooner keeps its time: changes every few milliseconds never put it off.
    if (this.cancelTimer && this.dueAt <= this.deps.timers.now() + delay) return;
    this.arm(delay);
  }

  /** The store answers again: write now instead of at the next retry. */
  storeBack(): void {
    if (this.stopped || this.writing) return;
    this.retryMs = this.timing.retryMs;
    this.arm(0);
  }

  /** Writes that failed in a row (the store away). */
  get failedWrites(): number {
    return this.failures;
  }

  /** Stops reporting and says so with a last report (given up after `withinMs` when the store does not answer). */
  async stop(withinMs = 2_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    await this.writing;
    const last = (async () => {
      const report = await this.deps.build(new Date(this.deps.timers.now()).toISOString());
      await this.deps.write(report, new Date(this.deps.timers.now()).toISOString(), true);
    })();
    last.catch(() => undefined);
    await Promise.race([last, new Promise<void>((resolve) => this.deps.timers.after(withinMs, resolve))]);
  }

  private arm(ms: number): void {
    this.cancelTimer?.();
    this.dueAt = this.deps.timers.now() + Math.max(0, ms);
    this.cancelTimer = this.deps.timers.after(Math.max(0, ms), () => {
      this.cancelTimer = null;
      this.dueAt = Number.POSITIVE_INFINITY;
      this.writing = this.writeNow().finally(() => {
        this.writing = null;
      });
    });
  }

  private async writeNow(): Promise<void> {
    if (this.stopped) return;
    const heartbeatDue = this.deps.timers.now() - this.lastWriteAt >= this.timing.heartbeatMs;
    const wasDirty = this.dirty;
    this.dirty = false;
    try {
      const report = await this.deps.build(null);
      const text = JSON.stringify(report);
      const changed = text !== this.lastText;
      if (changed || heartbeatDue) {
        const at = new Date(this.deps.timers.now()).toISOString();
        await this.deps.write(report, at, changed);
        this.lastText = text;
        this.lastWriteAt = this.deps.timers.now();
      }
      this.failures = 0;
      this.retryMs = this.timing.retryMs;
    } catch (error) {
      this.dirty ||= wasDirty;
      this.failures += 1;
      // Said once per outage; the retries say nothing more.
      if (this.failures === 1) this.deps.logger.warn('the floor report could not be written; trying again', { error: errorText(error) });
      if (this.stopped) return;
      const pause = this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, this.timing.maxRetryMs);
      this.arm(pause);
      return;
    }
    if (this.stopped) return;
    // A change while writing is written after the gap; otherwise the next heartbeat.
    const sinceWrite = this.deps.timers.now() - this.lastWriteAt;
    this.arm(this.dirty ? Math.max(this.timing.settleMs, this.timing.minGapMs - sinceWrite) : this.timing.heartbeatMs - sinceWrite);
  }
}
