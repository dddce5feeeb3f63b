/**
 * What the scan screen shows after a scan. Built from the contract's data (orders, printers,
 * journal entries and the stable error codes), so each outcome has one colour, one icon, one
 * sound and one plain-language message.
 */
import type { ScanCandidateData } from '../../../shared/contract/printing';
import type { Shipment } from '../../../shared/contract/shipping';
import type { ErrorCode, StationErrorData } from '../../../shared/errors';
import type { ScanRejection } from '../../../shared/scan';
import type { ScanOutcomeKindName } from '../../../shared/scan-outcome-kinds';
import type { ReprintReason } from './commands';
import type { SoundKind } from '../sound/tones';

export interface PrintedLabel {
  /** The order ref as the service knows it. */
  orderRef: string;
  /** Recipient name on the label. */
  recipient: string;
  printerName: string;
  /** ISO 8601. */
  printedAt: string;
  /** The scan that led to the label, to reprint it by the same words. */
  scan: string;
  /** Its row in the print journal. */
  entryId?: number;
  /** An explicit reprint. */
  reprint?: boolean;
  /** Handed to an OS queue that cannot be asked: the station cannot know whether it printed. */
  unconfirmed?: boolean;
  /** One parcel of an order shipped from the bench (parcel n of m): each has its own label. */
  parcel?: { n: number; of: number };
}

/** A label a printer fault holds: it prints when the fault clears, or the packer cancels it. */
export interface WaitingLabel {
  label: PrintedLabel;
  runId: string;
  fault: { code: ErrorCode; message: string; action: string };
  /** Already in the printer's buffer: cancelling cannot take it back. */
  inPrinter: boolean;
}

/** What became of a waiting label, from the printing.label event. */
export interface LabelUpdate {
  entryId: number;
  state: 'queued' | 'fetched' | 'sent' | 'printed' | 'failed' | 'uncertain';
  reason: string | null;
  printedAt: string | null;
  /** What the journal knows of the label, to show it green once it came out. */
  orderRef?: string | null;
  recipient?: string | null;
  printerName?: string | null;
}

export interface PreviousPrint {
  /** ISO 8601. */
  printedAt: string;
  operator: string;
  stationName: string;
  printerName: string;
}

export type ScanOutcome =
  | { kind: 'printed'; label: PrintedLabel }
  | ({ kind: 'waiting' } & WaitingLabel)
  | { kind: 'duplicate'; scan: string; orderRef: string; recipient: string; previous: PreviousPrint }
  /** The service has the label as printed (`expected`), but this station never printed it. */
  | { kind: 'elsewhere'; scan: string; orderRef: string; recipient: string }
  /** The scan fits more than one order: the packer chooses which (`more`: how many are not listed). */
  | { kind: 'ambiguous'; scan: string; candidates: readonly ScanCandidateData[]; more: number }
  | { kind: 'failed'; scan: string; error: StationErrorData; rejection?: ScanRejection }
  /** A command barcode with nothing on screen to answer. */
  | { kind: 'command-unused'; scan: string };

export type ScanOutcomeKind = ScanOutcome['kind'];
export { scanOutcomeKinds } from '../../../shared/scan-outcome-kinds';

// The shared list of kinds (the layout test's) and this union must agree both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const kindsAgree: Same<ScanOutcomeKind, ScanOutcomeKindName> = true;
void kindsAgree;

/** A slip of an order to ship from the bench: nothing printed, the ship panel opens on it. */
export interface ToShip {
  kind: 'to-ship';
  shipment: Shipment;
  /** The parcel count to offer. */
  parcels: number;
}

/** The service behind the scan screen: one call per scan, one per reprint. Never rejects. */
export interface ScanService {
  /** A scanner has begun typing: the station readies the printer for the scan that follows (printing.prepare). Nothing waits for it. */
  prepare(): void;
  /** A scan: the station decides in the same call whether it prints or is an order to ship. */
  print(scan: string): Promise<ScanOutcome | ToShip>;
  reprint(request: { scan: string; reason: ReprintReason }): Promise<ScanOutcome>;
  /** Cancels a waiting label's run (printing.cancel); never rejects. */
  cancel(runId: string): Promise<void>;
  /** Asks the printer of a waiting label again now, once the packer fixed it (printing.resume); never rejects. */
  resume(runId: string): Promise<void>;
  /** Follows the journal entries' changes (printing.label); returns the unsubscribe. */
  onLabel(listener: (update: LabelUpdate) => void): () => void;
}

export type OutcomeTone = 'success' | 'warning' | 'danger';

export function toneOf(outcome: ScanOutcome): OutcomeTone {
  switch (outcome.kind) {
    case 'printed':
      return 'success';
    case 'waiting':
      // Nothing came out yet, and the packer must act.
      return 'danger';
    case 'duplicate':
    case 'elsewhere':
    case 'ambiguous':
      return 'warning';
    case 'failed':
    case 'command-unused':
      return 'danger';
  }
}

export function soundOf(outcome: ScanOutcome): SoundKind {
  switch (toneOf(outcome)) {
    case 'success':
      return 'printed';
    case 'warning':
      return 'duplicate';
    case 'danger':
      return 'error';
  }
}

/** Error codes about the printer, not the order: the packer fixes the printer and scans again. */
export const printerErrorCodes: readonly ErrorCode[] = ['PRINTER_NOT_FOUND', 'PRINTER_OFFLINE', 'PAPER_OUT', 'HEAD_OPEN', 'PRINTER_PAUSED', 'RIBBON_OUT', 'PRINTER_ERROR', 'PRINT_UNCERTAIN', 'PRINTER_TOO_NARROW', 'PRINTER_NOT_ZEBRA', 'PRINTER_LEASED'];

/** Outcomes that print only once the packer confirms with a reason (Enter, "Print again"). */
export const asksToPrintAgain = (outcome: ScanOutcome): outcome is Extract<ScanOutcome, { kind: 'duplicate' | 'elsewhere' }> =>
  outcome.kind === 'duplicate' || outcome.kind === 'elsewhere';

export const isPrinterError = (code: ErrorCode): boolean => printerErrorCodes.includes(code);
