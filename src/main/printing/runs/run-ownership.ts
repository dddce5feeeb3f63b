/**
 * Which station process owns a run. The app and the CLI share one database: a run is recovered
 * (and may be resumed elsewhere) only once the process printing it is gone. Recovery settles what
 * a stop left mid-send: those labels become uncertain, bundle runs wait to be resumed, and a
 * single print is closed (a parcel scanned minutes ago is not printed out of the blue).
 */
import { randomUUID } from 'node:crypto';
import type { PauseReasonData } from '../../../shared/contract/printing';
import { StationError } from '../../../shared/errors';
import type { Logger } from '../../logging/logger';
import type { RunRow } from '../journal/journal-types';
import type { RunRecords } from '../journal/run-records';
import type { QueueClock } from '../queue/clock';
import { processAlive } from '../../process-alive';
import { sameBoot, type BootMark } from '../../boot-identity';
import { writtenAheadOfDisk } from '../journal/run-kinds';

export const stationStopped: Omit<PauseReasonData, 'since'> = {
  by: 'station',
  code: 'PRINTER_OFFLINE',
  message: 'The station stopped during this run.',
  action: 'Press Resume to print the rest. Labels already sent are not sent again; labels that were being sent are listed as uncertain.',
  fault: null,
};

/**
 * A bench renews the heartbeat of the runs it prints at this interval; another bench reads a run
 * whose heartbeat is older than the limit as left by a bench that is gone (six beats missed: a
 * bench busy for a moment, or a slow store, is not taken for gone).
 */
export const heartbeatDefaults = { intervalMs: 10_000, goneAfterMs: 60_000 };

export class RunOwnership {
  /** This process, as the owner of the runs it prints. */
  readonly owner: { pid: number; instance: string; boot: BootMark };

  constructor(
    /** The journal (PrintJournal): the bench writing and its runs' records. */
    private readonly journal: { readonly benchId: string | null; readonly runRecords: RunRecords },
    private readonly logger: Logger,
    private readonly clock: QueueClock,
    /** True when this process has the run live in memory. */
    private readonly isLive: (runId: string) => boolean,
    boot: BootMark,
    private readonly goneAfterMs = heartbeatDefaults.goneAfterMs,
  ) {
    this.owner = { pid: process.pid, instance: randomUUID(), boot };
  }

  /** The run is owned by another bench of the warehouse (a process id means nothing across computers). */
  private ofAnotherBench(run: RunRow): boolean {
    const mine = this.journal.benchId;
    return mine !== null && run.bench !== null && run.bench !== undefined && run.bench !== mine;
  }

  /** The owner's heartbeat is older than the limit (or was never written). */
  private heartbeatStopped(run: RunRow): boolean {
    const beat = run.heartbeatAt ? Date.parse(run.heartbeatAt) : Number.NaN;
    return !Number.isFinite(beat) || this.clock.now() - beat > this.goneAfterMs;
  }

  /**
   * The run's process ran in an earlier boot of the computer (or doubt about it): a power loss
   * may have taken writes that did not wait for the disk. Runs of versions that recorded no boot
   * wrote "sending began" to disk before sending.
   */
  private computerRestartedSince(run: RunRow): boolean {
    const boot = run.options.owner?.boot;
    return boot !== undefined && !sameBoot(boot, this.owner.boot);
  }

  /** No live station process is printing the run (its owner is gone, or it never had one). */
  isOrphan(run: RunRow): boolean {
    if (this.ofAnotherBench(run)) return this.heartbeatStopped(run);
    const owner = run.options.owner;
    if (!owner) return true;
    if (owner.instance === this.owner.instance) return !this.isLive(run.id);
    // A process with this one's pid but another instance was an earlier life of the same pid.
    if (owner.pid === process.pid) return true;
    return !processAlive(owner.pid);
  }

  /** Settles the runs `which` selects (by default every run whose process is gone). */
  async recover(which: (run: RunRow) => boolean = (run) => !this.ofAnotherBench(run) && this.isOrphan(run)): Promise<void> {
    const report = await this.journal.runRecords.recoverInterrupted(
      { ...stationStopped, since: new Date(this.clock.now()).toISOString() },
      'The station stopped while sending this label, so it may or may not have printed. Check the printer and say whether it came out.',
      'Not sent: the station stopped before this label reached the printer.',
      'The station stopped after the printer took this label but before the printer showed it had printed it, so it may or may not have come out. Check the printer and say whether it came out.',
      which,
      {
        since: (run) => writtenAheadOfDisk(run) && this.computerRestartedSince(run),
        reason:
          'The computer shut down while this label was being fetched or sent (a power cut?), so the station cannot tell whether it reached the printer. Check the printer and say whether it came out.',
      },
    );
    if (report.pausedRuns.length + report.uncertain.length + report.closedRuns.length > 0) {
      this.logger.warn('print runs interrupted by a stop were recovered', {
        pausedRuns: report.pausedRuns.length,
        closedRuns: report.closedRuns.length,
        uncertainLabels: report.uncertain.length,
      });
    }
  }

  /** Throws unless this process may take the run over (it is paused or running, and orphaned). */
  requireOrphan(run: RunRow): void {
    if (run.state !== 'paused' && run.state !== 'running') throw notRunning(run.id);
    if (!this.isOrphan(run)) throw elsewhere(run);
  }

  /**
   * Takes over a run whose owner is gone (requireOrphan first): with one conditional write, so of
   * two benches taking it at once only one does; the other is told it is printed elsewhere.
   * Returns the options the run now carries.
   */
  async takeOver(run: RunRow): Promise<RunRow['options']> {
    this.requireOrphan(run);
    const options = { ...run.options, owner: this.owner };
    if (!(await this.journal.runRecords.takeOver(run, options))) throw elsewhere(run);
    return options;
  }
}

function elsewhere(run: RunRow): StationError {
  const where = run.benchName ? `at ${run.benchName}` : `by another window of the station (process ${run.options.owner?.pid ?? '?'})`;
  return new StationError('CONFLICT', `This run is being printed ${where}. Control it there.`, undefined, {
    facts: { subject: 'run-elsewhere', id: run.id },
  });
}

export function notRunning(runId: string): StationError {
  return new StationError('CONFLICT', `Print run ${runId} is finished or cancelled; nothing is left to do.`, undefined, { facts: { subject: 'run-over', id: runId } });
}
