/**
 * The floor as this bench sees it: every bench's last report, kept in memory, changed by the
 * notifications benches send (LISTEN), read whole only at the start and after the listening
 * connection was lost. A bench not heard from for `silentAfterMs` reads as not answering, since
 * when it was last heard; a ticker on the injected clock finds it. Each change goes to the
 * screen as a `floor.bench` event.
 */
import { BenchReportSchema, type BenchReportData, type FloorBenchData, type FloorListData } from '../../shared/contract/floor';
import type { Logger } from '../logging/logger';
import type { Subscription } from '../store';
import { ReportMessageSchema, type FloorStore, type StoredReport } from './floor-store';
import { parseJsonWith, type FloorTimers } from './floor-timers';
import { errorText } from '../../shared/error-text';

/** After this long without a report or heartbeat, a bench reads as not answering. */
export const defaultSilentAfterMs = 30_000;

interface Known {
  report: BenchReportData;
  sequence: number;
  heardAt: number;
  answering: FloorBenchData['answering'];
}

export interface FloorViewDeps {
  store: FloorStore;
  selfId: string;
  silentAfterMs: number;
  timers: Pick<FloorTimers, 'now' | 'every'>;
  emit(bench: FloorBenchData): void;
  logger: Logger;
}

/** How a bench reads at `now`, from when it was last heard. */
export function answeringAt(report: Pick<BenchReportData, 'stoppedAt'>, heardAt: number, now: number, silentAfterMs: number): FloorBenchData['answering'] {
  if (report.stoppedAt !== null) return 'stopped';
  return now - heardAt > silentAfterMs ? 'silent' : 'yes';
}

export class FloorView {
  private readonly known = new Map<string, Known>();
  private subscription: Subscription | null = null;
  private stopTicker: (() => void) | null = null;
  private following = false;

  constructor(private readonly deps: FloorViewDeps) {}

  /** Hears every report from now on and reads what is there; idempotent. */
  async follow(): Promise<void> {
    if (this.following) return;
    this.following = true;
    this.stopTicker = this.deps.timers.every(Math.max(100, Math.min(1_000, Math.floor(this.deps.silentAfterMs / 4))), () => this.tick());
    try {
      this.subscription = await this.deps.store.followReports({
        onMessage: (payload) => this.heard(payload),
        onGap: () => void this.readAll().catch((error: unknown) => this.failed(error)),
      });
      await this.readAll();
    } catch (error) {
      this.following = false;
      this.stopTicker();
      this.stopTicker = null;
      throw error;
    }
  }

  /** The floor now. Without following (a command-line `floor`), read from the store at once. */
  async list(): Promise<FloorListData> {
    if (!this.following) await this.readAll(false);
    const now = this.deps.timers.now();
    return {
      mode: 'warehouse',
      benchId: this.deps.selfId,
      silentAfterMs: this.deps.silentAfterMs,
      benches: [...this.known.values()].map((known) => this.asBench(known, now)),
    };
  }

  bench(benchId: string): FloorBenchData | null {
    const known = this.known.get(benchId);
    return known ? this.asBench(known, this.deps.timers.now()) : null;
  }

  async close(): Promise<void> {
    this.stopTicker?.();
    this.stopTicker = null;
    this.following = false;
    await this.subscription?.close();
    this.subscription = null;
  }

  private heard(payload: string): void {
    const message = parseJsonWith(ReportMessageSchema, payload);
    if (!message) return;
    const { bench, sequence, reportedAt } = message;
    const known = this.known.get(bench);
    if (known && sequence <= known.sequence) return;
    const now = this.deps.timers.now();
    // A heartbeat right after the report this bench knows: the same report, heard again.
    if (message.unchanged && known && known.sequence === sequence - 1) {
      this.keep({ report: known.report, sequence, reportedAt }, now);
      return;
    }
    const report = message.report === undefined ? null : BenchReportSchema.safeParse(message.report);
    if (report?.success) {
      this.keep({ report: report.data, sequence, reportedAt }, now);
      return;
    }
    // Too long to travel, or a heartbeat of a bench not known yet: its row says it.
    void this.deps.store
      .report(bench)
      .then((stored) => {
        if (stored) this.keep(stored, this.deps.timers.now());
      })
      .catch((error: unknown) => this.failed(error));
  }

  private async readAll(announce = true): Promise<void> {
    const rows = await this.deps.store.reports();
    const now = this.deps.timers.now();
    // Read, not heard: a row tells when its bench wrote it (its clock; benches keep time by NTP).
    for (const row of rows) this.keep(row, Math.min(now, Date.parse(row.reportedAt) || now), announce);
  }

  private keep(stored: StoredReport, heardAt: number, announce = true): void {
    const known = this.known.get(stored.report.benchId);
    if (known && stored.sequence <= known.sequence) return;
    const changed = !known || JSON.stringify(known.report) !== JSON.stringify(stored.report);
    const answering = answeringAt(stored.report, heardAt, this.deps.timers.now(), this.deps.silentAfterMs);
    const next: Known = { report: stored.report, sequence: stored.sequence, heardAt, answering };
    this.known.set(stored.report.benchId, next);
    if (announce && (changed || answering !== known?.answering)) this.deps.emit(this.asBench(next, this.deps.timers.now()));
  }

  private tick(): void {
    const now = this.deps.timers.now();
    for (const known of this.known.values()) {
      const answering = answeringAt(known.report, known.heardAt, now, this.deps.silentAfterMs);
      if (answering === known.answering) continue;
      known.answering = answering;
      this.deps.emit(this.asBench(known, now));
    }
  }

  private asBench(known: Known, now: number): FloorBenchData {
    return {
      ...known.report,
      answering: answeringAt(known.report, known.heardAt, now, this.deps.silentAfterMs),
      heardAt: new Date(known.heardAt).toISOString(),
      self: known.report.benchId === this.deps.selfId,
    };
  }

  private failed(error: unknown): void {
    this.deps.logger.warn('the floor could not be read', { error: errorText(error) });
  }
}
