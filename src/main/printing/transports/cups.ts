// CUPS on Linux and macOS: raw ZPL with `lp -o raw` (no filter touches the bytes) and PDFs with a
// plain `lp` (the queue's driver renders them). Data goes on lp's standard input, so no temporary
// file is left behind. Queues are listed with lpstat.
import { createSemaphore } from '../../api/semaphore';
import { jobName } from './job-name';
import { C_LOCALE, CommandNotFoundError, type CommandResult, type CommandRunner } from './command-runner';
import type { OsQueue } from './os-queue';
import { PrinterTransportError, type SendOptions, type SendResult, type PrinterTransport } from './transport';

export interface CupsQueueOptions {
  queue: string;
  /** zpl: raw bytes to the printer; pdf: a PDF for the queue's driver. */
  format: 'zpl' | 'pdf';
  runner: CommandRunner;
  /** Extra environment for lp and lpstat, e.g. CUPS_SERVER to use another scheduler. */
  env?: Record<string, string | undefined>;
  /** Longest time lp may take to hand the job to the scheduler. */
  timeoutMs?: number;
  /** PDF only: `-o media=…` (e.g. "A6") and `-o fit-to-page`. */
  pdf?: { media?: string; fitToPage?: boolean };
}

const DEFAULT_TIMEOUT_MS = 30_000;

export class CupsQueueTransport implements PrinterTransport {
  readonly kind: 'os-queue-raw' | 'os-queue-pdf';
  readonly format: 'zpl' | 'pdf';
  readonly description: string;
  private readonly lock = createSemaphore(1);

  constructor(private readonly options: CupsQueueOptions) {
    this.format = options.format;
    this.kind = options.format === 'zpl' ? 'os-queue-raw' : 'os-queue-pdf';
    this.description = `CUPS queue "${options.queue}"`;
  }

  send(data: Uint8Array, options: SendOptions = {}): Promise<SendResult> {
    return this.lock.run(async () => {
      if (this.format === 'pdf' && !looksLikePdf(data)) {
        throw new PrinterTransportError('PRINTER_ERROR', `Only PDF documents can go to ${this.description}.`, {
          failure: 'rejected',
          totalBytes: data.byteLength,
        });
      }
      const args = ['-d', this.options.queue, '-t', jobName(options.jobName)];
      if (this.format === 'zpl') args.push('-o', 'raw');
      else {
        if (this.options.pdf?.media) args.push('-o', `media=${this.options.pdf.media}`);
        if (this.options.pdf?.fitToPage) args.push('-o', 'fit-to-page');
      }
      const result = await this.run('lp', args, data, options.signal);
      const total = data.byteLength;
      if (result.cancelled || result.timedOut) {
        // lp was stopped after taking the data: the scheduler may or may not have queued the job.
        throw new PrinterTransportError(
          result.cancelled ? 'PRINTER_ERROR' : 'PRINTER_OFFLINE',
          result.cancelled
            ? `Sending to ${this.description} was cancelled; the job may have been queued.`
            : `The print service (CUPS) did not take the job for ${this.description} in time.`,
          { failure: result.cancelled ? 'cancelled' : 'service-unavailable', delivery: 'unconfirmed', bytesWritten: total, totalBytes: total },
        );
      }
      if (result.exitCode !== 0) throw await this.lpFailure(result, total);
      return { bytesWritten: total, confirmed: false, ...withJobId(parseLpJobId(result.stdout)) };
    });
  }

  async close(): Promise<void> {
    // Every send is its own lp process; nothing stays open.
  }

