// PDFs to a Windows printer with SumatraPDF's command line (`-print-to <printer> -print-settings fit
// -silent <file>`). Windows has no built-in way to print a PDF silently to a chosen printer: the
// spooler only takes what the driver understands (raw PDF only on printers that read PDF
// themselves), and the shell's "print" verb depends on whichever PDF reader is installed and may
// open a window. SumatraPDF renders the PDF through the printer's own GDI driver, works with every
// driver, needs no installation (one portable .exe shipped next to the station) and waits until the
// job is spooled, so its exit code means something.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSemaphore } from '../../api/semaphore';
import { CommandNotFoundError, type CommandRunner } from './command-runner';
import { PrinterTransportError, type PrinterTransport, type SendOptions, type SendResult } from './transport';

export type SumatraScale = 'fit' | 'shrink' | 'noscale';

export interface SumatraPdfOptions {
  printerName: string;
  /** Full path of SumatraPDF.exe. */
  sumatraPath: string;
  runner: CommandRunner;
  /** "fit" by default: a label never loses an edge when the driver's paper is a little smaller than A6. */
  scale?: SumatraScale;
  timeoutMs?: number;
  /** Where the PDF is written for SumatraPDF to read; the OS temp folder by default. */
  tempDir?: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;

export class SumatraPdfTransport implements PrinterTransport {
  readonly kind = 'os-queue-pdf' as const;
  readonly format = 'pdf' as const;
  readonly description: string;
  private readonly lock = createSemaphore(1);

  constructor(private readonly options: SumatraPdfOptions) {
    this.description = `Windows printer "${options.printerName}"`;
  }

  send(data: Uint8Array, options: SendOptions = {}): Promise<SendResult> {
    return this.lock.run(async () => {
      const total = data.byteLength;
      if (!new TextDecoder('latin1').decode(data.subarray(0, 1024)).includes('%PDF-')) {
        throw new PrinterTransportError('PRINTER_ERROR', `Only PDF documents can go to ${this.description}.`, {
          failure: 'rejected',
          totalBytes: total,
        });
      }
      const folder = await mkdtemp(join(this.options.tempDir ?? tmpdir(), 'station-pdf-'));
      try {
        const file = join(folder, `${safeFileName(options.jobName)}.pdf`);
        await writeFile(file, data);
        const args = ['-print-to', this.options.printerName, '-print-settings', this.options.scale ?? 'fit', '-silent', file];
        let result;
        try {
          result = await this.options.runner.run(this.options.sumatraPath, args, {
            timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            ...(options.signal ? { signal: options.signal } : {}),
          });
        } catch (error) {
          throw new PrinterTransportError(
            'PRINTER_ERROR',
            error instanceof CommandNotFoundError
              ? `SumatraPDF, which prints PDF labels on Windows, was not found at ${this.options.sumatraPath}.`
              : 'SumatraPDF, which prints PDF labels on Windows, could not be started.',
            { failure: 'service-unavailable', delivery: 'none', totalBytes: total, cause: error },
          );
        }
        if (result.cancelled || result.timedOut) {
          throw new PrinterTransportError(
            result.cancelled ? 'PRINTER_ERROR' : 'PRINTER_OFFLINE',
            result.cancelled
              ? `Printing to ${this.description} was cancelled; part of the job may have reached the queue.`
              : `Printing to ${this.description} did not finish in time.`,
            { failure: result.cancelled ? 'cancelled' : 'no-answer', delivery: 'unconfirmed', bytesWritten: total, totalBytes: total },
          );
        }
        if (result.exitCode !== 0) {
          const said = (result.stderr || result.stdout).trim();
          throw new PrinterTransportError('PRINTER_ERROR', `SumatraPDF could not print to ${this.description}.`, {
            failure: 'failed',
            delivery: 'none',
            totalBytes: total,
            details: [`Exit code ${String(result.exitCode)}${said ? `: ${said.slice(0, 300)}` : ''}`],
          });
        }
        return { bytesWritten: total, confirmed: false };
      } finally {
        // Best effort: on Windows a print that hangs may still hold the file open.
        await rm(folder, { recursive: true, force: true }).catch(() => undefined);
      }
    });
  }

  async close(): Promise<void> {
    // Each PDF is its own SumatraPDF run.
  }
}

export function createSumatraPdfTransport(options: SumatraPdfOptions): SumatraPdfTransport {
  return new SumatraPdfTransport(options);
}

/** Where SumatraPDF.exe is looked for: next to the station first, then the usual install folders. */
export function sumatraCandidates(env: Record<string, string | undefined>, resourcesPath: string | undefined): string[] {
  const candidates: string[] = [];
  if (resourcesPath) candidates.push(join(resourcesPath, 'SumatraPDF', 'SumatraPDF.exe'));
  if (env.LOCALAPPDATA) candidates.push(join(env.LOCALAPPDATA, 'SumatraPDF', 'SumatraPDF.exe'));
  if (env.ProgramFiles) candidates.push(join(env.ProgramFiles, 'SumatraPDF', 'SumatraPDF.exe'));
  if (env['ProgramFiles(x86)']) candidates.push(join(env['ProgramFiles(x86)'], 'SumatraPDF', 'SumatraPDF.exe'));
  return candidates;
}

/** The first SumatraPDF.exe that exists where it is looked for, or null. */
export function findSumatraPdf(
  env: Record<string, string | undefined>,
  resourcesPath: string | undefined,
  exists: (path: string) => boolean = existsSync,
): string | null {
  return sumatraCandidates(env, resourcesPath).find((path) => exists(path)) ?? null;
}

function safeFileName(name: string | undefined): string {
  const clean = (name ?? 'label').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return (clean.length > 0 ? clean : 'label').slice(0, 60);
}
