// What the virtual Zebra reports about itself: printed labels, discarded formats, events,
// statistics and state. Plain data, so a control API can send it as JSON.
import type { PrinterSettingsValues } from './printer-memory';
import type { PrinterFaults } from './printer-settings';
import type { StatusSnapshot } from './status-replies';

export interface PrintedLabel {
  /** 0-based number of the label since the printer started; printed()[i].index === i until recordLimit. */
  index: number;
  /** The format's text, ^XA to ^XZ, as UTF-8, without the immediate tilde commands read inside it. */
  zpl: string;
  /** Epoch milliseconds at which the label came out. */
  printedAt: number;
  /** 1-based copy of the format (a format with ^PQ3 prints copies 1, 2 and 3). */
  copy: number;
  /** 0-based number of the format, in the order formats were received complete. */
  formatId: number;
  /**
   * The fault that stopped the engine while this copy was coming out: the copy left the printer
   * cut short (and was counted). Null for a whole copy.
   */
  cutShortBy: 'paperOut' | 'headOpen' | 'ribbonOut' | null;
  /** This copy is the printer's own reprint of a copy cut short by a fault (^JZY, reprint after error). */
  reprint: boolean;
}

export type DiscardReason = 'connection-dropped' | 'connection-closed' | 'oversize' | 'cancelled' | 'power-cycle';

export interface DiscardedFormat {
  reason: DiscardReason;
  /** The text received of the format (the first 4 KiB for an oversize format). */
  zpl: string;
  byteLength: number;
  discardedAt: number;
}

export interface ReceivedFormat {
  formatId: number;
  byteLength: number;
  receivedAt: number;
}

export interface ConnectionInfo {
  id: number;
  remoteAddress: string;
  remotePort: number;
}

export interface FaultChange {
  fault: keyof PrinterFaults;
  value: PrinterFaults[keyof PrinterFaults];
  /** What changed it: a setFaults call, a command on the wire, or the printer itself. */
  cause: 'control' | 'command' | 'printer';
  faults: PrinterFaults;
}

export interface VirtualZebraStats {
  /** Complete formats (^XA…^XZ) taken into the receive buffer. */
  formatsReceived: number;
  /** Formats whose last label has been printed. */
  formatsPrinted: number;
  labelsPrinted: number;
  formatsDiscarded: number;
  /** The most formats ever waiting in the receive buffer at once (the one printing included). */
  maxFormatsInBuffer: number;
  /**
   * Milliseconds the print engine stood ready with nothing to print between two labels: for each
   * label after the first, the time from the end of the previous label to its start, minus the
   * time in that gap when a fault or pause kept the engine from printing. Time before the first
   * and after the last label (since start or resetStats) is not counted.
   */
  idleMs: number;
  /** Milliseconds spent printing labels (interrupted labels included). */
  busyMs: number;
  /** Bytes read from all connections, noise and status queries included. */
  bytesReceived: number;
  connectionsAccepted: number;
  /** Times the printer stopped reading a connection because its receive buffer was full. */
  readsPaused: number;
}

/** A command that changed the printer itself or persisted settings, as it reached the printer. */
export interface ConfigurationCommand {
  /** The command's text (a download by its header, without its data), e.g. "^JUS", "~DGE:LOGO.GRF,400,10,". */
  command: string;
  /** Epoch milliseconds at which the printer read it. */
  at: number;
}

/** Who the printer is now; replaceWith puts another one at the same address. */
export interface PrinterIdentity {
  model: string;
  dpi: number;
  printWidthDots: number;
  serial: string;
}

export interface PrinterState {
  name: string;
  host: string | null;
  port: number | null;
  listening: boolean;
  faults: PrinterFaults;
  status: StatusSnapshot;
  /** Bytes held in the receive buffer: waiting formats, the one printing and formats in progress. */
  bufferedBytes: number;
  receiveBufferBytes: number;
  labelsPerSecond: number;
  connections: number;
  identity: PrinterIdentity;
  /** Labels printed over the printer's life (odometer.total_label_count). */
  odometer: number;
  /** False between the off and on of a power cycle. */
  poweredOn: boolean;
  /** Epoch milliseconds of the last power-on. */
  poweredOnAt: number;
  /** Objects in the printer's memory, e.g. "R:LOGO.GRF". */
  storedObjects: string[];
  /** ^JZ: a copy cut short by paper out, ribbon out or head open is printed again once the fault clears (Y at power-up). */
  reprintAfterError: boolean;
  /** A label is coming out of the print engine right now (a stopping fault would cut it short). */
  labelInProgress: boolean;
  /** Darkness, speed, media, label length in force now (until power-off unless saved). */
  settings: PrinterSettingsValues;
  /** What the printer powers on with (^JUS saved them). */
  savedSettings: PrinterSettingsValues;
  /** What odometer.total_label_count counts of a cut-short copy. */
  labelCounter: 'every-copy' | 'whole-labels';
  /** ~JC is measuring the media. */
  calibrating: boolean;
  /** Media run through the printer, in inches: over its life, since the printhead was cleaned, since it was new. */
  mediaInches: { total: number; sinceHeadCleaned: number; sinceHeadNew: number };
}