  private async run(command: string, args: string[], input?: Uint8Array, signal?: AbortSignal): Promise<CommandResult> {
    try {
      return await this.options.runner.run(command, args, {
        env: { ...this.options.env, ...C_LOCALE },
        timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(input ? { input } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throw commandFailure(error, command);
    }
  }

  private async lpFailure(result: CommandResult, total: number): Promise<PrinterTransportError> {
    const said = lastLine(result.stderr) || lastLine(result.stdout);
    const details = said ? [said] : [];
    const facts = { delivery: 'none' as const, totalBytes: total, details };
    if (/not accepting jobs/i.test(said)) {
      return new PrinterTransportError(
        'PRINTER_OFFLINE',
        `${capital(this.description)} is not accepting jobs. Enable it in the printer settings (or with cupsaccept and cupsenable), then try again.`,
        { ...facts, failure: 'not-accepting' },
      );
    }
    if (/does not exist|not found|unknown destination/i.test(said)) {
      // lp says the same when no scheduler answers at all; ask the scheduler to tell the two apart.
      if (!(await this.schedulerRunning())) return schedulerDown(facts);
      return new PrinterTransportError(
        'PRINTER_NOT_FOUND',
        `There is no print queue "${this.options.queue}" on this computer. Choose one from the list of printers.`,
        { ...facts, failure: 'not-found' },
      );
    }
    if (/scheduler (is )?not (running|responding)|unable to connect|connection refused/i.test(said)) return schedulerDown(facts);
    return new PrinterTransportError('PRINTER_ERROR', `The print service (CUPS) refused the job for ${this.description}.`, {
      ...facts,
      failure: 'failed',
    });
  }

  private async schedulerRunning(): Promise<boolean> {
    try {
      const status = await this.run('lpstat', ['-r']);
      return /scheduler is running/i.test(status.stdout);
    } catch {
      return false;
    }
  }
}

export function createCupsQueueTransport(options: CupsQueueOptions): CupsQueueTransport {
  return new CupsQueueTransport(options);
}

/** "request id is Zebra_ZD421-12 (0 file(s))" → "Zebra_ZD421-12". */
export function parseLpJobId(stdout: string): string | null {
  const match = /request id is (\S+)/i.exec(stdout);
  return match?.[1] ?? null;
}

export interface CupsListOptions {
  runner: CommandRunner;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/**
 * The queues CUPS knows (`lpstat -e`), with state and acceptance from `lpstat -p -a -d` where it has
 * them. A computer without CUPS, or with CUPS stopped, has no queues to offer: NO_PRINT_SYSTEM
 * (subject not-installed or not-running), never a printer's fault.
 */
export async function listCupsQueues(options: CupsListOptions): Promise<OsQueue[]> {
  const run = async (args: string[]): Promise<CommandResult> => {
    try {
      return await options.runner.run('lpstat', args, {
        env: { ...options.env, ...C_LOCALE },
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      });
    } catch (error) {
      if (error instanceof CommandNotFoundError) {
        throw noPrintSystem('not-installed', 'This computer has no print system: the CUPS command "lpstat" is not installed, so there are no print queues to list. Install the CUPS client tools (package cups-client on Debian and Ubuntu), or add the printer over the network or USB.', error);
      }
      throw commandFailure(error, 'lpstat');
    }
  };
  const details = await run(['-p', '-a', '-d']);
  if (/scheduler is not running|unable to connect|connection refused/i.test(details.stderr)) {
    throw noPrintSystem('not-running', `The print service (CUPS) is not running on this computer, so there are no print queues to list (${lastLine(details.stderr)}). Start it (or ask IT to), or add the printer over the network or USB.`);
  }
  const names = await run(['-e']);
  return parseLpstatQueues(names.stdout, details.stdout);
}

function noPrintSystem(subject: 'not-installed' | 'not-running', message: string, cause?: unknown): PrinterTransportError {
  return new PrinterTransportError('NO_PRINT_SYSTEM', message, { failure: 'service-unavailable', delivery: 'none', cause, facts: { subject, system: 'cups' } });
}

/** Reads `lpstat -e` (names) and `lpstat -p -a -d` (states) into queues, in the order lpstat -e gave. */
export function parseLpstatQueues(namesOutput: string, detailsOutput: string): OsQueue[] {
  const states = new Map<string, OsQueue['state']>();
  const accepting = new Map<string, boolean>();
  let defaultName: string | null = null;
  for (const line of detailsOutput.split(/\r?\n/)) {
    const printer = /^printer (\S+) (?:is idle|now printing|disabled|is printing)/.exec(line);
    if (printer?.[1]) {
      const name = printer[1];
      states.set(name, /disabled/.test(line) ? 'disabled' : /now printing|is printing/.test(line) ? 'printing' : 'idle');
      continue;
    }
    const accept = /^(\S+) (not )?accepting requests/.exec(line);
    if (accept?.[1]) {
      accepting.set(accept[1], accept[2] === undefined);
      continue;
    }
    const fallback = /^system default destination: (\S+)/.exec(line);
    if (fallback?.[1]) defaultName = fallback[1];
  }
  const names = namesOutput
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !/\s/.test(line));
  for (const name of states.keys()) if (!names.includes(name)) names.push(name);
  return names.map((name) => ({
    name,
    system: 'cups' as const,
    state: states.get(name) ?? 'unknown',
    accepting: accepting.get(name) ?? null,
    isDefault: name === defaultName,
  }));
}

function looksLikePdf(data: Uint8Array): boolean {
  // A PDF may have a few bytes of junk before its header; readers accept up to 1024.
  const head = new TextDecoder('latin1').decode(data.subarray(0, 1024));
  return head.includes('%PDF-');
}


function withJobId(jobId: string | null): { jobId?: string } {
  return jobId ? { jobId } : {};
}

function lastLine(text: string): string {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
  return lines[lines.length - 1] ?? '';
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function schedulerDown(facts: { delivery: 'none'; totalBytes?: number; details?: string[] }): PrinterTransportError {
  return new PrinterTransportError(
    'PRINTER_OFFLINE',
    'The print service (CUPS) is not running. Start it (or ask IT to), then try again.',
    { ...facts, failure: 'service-unavailable' },
  );
}

function commandFailure(error: unknown, command: string): PrinterTransportError {
  if (error instanceof CommandNotFoundError) {
    return new PrinterTransportError(
      'PRINTER_ERROR',
      `The CUPS command "${command}" is not installed. Install the CUPS client tools (package cups-client on Debian and Ubuntu).`,
      { failure: 'service-unavailable', delivery: 'none', cause: error },
    );
  }
  return new PrinterTransportError('PRINTER_ERROR', `The CUPS command "${command}" could not be started.`, {
    failure: 'failed',
    delivery: 'none',
    cause: error,
  });
}
