/**
 * The rule that turns "the printer no longer holds this label" into "printed" — or not.
 *
 * A label of ours is printed when the printer proves it:
 * 1. its buffer drained on the very connection the label was sent on: a printer that restarts
 *    breaks every connection, so the same connection means no restart in between; or
 * 2. the drain was seen on another connection (an idle close, a reset, the station restarted),
 *    and the printer's marks say it carried on: the same serial number, and a time since power-on
 *    (in whole seconds, rounded down) at least the time since the label reached it; or
 * 3. its life label counter (odometer) reached the count the label was due at.
 * When the counter and the label's due count are known they decide alone (the counter only goes
 * up, one per label); the time since power-on is for printers or labels without them.
 * Anything else — a restart, another printer at the address, a printer that cannot say — makes the
 * label uncertain with the reason: it may have been lost with the buffer, and only a person decides
 * whether it is printed again.
 */
import type { LabelSource, QueueLabel } from './label-source';
import type { PrinterMarks } from './printer-marks';

/** What the station knows about a label from when it reached the printer. */
export interface LabelProof {
  /** Wall-clock ms when the printer confirmed it had the label. */
  sentAtMs: number;
  /** The transport's connection the label went on; null when unknown (a run resumed after a restart of the station). */
  epoch: number | null;
  /** The printer's serial number then, when known. */
  serial: string | null;
  /** The printer's label counter once this label (and every label before it) has printed, when known. */
  odometerTarget: number | null;
}

/** A label of ours in the printer (or out of it, awaiting its verdict), with what proves it printed. */
export interface Outstanding {
  label: QueueLabel;
  source: LabelSource;
  proof: LabelProof;
  /**
   * The printer already showed paper out, ribbon out or head open when this label was sent: that
   * fault cannot have cut it short (a later one, after the fault cleared, can).
   */
  sentIntoFault?: boolean;
}

/** Where and when the drain was seen. */
export interface DrainSighting {
  epoch: number | null;
  /** The printer's marks read on that connection; null when they are not needed or could not be read. */
  marks: PrinterMarks | null;
  nowMs: number;
}

export type Verdict = { printed: true; proof: 'same-connection' | 'no-restart' | 'label-counter' } | { printed: false; reason: string };

/**
 * The printer reports whole seconds (rounded down): its true time since power-on is less than
 * what it reports plus this.
 */
export const uptimeResolutionSeconds = 1;

/** True when the verdict needs the printer's marks (the drain was not seen on the label's own connection). */
export function needsMarks(label: LabelProof, epoch: number | null): boolean {
  return label.epoch === null || epoch === null || label.epoch !== epoch;
}

export function judgeDrained(label: LabelProof, seen: DrainSighting): Verdict {
  if (!needsMarks(label, seen.epoch)) return { printed: true, proof: 'same-connection' };
  const marks = seen.marks;
  if (!marks) return { printed: false, reason: 'The printer’s marks could not be read, so nothing proves this label printed.' };
  if (label.serial !== null && marks.serial !== null && label.serial !== marks.serial) {
    return {
      printed: false,
      reason: `This label was in the buffer of printer ${label.serial}, but printer ${marks.serial} now answers at its address: it may have been lost with the other printer. Check whether it printed.`,
    };
  }
  if (label.odometerTarget !== null && marks.odometer !== null) {
    // The counter only goes up, one per label: below the target, this label has not come out.
    if (marks.odometer >= label.odometerTarget) return { printed: true, proof: 'label-counter' };
    return {
      printed: false,
      reason: `This label left the printer’s buffer, but the printer’s label counter (${marks.odometer}) never reached ${label.odometerTarget}, the count it was due at: the printer probably restarted and lost it. Check whether it printed.`,
    };
  }
  const sinceSentSeconds = (seen.nowMs - label.sentAtMs) / 1000;
  if (marks.uptimeSeconds === null) {
    return {
      printed: false,
      reason:
        'The printer was reconnected while this label was in its buffer and it does not report its time since power-on (device.uptime), so a restart that lost it cannot be ruled out. Check whether it printed.',
    };
  }
  if (marks.uptimeSeconds + uptimeResolutionSeconds <= sinceSentSeconds) {
    return {
      printed: false,
      reason: `The printer restarted (on for ${marks.uptimeSeconds} s, the label reached it ${Math.round(sinceSentSeconds)} s ago) while this label was in its buffer: it was probably lost. Check whether it printed.`,
    };
  }
  // Only a time since power-on of at least the label's age proves the printer was on all along;
  // in between, a restart in the second its whole-second count hides cannot be ruled out.
  if (marks.uptimeSeconds < sinceSentSeconds) {
    return {
      printed: false,
      reason: `The printer may have restarted while this label was in its buffer (it reports ${marks.uptimeSeconds} s since power-on, in whole seconds; the label reached it ${sinceSentSeconds.toFixed(1)} s ago), and it could be lost. Check whether it printed.`,
    };
  }
  return { printed: true, proof: 'no-restart' };
}
