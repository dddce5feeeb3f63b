/**
 * Whether a label of ours came out twice after paper out, ribbon out or head open, from what the
 * printer documents or says about itself, never from how its label counter is assumed to behave.
 *
 * Zebra documents (ZPL II Programming Guide, ^JZ) that with reprint after error on — Y at power-up —
 * a label cut short by one of those faults prints again whole once the fault is cleared. Zebra does
 * not document whether odometer.total_label_count counts the cut-short copy. So:
 *
 * - the reprint setting read from the printer as off: the cut copy stands for the label, nothing is
 *   said;
 * - on or unknown, with a label of ours in the buffer at the fault (it may be the one under the
 *   head): a second copy **may** have come out, unless the printer's own counter shows more labels
 *   than whole ones left its buffer;
 * - **certain** only when the counter, read from the printer, shows that extra label (a copy of a
 *   label still in its buffer counted at the fault, or one label more than was sent once the buffer
 *   is empty) and the printer says reprint after error is on: a counter that counts whole labels
 *   only never shows it, and the label stays "may have".
 */
import type { SecondCopyData } from '../../../shared/contract/printing';
import type { ReprintSetting } from '../../../shared/zebra/printer-settings';

export type SecondCopyCertainty = SecondCopyData['certainty'];

/**
 * At the fault, for the first label of ours still in the buffer: `counter` read exactly (nothing
 * finished while it was read) and `target`, the count due once that label has printed whole.
 * `undecided`: wait until the printer holds nothing of ours (secondCopyOnceEmpty).
 */
export function secondCopyAtFault(reprint: ReprintSetting, counter: number | null, target: number | null): SecondCopyCertainty | 'none' | 'undecided' {
  if (reprint === 'off') return 'none';
  if (counter !== null && target !== null && counter === target) return reprint === 'on' ? 'certain' : 'possible';
  return 'undecided';
}

/**
 * Once the printer holds nothing of ours and no fault: `extra`, the label counter read exactly less
 * the count due from before the fault (null when either is unknown); `candidates`, the labels that
 * may have been under the head.
 */
export function secondCopyOnceEmpty(reprint: ReprintSetting, extra: number | null, candidates: number): SecondCopyCertainty | 'none' {
  if (reprint === 'off') return 'none';
  return reprint === 'on' && extra === 1 && candidates === 1 ? 'certain' : 'possible';
}
