// Status read-back from a Zebra: ~HS for paper, head, ribbon, pause and the formats in its buffer,
// ~HQES for the errors ~HS does not show. No answer in time is a fault (PRINTER_OFFLINE), never
// "probably fine".
import { StationError } from '../../../shared/errors';
import { parseExtendedStatus, type ExtendedStatus } from '../../../shared/zebra/extended-status';
import { faultSentence, faultsFromStatus, type PrinterFault } from '../../../shared/zebra/faults';
import { parseHostStatus, type HostStatus } from '../../../shared/zebra/host-status';
import { extendedStatusQuery, hostStatusQuery } from '../../../shared/zebra/queries';
import { ZebraReplyError } from '../../../shared/zebra/reply-error';
import { PrinterTransportError, type StatusTransport } from '../transports/transport';

export interface PrinterStatusReport {
  /**
   * Null when the printer gave no ~HS answer and ~HQES named the fault that silences it (Zebra's
   * newer firmware sends no ~HS answer in media out, ribbon out or head open).
   */
  host: HostStatus | null;
  /** Null when ~HQES was not asked, or the printer does not answer it (older firmware). */
  extended: ExtendedStatus | null;
  /** Most urgent first; empty when the printer can print. */
  faults: PrinterFault[];
  /** No fault: the printer prints what it receives. */
  ready: boolean;
  readAt: Date;
}

export interface StatusReadOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Ask ~HQES as well as ~HS (default true). */
  extended?: boolean;
  now?: () => Date;
}

/**
 * Reads status again and again from one printer. It remembers a printer that answered ~HS but
 * not ~HQES (firmware before ~HQES existed), so later reads do not wait for that timeout again.
 */
export class PrinterStatusReader {
  private extendedSupported: boolean | null = null;

  constructor(private readonly transport: StatusTransport) {}

  /** Whether the printer answers ~HQES; null until a read has found out. */
  get answersExtendedStatus(): boolean | null {
    return this.extendedSupported;
  }

  async read(options: StatusReadOptions = {}): Promise<PrinterStatusReport> {
    const limits = { ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), ...(options.signal ? { signal: options.signal } : {}) };
    const readAt = (): Date => (options.now ?? (() => new Date()))();
    let host: HostStatus;
    try {
      host = parseOrFault(await this.transport.query(hostStatusQuery, limits), parseHostStatus);
    } catch (error) {
      const behind = isSilence(error) ? await faultsBehindSilence(this.transport, limits) : null;
      if (!behind || behind.faults.length === 0) throw error;
      this.extendedSupported = true;
      return { host: null, extended: behind.extended, faults: behind.faults, ready: false, readAt: readAt() };
    }
    let extended: ExtendedStatus | null = null;
    if ((options.extended ?? true) && this.extendedSupported !== false) {
      try {
        extended = parseOrFault(await this.transport.query(extendedStatusQuery, limits), parseExtendedStatus);
        this.extendedSupported = true;
      } catch (error) {
        // The printer answered ~HS a moment ago; silence to ~HQES alone means it does not know the command.
        if (!(error instanceof PrinterTransportError) || error.failure !== 'no-answer' || this.extendedSupported === true) throw error;
        this.extendedSupported = false;
      }
    }
    const faults = faultsFromStatus(host, extended);
    return { host, extended, faults, ready: faults.length === 0, readAt: readAt() };
  }
}

/** A query the printer did not answer in time. */
export function isSilence(error: unknown): error is PrinterTransportError {
  return error instanceof PrinterTransportError && error.failure === 'no-answer';
}

/**
 * ~HS went unanswered. Zebra documents that newer firmware sends no ~HS answer while media or
 * ribbon is out or the head is open, while ~HQES still answers: so ask ~HQES, and the silence gets
 * its real name. Null when ~HQES cannot be read either (the printer is off, unreachable, or too
 * old to know ~HQES): then the silence stays "does not answer".
 */
export async function faultsBehindSilence(
  transport: StatusTransport,
  limits: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<{ extended: ExtendedStatus; faults: PrinterFault[] } | null> {
  try {
    const extended = parseOrFault(await transport.query(extendedStatusQuery, limits), parseExtendedStatus);
    return { extended, faults: faultsFromStatus(null, extended) };
  } catch (error) {
    if (error instanceof PrinterTransportError) return null;
    throw error;
  }
}

/** One status read (see PrinterStatusReader for repeated reads). */
export function readPrinterStatus(transport: StatusTransport, options: StatusReadOptions = {}): Promise<PrinterStatusReport> {
  return new PrinterStatusReader(transport).read(options);
}

/** The error for a printer fault: the contract's code, and the plain sentence with what to do. */
export function faultError(fault: PrinterFault): StationError {
  return new StationError(fault.code, faultSentence(fault));
}

/** The most urgent fault of a report as an error, or null when the printer is ready. */
export function statusError(report: PrinterStatusReport): StationError | null {
  const first = report.faults[0];
  return first ? faultError(first) : null;
}

function parseOrFault<T>(answer: string, parse: (text: string) => T): T {
  try {
    return parse(answer);
  } catch (error) {
    if (error instanceof ZebraReplyError) {
      throw new PrinterTransportError('PRINTER_ERROR', error.message, { failure: 'bad-answer', delivery: 'none', details: [error.excerpt], cause: error });
    }
    throw error;
  }
}
