// The one interface every way of reaching a printer implements, and the error every one of them
// throws. The print queue builds on this: it needs to know, after a failure, whether the printer
// may have received part of a label (then the label is "uncertain" and never resent by itself).
import { StationError, type ErrorCode, type ErrorFacts } from '../../../shared/errors';
import type { HostStatus } from '../../../shared/zebra/host-status';
import type { PrinterAddressKind } from '../../../shared/zebra/printer-address';
import type { ZebraQuery } from '../../../shared/zebra/queries';

export type DocumentFormat = 'zpl' | 'pdf';

export interface SendOptions {
  /** Aborting closes the connection (or abandons the job) and rejects with failure "cancelled". */
  signal?: AbortSignal;
  /** Shown in OS queue job lists. */
  jobName?: string;
  /**
   * Zebra transports (network, USB): after the data, ask ~HS on the same connection and wait for
   * the answer. A Zebra reads its input in order, so an answer proves it has read every byte sent
   * before the question. Default true; a transport without status read-back ignores it.
   */
  confirm?: boolean;
}

export interface SendResult {
  /** Bytes the OS (socket, USB stack, spooler, lp) took: all of them on success. */
  bytesWritten: number;
  /** The printer answered a status query sent after the data (see SendOptions.confirm). */
  confirmed: boolean;
  /** The parsed ~HS answer that confirmed the send. */
  status?: HostStatus;
  /** OS queue job id: "Zebra_ZD421-12" from CUPS, "7" from the Windows spooler. */
  jobId?: string;
  /** Set when the data took another route than the printer's own (a USB printer through its OS queue). */
  route?: 'fallback-os-queue';
}

export interface QueryOptions {
  /** Time allowed for the whole answer; no answer in time is a fault (PRINTER_OFFLINE). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface PrinterTransport {
  readonly kind: PrinterAddressKind;
  readonly format: DocumentFormat;
  /** "the printer at 10.0.0.5:9100": for messages and logs. */
  readonly description: string;
  /** Sends one document (one or more ZPL formats, or one PDF). Operations on one transport never overlap. */
  send(data: Uint8Array, options?: SendOptions): Promise<SendResult>;
  /**
   * Present on transports that read answers from the printer (network and USB Zebras). Resolves
   * with the complete raw answer; parse it with src/shared/zebra.
   */
  query?(query: ZebraQuery, options?: QueryOptions): Promise<string>;
  /** Closes any open connection or device. The transport may be used again afterwards. */
  close(): Promise<void>;
  /**
   * How many connections to the printer this transport has opened (network Zebras). A printer that
   * restarts always breaks its connection, so an answer read on the connection a label was sent on
   * proves the printer did not restart in between. Absent: the transport cannot tell.
   */
  readonly connectionCount?: number;
  /** False once the connection counted by connectionCount is gone (the next send or question opens another). */
  readonly connected?: boolean;
}

/** A transport that can read answers from the printer. */
export type StatusTransport = PrinterTransport & Required<Pick<PrinterTransport, 'query'>>;

export function canQuery(transport: PrinterTransport): transport is StatusTransport {
  return typeof transport.query === 'function';
}

export type TransportFailure =
  | 'refused'
  | 'unreachable'
  | 'connect-timeout'
  | 'write-timeout'
  | 'reset'
  | 'no-answer'
  | 'bad-answer'
  | 'cancelled'
  | 'not-found'
  | 'not-accepting'
  | 'service-unavailable'
  | 'access-denied'
  | 'driver'
  | 'busy'
  | 'disconnected'
  | 'rejected'
  | 'failed';

/**
 * How much of the data may have reached the printer:
 * - none: nothing was handed over; sending again cannot print twice;
 * - partial: some bytes were handed over, not all (a format may be cut, or complete after all);
 * - unconfirmed: everything was handed over but nothing proved the printer read it.
 */
export type Delivery = 'none' | 'partial' | 'unconfirmed';

export interface TransportErrorFacts {
  failure: TransportFailure;
  delivery?: Delivery;
  bytesWritten?: number;
  totalBytes?: number;
  /** The station could not use the printer's own route but its OS queue would work. */
  fallback?: 'os-queue';
  details?: string[];
  cause?: unknown;
  /** What the screen words the error with (StationError facts). */
  facts?: ErrorFacts;
}

export class PrinterTransportError extends StationError {
  readonly failure: TransportFailure;
  readonly delivery: Delivery;
  /** Bytes of the failed send the OS took before the failure (0 for queries). */
  readonly bytesWritten: number;
  readonly totalBytes: number;
  readonly fallback: 'os-queue' | undefined;

  constructor(code: ErrorCode, message: string, facts: TransportErrorFacts) {
    super(code, message, facts.details, { cause: facts.cause, ...(facts.facts ? { facts: facts.facts } : {}) });
    this.name = 'PrinterTransportError';
    this.failure = facts.failure;
    this.bytesWritten = facts.bytesWritten ?? 0;
    this.totalBytes = facts.totalBytes ?? 0;
    this.delivery = facts.delivery ?? deliveryOf(this.bytesWritten, this.totalBytes);
    this.fallback = facts.fallback;
  }

  /** True when the printer may have printed some or all of what was sent: never resend on your own. */
  get uncertain(): boolean {
    return this.delivery !== 'none';
  }
}

/** Delivery for a send that failed after `written` of `total` bytes were handed over. */
export function deliveryOf(written: number, total: number): Delivery {
  if (written <= 0) return 'none';
  return written < total ? 'partial' : 'unconfirmed';
}
