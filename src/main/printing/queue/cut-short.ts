/**
 * Labels a fault may have cut short. Paper out, ribbon out and head open stop a Zebra in the middle
 * of the label it is printing; the watch keeps what the queue's status answers say about it: whether
 * the printer already showed such a fault (a label sent then cannot be cut by it), the label of ours
 * that left the buffer last (it may still be under the head), and whether the fault holding the
 * queue was judged. The rules are second-copy.ts's.
 */
import { errorText } from '../../../shared/error-text';
import type { SecondCopyData } from '../../../shared/contract/printing';
import { faultsFromStatus, type PrinterFault } from '../../../shared/zebra/faults';
import type { HostStatus } from '../../../shared/zebra/host-status';
import { parseReprintSetting, settingVariables, type ReprintSetting } from '../../../shared/zebra/printer-settings';
import { getvarQuery } from '../../../shared/zebra/queries';
import { parseSgdReply } from '../../../shared/zebra/sgd';
import type { Logger } from '../../logging/logger';
import { canQuery, type PrinterTransport } from '../transports/transport';
import type { Outstanding } from './print-proof';
import { mayHaveBeenUnderTheHead, secondCopyAtFault } from './second-copy';

export class CutShortWatch {
  /** The fault now holding the queue was looked at for a label it cut short. */
  private judged = false;
  /** The printer's last status showed paper out, ribbon out or head open. */
  private cuttingFaultShown = false;
  /**
   * The label of ours that left the buffer last, while none after it has. Zebra does not document
   * whether ~HS eee still counts the format whose label is printing: on a printer that stops counting
   * it as printing begins, this label may still be under the head. Cleared once a status shows
   * nothing in the buffer and no label left in a batch, with no fault (second-copy.ts).
   */
  private lastLeft: Outstanding | null = null;

  constructor(private readonly deps: { transport: PrinterTransport; logger: Logger }) {}

  /** The printer's last status showed a fault that stops it mid-label: a label sent now cannot be cut by it. */
  get faultShown(): boolean {
    return this.cuttingFaultShown;
  }

  /** Whether the printer's status shows a fault that stops it mid-label. */
  noteStatus(status: HostStatus): void {
    this.cuttingFaultShown = faultsFromStatus(status).some((fault) => cuttingFault(fault) !== null);
  }

  /** Labels left the buffer; `last` of them may still be under the head. */
  left(last: Outstanding): void {
    this.lastLeft = last;
  }

  /** A status with no fault showed nothing in the buffer and nothing left of a batch: no label is printing (~HS eee and uuuuuuuu). */
  nothingPrinting(): void {
    this.lastLeft = null;
  }

  /** The printer shows no fault: labels sent while the fault held may print, and be cut, once it is gone. */
  statusCleared(inBuffer: readonly Outstanding[]): void {
    for (const item of inBuffer) item.sentIntoFault = false;
    this.cuttingFaultShown = false;
  }

  /** The fault holding the queue is gone: the next one is judged afresh. */
  faultEnded(): void {
    this.judged = false;
  }

  /**
   * Paper out, ribbon out and head open stop a Zebra at once, in the middle of the label it is
   * printing, and with ^JZ on (its setting at power-up, "reprint after error") that label comes out
   * again, whole, once the fault is cleared. Which label that was the printer does not tell: Zebra
   * documents neither whether ~HS eee still counts the format being printed nor whether the label
   * counter counts the cut copy, and the counts the station expects rest on eee. So every label of
   * ours that may have been under the head is marked "may have", never "certain", unless the
   * printer reports reprint after error off (second-copy.ts): the first still in the buffer and the
   * one that left it last (with ~HS silent, every one in the buffer, and the one whose confirmation
   * met the silence). A label sent while the printer already showed the fault cannot have been cut
   * by it. Once per fault; true when labels were judged, which puts the due counts in doubt.
   */
  async judge(fault: PrinterFault, formatsAtFault: number | null, inBuffer: readonly Outstanding[], unconfirmed?: Outstanding): Promise<boolean> {
    const cut = cuttingFault(fault);
    if (!cut || this.judged || !canQuery(this.deps.transport)) return false;
    this.judged = true;
    const candidates = mayHaveBeenUnderTheHead({ lastLeft: this.lastLeft, inBuffer, bufferCounted: formatsAtFault !== null, unconfirmed });
    if (candidates.length === 0) return false;
    // Judged for this fault; a later one cannot tell more about it.
    this.lastLeft = null;
    const reprint = await this.readReprintSetting();
    if (secondCopyAtFault(reprint) === 'possible') for (const item of candidates) this.recordSecondCopy(item, { certainty: 'possible', fault: cut });
    return true;
  }

  /** The printer's reprint after error setting (SGD ezpl.reprint_mode); unknown when it does not say. */
  private async readReprintSetting(): Promise<ReprintSetting> {
    if (!canQuery(this.deps.transport)) return 'unknown';
    try {
      return parseReprintSetting(parseSgdReply(settingVariables.reprint, await this.deps.transport.query(getvarQuery(settingVariables.reprint))));
    } catch (error) {
      this.deps.logger.info('reprint setting not read', { printer: this.deps.transport.description, error: errorText(error) });
      return 'unknown';
    }
  }

  private recordSecondCopy(item: Outstanding, secondCopy: SecondCopyData): void {
    this.deps.logger.warn('a fault cut a label short', { printer: this.deps.transport.description, entryId: item.label.entryId, ...secondCopy });
    item.source.secondCopy(item.label, secondCopy);
  }
}

/** The fault, when it is one that stops a Zebra in the middle of a label (and ^JZ reprints after). */
function cuttingFault(fault: PrinterFault): SecondCopyData['fault'] | null {
  return fault.kind === 'paper-out' || fault.kind === 'head-open' || fault.kind === 'ribbon-out' ? fault.kind : null;
}
