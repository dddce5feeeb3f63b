/**
 * Whether a label of ours came out twice after paper out, ribbon out or head open, from what the
 * printer documents or says about itself, never from how its label counter or its buffer count is
 * assumed to behave.
 *
 * Zebra documents (ZPL II Programming Guide, ^JZ) that with reprint after error on — Y at power-up —
 * a label cut short by one of those faults prints again whole once the fault is cleared. Zebra does
 * not document whether odometer.total_label_count counts the cut-short copy, nor whether ~HS eee
 * ("number of formats in receive buffer") still counts the format whose label is printing. So:
 *
 * - the reprint setting read from the printer as off: the cut copy stands for the label, nothing is
 *   said;
 * - on or unknown: two labels of ours may have been under the head — the first eee still counts,
 *   and the one before it, which left that count last (on a printer that stops counting a format as
 *   it begins printing it, that one is printing) — and each **may** have come out twice. The one
 *   before is out of the question once a later label left the count (a printer prints its formats
 *   in order) or a status without a fault showed an empty buffer and no label left in a batch
 *   (~HS uuuuuuuu);
 * - never **certain**: the label counter could show the extra copy only against the count due for
 *   each label, and those counts are taken from eee (a count "between two answers with the same
 *   formats in the buffer" is exact only if eee counts the format printing). On a printer that does
 *   not, a due count is one short, and "the counter shows one more" is no second copy at all.
 */
import type { SecondCopyData } from '../../../shared/contract/printing';
import type { ReprintSetting } from '../../../shared/zebra/printer-settings';

export type SecondCopyVerdict = Extract<SecondCopyData['certainty'], 'possible'> | 'none';

/** A cutting fault with a label of ours that may have been under the head: what to say of it. */
export function secondCopyAtFault(reprint: ReprintSetting): SecondCopyVerdict {
  return reprint === 'off' ? 'none' : 'possible';
}

/** A label of ours as the queue knows it at a fault. */
export interface LabelAtFault {
  /** The printer already showed paper out, ribbon out or head open when it was sent: that fault cannot have cut it. */
  sentIntoFault?: boolean;
}

/**
 * The labels of ours a cutting fault may have caught under the head, oldest first: the one that left
 * the buffer last (`lastLeft`, null once out of the question) and the first still in it; when the
 * printer gave no buffer count at the fault (silent to ~HS), every one in the buffer and the one
 * whose confirmation met the silence.
 */
export function mayHaveBeenUnderTheHead<T extends LabelAtFault>(at: { lastLeft: T | null; inBuffer: readonly T[]; bufferCounted: boolean; unconfirmed?: T }): T[] {
  const exposed = at.inBuffer.filter((item) => !item.sentIntoFault);
  const inBuffer = at.bufferCounted ? exposed.slice(0, 1) : [...exposed, ...(at.unconfirmed ? [at.unconfirmed] : [])];
  return at.lastLeft && !at.lastLeft.sentIntoFault ? [at.lastLeft, ...inBuffer] : inBuffer;
}
