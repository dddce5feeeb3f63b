// Raw ZPL through the Windows spooler: OpenPrinterW, StartDocPrinterW with the "RAW" datatype (the
// driver passes the bytes through untouched), StartPagePrinter, WritePrinter until every byte is
// taken, EndPagePrinter, EndDocPrinter, ClosePrinter. A failure after the job started aborts it
// (AbortPrinter) so a cut-off label is not printed. The winspool functions are injected: the real
// DLL on Windows, koffi callbacks in tests.
import { createSemaphore } from '../../api/semaphore';
import { jobName } from './job-name';
import type { OsQueue } from './os-queue';
import { PrinterTransportError, type PrinterTransport, type SendOptions, type SendResult, type TransportFailure } from './transport';
import type { PrinterHandle, Winspool } from './winspool-binding';
import type { ErrorCode } from '../../../shared/errors';

export interface WindowsRawOptions {
  printerName: string;
  /** Loads winspool once, on first use (so nothing native is loaded on a station that never prints this way). */
  winspool: () => Promise<Winspool>;
  /** Bytes per WritePrinter call. */
  chunkBytes?: number;
}

export const WIN32 = {
  ERROR_FILE_NOT_FOUND: 2,
  ERROR_ACCESS_DENIED: 5,
  ERROR_INVALID_HANDLE: 6,
  ERROR_NOT_ENOUGH_MEMORY: 8,
  ERROR_OUTOFMEMORY: 14,
  ERROR_PRINT_CANCELLED: 63,
  ERROR_DISK_FULL: 112,
  ERROR_INSUFFICIENT_BUFFER: 122,
  RPC_S_SERVER_UNAVAILABLE: 1722,
  ERROR_INVALID_PRINTER_NAME: 1801,
  ERROR_INVALID_DATATYPE: 1804,
  ERROR_PRINTER_DELETED: 1905,
  ERROR_SPOOL_FILE_NOT_FOUND: 3002,
} as const;

const PRINTER_ENUM_LOCAL = 0x2;
const PRINTER_ENUM_CONNECTIONS = 0x4;
const PRINTER_ATTRIBUTE_DEFAULT = 0x4;
const DEFAULT_CHUNK_BYTES = 64 * 1024;

type Step =
  | 'OpenPrinterW'
  | 'StartDocPrinterW'
  | 'StartPagePrinter'
  | 'WritePrinter'
  | 'EndPagePrinter'
  | 'EndDocPrinter'
  | 'EnumPrintersW';

export class WindowsRawTransport implements PrinterTransport {
  readonly kind = 'os-queue-raw' as const;
  readonly format = 'zpl' as const;
  readonly description: string;
  private readonly lock = createSemaphore(1);
  private winspool: Promise<Winspool> | null = null;

  constructor(private readonly options: WindowsRawOptions) {
    this.description = `Windows printer "${options.printerName}"`;
  }

  send(data: Uint8Array, options: SendOptions = {}): Promise<SendResult> {
    return this.lock.run(async () => {
      const { functions: w } = await this.load();
      const total = data.byteLength;
      const fail = (step: Step, written: number, extra: { delivery?: 'none' } = {}): PrinterTransportError =>
        win32Failure(w.GetLastError(), step, this.options.printerName, { bytesWritten: written, totalBytes: total, ...extra });

      const handleOut: [PrinterHandle | null] = [null];
      if (!w.OpenPrinterW(this.options.printerName, handleOut, null)) throw fail('OpenPrinterW', 0);
      const handle = handleOut[0];
      let docStarted = false;
      let written = 0;
      try {
        const jobId = w.StartDocPrinterW(handle, 1, { pDocName: jobName(options.jobName), pOutputFile: null, pDatatype: 'RAW' });
        if (jobId === 0) throw fail('StartDocPrinterW', 0);
        docStarted = true;
        if (!w.StartPagePrinter(handle)) throw fail('StartPagePrinter', 0);
        const chunkBytes = this.options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
        while (written < total) {
          if (options.signal?.aborted) {
            throw new PrinterTransportError('PRINTER_ERROR', `Sending to ${this.description} was cancelled.`, {
              failure: 'cancelled',
              bytesWritten: written,
              totalBytes: total,
            });
          }
          const chunk = data.subarray(written, Math.min(written + chunkBytes, total));
          const count: [number] = [0];
          if (!w.WritePrinter(handle, chunk, chunk.byteLength, count)) throw fail('WritePrinter', written);
          // A call that takes nothing would loop for ever; the spooler says nothing more about why.
          if (count[0] <= 0) throw fail('WritePrinter', written);
          written += Math.min(count[0], chunk.byteLength);
        }
        if (!w.EndPagePrinter(handle)) throw fail('EndPagePrinter', written);
        if (!w.EndDocPrinter(handle)) throw fail('EndDocPrinter', written);
        docStarted = false;
        return { bytesWritten: total, confirmed: false, jobId: String(jobId) };
      } catch (error) {
        // The spooler holds the job until EndDocPrinter; aborting deletes it, so nothing half-sent prints.
        if (docStarted && w.AbortPrinter(handle) && error instanceof PrinterTransportError) {
          throw new PrinterTransportError(error.code, error.message, {
            failure: error.failure,
            delivery: 'none',
            bytesWritten: error.bytesWritten,
            totalBytes: total,
            details: [...(error.details ?? []), 'The unfinished job was deleted from the queue.'],
            cause: error.cause,
          });
        }
        throw error;
      } finally {
        w.ClosePrinter(handle);
      }
    });
  }

