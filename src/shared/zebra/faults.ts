// What a Zebra's status means for the person at the bench: each fault has the contract's error
// code, a plain sentence and what to do. The screen and the print queue use the same wording.
import type { ErrorCode } from '../errors';
import type { ErrorFlag, ExtendedStatus } from './extended-status';
import type { HostStatus } from './host-status';

export type PrinterFaultKind = 'head-open' | 'paper-out' | 'ribbon-out' | 'printer-error' | 'paused' | 'offline';

export interface PrinterFault {
  kind: PrinterFaultKind;
  code: ErrorCode;
  /** What is wrong, in one plain sentence. */
  message: string;
  /** What to do about it. */
  action: string;
}

const fixed: Record<Exclude<PrinterFaultKind, 'printer-error'>, Omit<PrinterFault, 'kind'>> = {
  'head-open': { code: 'HEAD_OPEN', message: 'The printhead is open.', action: 'Close the printhead until it clicks.' },
  'paper-out': { code: 'PAPER_OUT', message: 'The printer is out of labels.', action: 'Load a roll, then press Resume.' },
  'ribbon-out': { code: 'RIBBON_OUT', message: 'The printer is out of ribbon.', action: 'Load a new ribbon, then press Resume.' },
  paused: { code: 'PRINTER_PAUSED', message: 'The printer is paused.', action: 'Press Resume (the pause key) on the printer.' },
  offline: {
    code: 'PRINTER_OFFLINE',
    message: 'The printer does not answer.',
    action: 'Check that it is switched on and connected, then try again.',
  },
};

/** A fault of a fixed kind (everything but printer-error, which needs the printer's own reason). */
export function printerFault(kind: Exclude<PrinterFaultKind, 'printer-error'>): PrinterFault {
  return { kind, ...fixed[kind] };
}

const errorWording: Partial<Record<ErrorFlag, { message: string; action: string }>> = {
  'cutter-fault': { message: 'The printer reports a cutter fault.', action: 'Clear the cutter, then press Resume.' },
  'head-over-temperature': { message: 'The printhead is too hot.', action: 'Wait a few minutes for it to cool down.' },
  'motor-over-temperature': { message: 'The print motor is too hot.', action: 'Wait a few minutes for it to cool down.' },
  'bad-printhead-element': {
    message: 'The printhead has a broken element.',
    action: 'Labels may have white lines; have the printhead replaced.',
  },
  'paper-feed-error': { message: 'The printer cannot feed the labels.', action: 'Check the label path for a jam, then press Resume.' },
  'paper-jam-during-retract': { message: 'Labels are jammed in the printer.', action: 'Clear the jam, then press Resume.' },
  'clear-paper-path-failed': { message: 'Labels are jammed in the printer.', action: 'Clear the jam, then press Resume.' },
  'black-mark-not-found': {
    message: 'The printer cannot find the black mark on the labels.',
    action: 'Check the label roll and calibrate the printer.',
  },
  'black-mark-calibrate-error': { message: 'The printer could not calibrate the labels.', action: 'Calibrate the printer again.' },
};

const genericError = {
  message: 'The printer reports an error.',
  action: 'Look at the printer’s display or lights, clear the fault, then press Resume.',
};

// Flags that already have their own fault from ~HS; listing them again would say it twice.
const coveredByHostStatus = new Set<ErrorFlag>(['media-out', 'ribbon-out', 'head-open', 'paused']);

/**
 * The faults a status shows, most urgent first: what stops the printer and needs hands (head,
 * paper, ribbon, other errors) before a pause, which one key press clears. `host` is null when
 * the printer stayed silent to ~HS and only ~HQES answered (newer firmware in media out, ribbon
 * out or head open).
 */
export function faultsFromStatus(host: HostStatus | null, extended?: ExtendedStatus | null): PrinterFault[] {
  const faults: PrinterFault[] = [];
  if (host?.headOpen || extended?.errors.flags.includes('head-open')) faults.push(printerFault('head-open'));
  if (host?.paperOut || extended?.errors.flags.includes('media-out')) faults.push(printerFault('paper-out'));
  if (host?.ribbonOut || extended?.errors.flags.includes('ribbon-out')) faults.push(printerFault('ribbon-out'));
  if (host?.overTemperature && !extended?.errors.flags.includes('head-over-temperature')) {
    faults.push({ kind: 'printer-error', code: 'PRINTER_ERROR', ...(errorWording['head-over-temperature'] ?? genericError) });
  }
  if (host?.corruptRam) {
    faults.push({
      kind: 'printer-error',
      code: 'PRINTER_ERROR',
      message: 'The printer lost its settings (corrupt memory).',
      action: 'Check its settings, or restore its defaults, before printing.',
    });
  }
  if (extended) {
    const seen = new Set<string>();
    for (const flag of extended.errors.flags) {
      if (coveredByHostStatus.has(flag)) continue;
      const wording = errorWording[flag] ?? genericError;
      if (seen.has(wording.message)) continue;
      seen.add(wording.message);
      faults.push({ kind: 'printer-error', code: 'PRINTER_ERROR', ...wording });
    }
    if (extended.errors.otherBits !== 0 && !seen.has(genericError.message)) {
      faults.push({ kind: 'printer-error', code: 'PRINTER_ERROR', ...genericError });
    }
  }
  if (host?.paused || extended?.errors.flags.includes('paused')) faults.push(printerFault('paused'));
  return faults;
}

/** "The printer is out of labels. Load a roll, then press Resume." */
export function faultSentence(fault: PrinterFault): string {
  return `${fault.message} ${fault.action}`;
}
