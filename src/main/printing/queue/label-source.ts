import type { LabelMarkStore } from './label-marks';
import type { SecondCopyData } from '../../../shared/contract/printing';
import type { PrinterFault } from '../../../shared/zebra/faults';

/** One label ready to go to the printer. */
export interface QueueLabel {
  /** Its row in the print journal. */
  entryId: number;
  runId: string;
  bytes: Uint8Array;
  /** ZPL formats in the document (a rasterised page is one; a PDF job counts as one). */
  formats: number;
  /** A label sent in an earlier session of the station (adopted): when sending began, per the journal. */
  sentAtMs?: number;
}

export type NextLabel = { kind: 'label'; label: QueueLabel } | { kind: 'wait' } | { kind: 'none' };

/** How the queue serves a source's labels: each way it treats a label a person waits for, named. */
export interface Serving {
  /** Sent before the labels of sources served in turn, at the next label boundary. */
  readonly goesFirst: boolean;
  /**
   * Sent only after a printer status read since the source arrived (asked while its label is
   * fetched), so it never goes to a printer in a fault unasked.
   */
  readonly statusFirst: boolean;
  /**
   * Nothing the queue does for its own sake stands between the label and its answer: no label
   * counter baseline before it, no state event before its bytes, its marks kept on the next turn
   * of the event loop, and no pause after a start that could not be journalled (the label fails).
   */
  readonly answerFirst: boolean;
}

/** A label a person at the bench waits for: a packer's scan, a printer's test label. */
export const personWaiting: Serving = { goesFirst: true, statusFirst: true, answerFirst: true };

/** A shift run's labels: in turn, in the order the runs started. */
export const inTurn: Serving = { goesFirst: false, statusFirst: false, answerFirst: false };

/**
 * What the printer queue pulls labels from: a print run. The queue calls these in the order
 * things happen to a label; each but `sending` returns at once (the source queues its journal
 * write and event), so the queue's timing is not held up.
 */
export interface LabelSource {
  readonly runId: string;
  readonly serving: Serving;
  /**
   * Where this source's labels keep what the printer said as each reached it: beside the journal
   * its labels are in (label ids are each store's own). Without it, the queue's own.
   */
  readonly marks?: LabelMarkStore;
  /** The next label in the run's order: ready, still being fetched ('wait'), or nothing to send now ('none'). */
  next(): NextLabel;
  /** Just before the first byte leaves: resolves once the journal has it (the queue sends nothing before). */
  sending(label: QueueLabel): Promise<void>;
  /** Nothing of the label reached the printer; it stays next in line. */
  notSent(label: QueueLabel): void;
  /**
   * "Sending began" could not be journalled (the shared store went away after the label was
   * fetched): no byte was sent. A scan's label fails with that reason; a run's stays next in line.
   */
  notBegun(label: QueueLabel, error: unknown): void;
  /**
   * The printer confirmed it has the whole label (or the OS queue took the job). The source
   * journals it with a commit that waits for the disk — at once, or for a scan on the next turn of
   * the event loop, after its answer — and what the queue recorded just before goes with it.
   */
  sent(label: QueueLabel, fault: PrinterFault | null): void;
  /** Part or all of the label may have reached the printer, but nothing proves it: never resent by itself. */
  uncertain(label: QueueLabel, reason: string): void;
  /**
   * A fault cut the label short while it printed: the printer may put it out twice (certain when
   * its label counter showed the cut copy). Comes before the label's verdict; it prints on.
   */
  secondCopy(label: QueueLabel, secondCopy: SecondCopyData): void;
  /** The printer proved these labels of this source printed (see print-proof.ts). */
  printed(labels: QueueLabel[]): void;
  /** The printer stopped with a fault; the run waits. */
  printerPaused(fault: PrinterFault): void;
  /** The fault cleared. */
  printerResumed(): void;
}
