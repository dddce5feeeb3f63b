import type { Environment } from '../../../shared/contract/app';
import type { LabelState, PauseReasonData } from '../../../shared/contract/printing';
import type { ErrorCode } from '../../../shared/errors';

export type LabelFormat = 'zpl' | 'pdf' | 'gfa';
export type RunKind = 'single' | 'bundles' | 'test' | 'retry';
export type RunState = 'running' | 'paused' | 'cancelled' | 'finished';

/** One row of print_journal. */
export interface JournalRow {
  id: number;
  environment: Environment;
  runId: string | null;
  position: number | null;
  printerId: string;
  operator: string;
  orderId: string | null;
  bundleId: string | null;
  bundlePosition: number | null;
  bundleCount: number | null;
  format: LabelFormat;
  state: LabelState;
  reason: string | null;
  reprintOf: number | null;
  decidedBy: string | null;
  documentSha256: string | null;
  queuedAt: string;
  fetchedAt: string | null;
  /** When sending began. A row still 'queued' or 'fetched' with this set was being sent when the station stopped. */
  sentAt: string | null;
  printedAt: string | null;
  failedAt: string | null;
  uncertainAt: string | null;
  decidedAt: string | null;
  updatedAt: string;
}

export interface BundlePlanRecord {
  bundleId: string;
  route: 'zpl-per-order' | 'pdf-raster' | 'pdf';
  labels: number;
  note: string;
}

export interface SkippedRecord {
  orderId: string | null;
  bundleId: string | null;
  code: ErrorCode;
  message: string;
}

/** What a run keeps in its options column. */
export interface RunOptions {
  reverse: boolean;
  bundles: BundlePlanRecord[];
  skipped: SkippedRecord[];
  retryOf: string | null;
  /** The scan that started a single print. */
  scan: string | null;
  /** For a reprint or an override: who asked and why. */
  reprint: { operator: string; reason: string } | null;
  /**
   * The station process printing the run. The app and the CLI share one database: a run is only
   * recovered (and resumed elsewhere) once the process that owns it is gone.
   */
  owner: { pid: number; instance: string } | null;
}

export interface RunRow {
  id: string;
  environment: Environment;
  kind: RunKind;
  printerId: string;
  operator: string;
  state: RunState;
  pauseReason: PauseReasonData | null;
  options: RunOptions;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** A label to put in a new run. */
export interface NewLabel {
  orderId: string | null;
  bundleId: string | null;
  bundlePosition: number | null;
  bundleCount: number | null;
  format: LabelFormat;
  reprintOf?: number | null;
  reason?: string | null;
}