  async close(): Promise<void> {
    // Each job opens and closes its own printer handle.
  }

  private load(): Promise<Winspool> {
    this.winspool ??= this.options.winspool().catch((error: unknown) => {
      this.winspool = null;
      throw new PrinterTransportError('PRINTER_ERROR', 'The Windows print spooler functions could not be loaded.', {
        failure: 'service-unavailable',
        delivery: 'none',
        cause: error,
      });
    });
    return this.winspool;
  }
}

export function createWindowsRawTransport(options: WindowsRawOptions): WindowsRawTransport {
  return new WindowsRawTransport(options);
}

/** The printers Windows knows: local ones and connections to shared printers. */
export function listWindowsPrinters(winspool: Winspool): OsQueue[] {
  const w = winspool.functions;
  const flags = PRINTER_ENUM_LOCAL | PRINTER_ENUM_CONNECTIONS;
  // A printer added between the sizing call and the real call makes the buffer too small; try again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const needed: [number] = [0];
    const returned: [number] = [0];
    if (w.EnumPrintersW(flags, null, 4, null, 0, needed, returned)) return [];
    const sizing = w.GetLastError();
    if (sizing !== WIN32.ERROR_INSUFFICIENT_BUFFER) throw win32Failure(sizing, 'EnumPrintersW', '', {});
    const buffer = new Uint8Array(needed[0]);
    if (w.EnumPrintersW(flags, null, 4, buffer, buffer.byteLength, needed, returned)) {
      return winspool
        .readPrinterInfo4(buffer, returned[0])
        .filter((info) => info.pPrinterName !== null && info.pPrinterName.length > 0)
        .map((info) => ({
          name: info.pPrinterName ?? '',
          system: 'windows' as const,
          state: 'unknown' as const,
          accepting: null,
          isDefault: (info.Attributes & PRINTER_ATTRIBUTE_DEFAULT) !== 0,
        }));
    }
    const error = w.GetLastError();
    if (error !== WIN32.ERROR_INSUFFICIENT_BUFFER) throw win32Failure(error, 'EnumPrintersW', '', {});
  }
  throw win32Failure(WIN32.ERROR_INSUFFICIENT_BUFFER, 'EnumPrintersW', '', {});
}

/** Maps a Win32 error code from a spooler call to the station's error, in words a packer can act on. */
export function win32Failure(
  code: number,
  step: Step,
  printerName: string,
  facts: { bytesWritten?: number; totalBytes?: number; delivery?: 'none' },
): PrinterTransportError {
  const printer = `Windows printer "${printerName}"`;
  const details = [`${step} failed with Windows error ${code}.`];
  const make = (errorCode: ErrorCode, failure: TransportFailure, message: string): PrinterTransportError =>
    new PrinterTransportError(errorCode, message, { ...facts, failure, details });
  switch (code) {
    case WIN32.ERROR_INVALID_PRINTER_NAME:
    case WIN32.ERROR_PRINTER_DELETED:
    case WIN32.ERROR_FILE_NOT_FOUND:
      return make('PRINTER_NOT_FOUND', 'not-found', `Windows has no printer named "${printerName}". Choose one from the list of printers.`);
    case WIN32.ERROR_ACCESS_DENIED:
      return make('PRINTER_ERROR', 'access-denied', `Windows does not allow this user to print to ${printer}.`);
    case WIN32.ERROR_INVALID_DATATYPE:
      return make(
        'PRINTER_ERROR',
        'driver',
        `The driver of ${printer} does not accept raw ZPL. Install the ZDesigner driver (or "Generic / Text Only") for it.`,
      );
    case WIN32.RPC_S_SERVER_UNAVAILABLE:
      return make('PRINTER_OFFLINE', 'service-unavailable', 'The Windows Print Spooler service is not running. Start it, then try again.');
    case WIN32.ERROR_PRINT_CANCELLED:
      return make('PRINTER_ERROR', 'cancelled', `The print job for ${printer} was deleted from the queue.`);
    case WIN32.ERROR_DISK_FULL:
      return make('PRINTER_ERROR', 'failed', `Windows could not store the print job: the disk is full.`);
    case WIN32.ERROR_NOT_ENOUGH_MEMORY:
    case WIN32.ERROR_OUTOFMEMORY:
      return make('PRINTER_ERROR', 'failed', 'Windows ran out of memory while printing.');
    default:
      return make('PRINTER_ERROR', 'failed', step === 'EnumPrintersW' ? 'Windows could not list its printers.' : `Windows could not print to ${printer}.`);
  }
}

