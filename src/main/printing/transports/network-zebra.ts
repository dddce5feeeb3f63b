// Raw ZPL to a networked Zebra on TCP 9100. One connection per printer at a time, kept open between
// labels (a scan a second should not pay for a TCP handshake each time) and closed when idle, so
// other hosts can reach the printer. Status questions travel on the same connection: a Zebra runs
// ~ commands the moment it reads them, and an answer to ~HS sent after a label proves the printer
// has read the whole label.
import net from 'node:net';
import { parseHostStatus } from '../../../shared/zebra/host-status';
import { describeQuery, hostStatusQuery, isQueryAnswered, queryCommand, type ZebraQuery } from '../../../shared/zebra/queries';
import { ZebraReplyError } from '../../../shared/zebra/reply-error';
import { createSemaphore } from '../../api/semaphore';
import {
  PrinterTransportError,
  type Delivery,
  type QueryOptions,
  type SendOptions,
  type SendResult,
  type StatusTransport,
} from './transport';

export interface NetworkZebraOptions {
  host: string;
  port?: number;
  /** Longest wait for the TCP connection. */
  connectTimeoutMs?: number;
  /** Longest wait for the printer to take more data (backpressure), and for the last bytes to leave. */
  writeTimeoutMs?: number;
  /** Longest wait for the complete answer to a status query. */
  queryTimeoutMs?: number;
  /**
   * Longest wait for the ~HS answer that confirms a send (default: queryTimeoutMs). Raise it for a
   * printer whose buffer fills up: it reads the question only once the label before it fits.
   */
  confirmTimeoutMs?: number;
  /** The connection closes after this long without use. */
  idleCloseMs?: number;
  /** Bytes handed to the socket per write. */
  chunkBytes?: number;
}

export const networkZebraDefaults = {
  port: 9100,
  connectTimeoutMs: 3000,
  writeTimeoutMs: 10_000,
  queryTimeoutMs: 3000,
  idleCloseMs: 2000,
  chunkBytes: 64 * 1024,
} as const;

// Answers are short (~HS is about 100 bytes); anything longer than this is noise and is cut.
const MAX_INBOUND_CHARS = 64 * 1024;
const CLOSE_GRACE_MS = 1000;

type ProblemKind = 'timeout' | 'closed' | 'cancelled';

/** A wait that ended without its condition: timed out, connection gone, or cancelled. */
class LinkProblem extends Error {
  constructor(readonly kind: ProblemKind) {
    super(kind);
  }
}

interface WriteProgress {
  /** Bytes handed to the socket. */
  attempted: number;
  /** Bytes whose write completed: the OS took them. */
  written: number;
}

interface WaitLimits {
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/** One TCP connection to the printer and what has arrived on it. */
class ZebraLink {
  private inbound = '';
  private failure: Error | null = null;
  private closed = false;
  private connected = false;
  private readonly waiters = new Set<() => void>();

  constructor(readonly socket: net.Socket) {
    socket.on('connect', () => {
      this.connected = true;
      this.notify();
    });
    socket.on('data', (chunk: Buffer) => {
      this.inbound += chunk.toString('latin1');
      if (this.inbound.length > MAX_INBOUND_CHARS) this.inbound = this.inbound.slice(-MAX_INBOUND_CHARS);
      this.notify();
    });
    socket.on('drain', () => this.notify());
    socket.on('error', (error) => {
      this.failure ??= error;
      this.notify();
    });
    // The printer closing its side ends the conversation; allowHalfOpen is off, so ours closes too.
    socket.on('end', () => {
      this.closed = true;
      this.notify();
    });
    socket.on('close', () => {
      this.closed = true;
      this.notify();
    });
  }

  get usable(): boolean {
    return this.connected && !this.closed && this.failure === null && !this.socket.destroyed && this.socket.writable;
  }

  waitForConnection(limits: WaitLimits): Promise<void> {
    return this.waitUntil(() => this.connected, limits);
  }

  /** Writes every byte, waiting for 'drain' whenever the socket says its buffer is full. */
  async writeAll(data: Uint8Array, chunkBytes: number, progress: WriteProgress, limits: WaitLimits): Promise<void> {
    for (let offset = 0; offset < data.byteLength; offset += chunkBytes) {
      this.throwIfBroken();
      const chunk = data.subarray(offset, Math.min(offset + chunkBytes, data.byteLength));
      progress.attempted += chunk.byteLength;
      const flowing = this.socket.write(chunk, (error) => {
        if (error) this.failure ??= error;
        else progress.written += chunk.byteLength;
        this.notify();
      });
      if (!flowing) await this.waitUntil(() => !this.socket.writableNeedDrain, limits);
    }
    await this.waitUntil(() => progress.written === progress.attempted, limits);
  }

  /** Sends a query and resolves with its complete answer. */
  async ask(query: ZebraQuery, limits: WaitLimits): Promise<string> {
    this.throwIfBroken();
    this.expectAnswer();
    this.socket.write(queryCommand(query), 'latin1');
    return this.answerTo(query, limits);
  }

  /** Before a query is written: anything left over belongs to no question, and is kept out of its answer. */
  expectAnswer(): void {
    this.inbound = '';
  }

  /** The complete answer to a query written since expectAnswer. */
  async answerTo(query: ZebraQuery, limits: WaitLimits): Promise<string> {
    await this.waitUntil(() => isQueryAnswered(query, this.inbound), limits);
    const answer = this.inbound;
    this.inbound = '';
    return answer;
  }

  close(): void {
    if (this.socket.destroyed) return;
    this.socket.end();
    setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS).unref();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private throwIfBroken(): void {
    if (this.failure) throw this.failure;
    if (this.closed || this.socket.destroyed) throw new LinkProblem('closed');
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private waitUntil(done: () => boolean, { timeoutMs, signal }: WaitLimits): Promise<void> {
    if (signal?.aborted) return Promise.reject(new LinkProblem('cancelled'));
    return new Promise((resolve, reject) => {
      const finish = (error?: Error): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve();
      };
      const check = (): void => {
        if (done()) finish();
        else if (this.failure) finish(this.failure);
        else if (this.closed || this.socket.destroyed) finish(new LinkProblem('closed'));
      };
      const onAbort = (): void => finish(new LinkProblem('cancelled'));
      const timer = setTimeout(() => finish(new LinkProblem('timeout')), timeoutMs);
      this.waiters.add(check);
      signal?.addEventListener('abort', onAbort, { once: true });
      check();
    });
  }
}

type Stage = 'connect' | 'write' | 'confirm' | 'query';

export class NetworkZebraTransport implements StatusTransport {
  readonly kind = 'network-zebra' as const;
  readonly format = 'zpl' as const;
  readonly description: string;
  private readonly settings: Required<Omit<NetworkZebraOptions, 'confirmTimeoutMs'>> & { confirmTimeoutMs: number };
  private readonly lock = createSemaphore(1);
  private link: ZebraLink | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private connections = 0;

  constructor(options: NetworkZebraOptions) {
    const merged = { ...networkZebraDefaults, ...stripUndefined(options) } as Required<Omit<NetworkZebraOptions, 'confirmTimeoutMs'>>;
    this.settings = { ...merged, confirmTimeoutMs: options.confirmTimeoutMs ?? merged.queryTimeoutMs };
    this.description = `the printer at ${this.settings.host}:${this.settings.port}`;
  }

  /** True while a connection to the printer is open. */
  get connected(): boolean {
    return this.link?.usable ?? false;
  }

  /** Connections opened so far: a new one may reach another printer at the same address, so it is identified again. */
  get connectionCount(): number {
    return this.connections;
  }

  send(data: Uint8Array, options: SendOptions = {}): Promise<SendResult> {
    return this.exclusive(async () => {
      const total = data.byteLength;
      const link = await this.open(options.signal);
      const confirming = options.confirm !== false;
      // The ~HS rides right behind the label in the same write: read after the label, its answer
      // proves the printer has all of it, without waiting for the label's write to complete first.
      const bytes = confirming ? Buffer.concat([data, Buffer.from(queryCommand(hostStatusQuery), 'latin1')]) : data;
      const progress: WriteProgress = { attempted: 0, written: 0 };
      link.expectAnswer();
      try {
        await link.writeAll(bytes, this.settings.chunkBytes, progress, {
          timeoutMs: this.settings.writeTimeoutMs,
          signal: options.signal,
        });
      } catch (error) {
        this.drop(link);
        // Bytes handed to the socket but not yet confirmed by the OS may have left all the same.
        const delivery: Delivery =
          progress.attempted === 0 ? 'none' : progress.written < total ? 'partial' : 'unconfirmed';
        throw this.failure(error, 'write', { delivery, bytesWritten: Math.min(progress.written, total), totalBytes: total });
      }
      if (!confirming) return { bytesWritten: total, confirmed: false };
      const confirmTimeoutMs = this.settings.confirmTimeoutMs;
      try {
        const answer = await link.answerTo(hostStatusQuery, { timeoutMs: confirmTimeoutMs, signal: options.signal });
        return { bytesWritten: total, confirmed: true, status: parseHostStatus(answer) };
      } catch (error) {
        this.drop(link);
        const delivery = total === 0 ? 'none' : 'unconfirmed';
        throw this.failure(error, 'confirm', { delivery, bytesWritten: total, totalBytes: total }, hostStatusQuery, confirmTimeoutMs);
      }
    });
  }

  query(query: ZebraQuery, options: QueryOptions = {}): Promise<string> {
    return this.exclusive(async () => {
      const link = await this.open(options.signal);
      const timeoutMs = options.timeoutMs ?? this.settings.queryTimeoutMs;
      try {
        return await link.ask(query, { timeoutMs, signal: options.signal });
      } catch (error) {
        // A late answer must not be read as the answer to the next question: start afresh.
        this.drop(link);
        throw this.failure(error, 'query', { delivery: 'none' }, query, timeoutMs);
      }
    });
  }

  close(): Promise<void> {
    return this.exclusive(async () => {
      this.link?.close();
      this.link = null;
    });
  }

  private async exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.lock.run(async () => {
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      try {
        return await task();
      } finally {
        this.scheduleIdleClose();
      }
    });
  }

  private scheduleIdleClose(): void {
    if (!this.link) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      // Only when nobody is using or waiting for the connection.
      if (this.lock.active > 0) return;
      this.link?.close();
      this.link = null;
    }, this.settings.idleCloseMs);
    this.idleTimer.unref();
  }

  private async open(signal: AbortSignal | undefined): Promise<ZebraLink> {
    if (this.link?.usable) return this.link;
    this.link?.destroy();
    this.link = null;
    const socket = net.connect({ host: this.settings.host, port: this.settings.port, noDelay: true, keepAlive: true });
    const link = new ZebraLink(socket);
    try {
      await link.waitForConnection({ timeoutMs: this.settings.connectTimeoutMs, signal });
    } catch (error) {
      link.destroy();
      throw this.failure(error, 'connect', { delivery: 'none' });
    }
    this.link = link;
    this.connections += 1;
    return link;
  }

  private drop(link: ZebraLink): void {
    link.destroy();
    if (this.link === link) this.link = null;
  }

  private failure(
    error: unknown,
    stage: Stage,
    facts: { delivery: Delivery; bytesWritten?: number; totalBytes?: number },
    query: ZebraQuery = hostStatusQuery,
    queryTimeoutMs = this.settings.queryTimeoutMs,
  ): PrinterTransportError {
    const where = this.description;
    const { connectTimeoutMs, writeTimeoutMs } = this.settings;
    const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
    const base = { ...facts, cause: error };
    if (error instanceof ZebraReplyError) {
      return new PrinterTransportError('PRINTER_ERROR', error.message, { ...base, failure: 'bad-answer', details: [error.excerpt] });
    }
    if (error instanceof LinkProblem) {
      if (error.kind === 'cancelled') {
        return new PrinterTransportError('PRINTER_ERROR', `Sending to ${where} was cancelled.`, { ...base, failure: 'cancelled' });
      }
      if (error.kind === 'timeout') {
        if (stage === 'connect') {
          return new PrinterTransportError(
            'PRINTER_OFFLINE',
            `${capital(where)} did not accept a connection within ${seconds(connectTimeoutMs)}. Check that it is switched on and on the network.`,
            { ...base, failure: 'connect-timeout' },
          );
        }
        if (stage === 'write') {
          return new PrinterTransportError(
            'PRINTER_OFFLINE',
            `${capital(where)} stopped taking data for ${seconds(writeTimeoutMs)}. Check it for paper, an open head or a pause.`,
            { ...base, failure: 'write-timeout' },
          );
        }
        return new PrinterTransportError(
          'PRINTER_OFFLINE',
          `${capital(where)} did not answer the status request (${describeQuery(query)}) within ${seconds(queryTimeoutMs)}.`,
          { ...base, failure: 'no-answer' },
        );
      }
      return this.brokenConnection(stage, base);
    }
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code === 'ECONNREFUSED') {
      return new PrinterTransportError(
        'PRINTER_OFFLINE',
        `${capital(where)} refused the connection. Check that it is switched on and that the address and port are right.`,
        { ...base, failure: 'refused' },
      );
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      return new PrinterTransportError('PRINTER_OFFLINE', `The printer's host name "${this.settings.host}" could not be found.`, {
        ...base,
        failure: 'unreachable',
      });
    }
    if (stage === 'connect' && (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EHOSTDOWN' || code === 'ETIMEDOUT')) {
      return new PrinterTransportError('PRINTER_OFFLINE', `${capital(where)} cannot be reached on the network.`, {
        ...base,
        failure: 'unreachable',
      });
    }
    return this.brokenConnection(stage, base);
  }

  private brokenConnection(stage: Stage, facts: { delivery: Delivery; bytesWritten?: number; totalBytes?: number; cause: unknown }) {
    const during = stage === 'write' ? 'while sending' : stage === 'connect' ? 'while connecting' : 'while waiting for its answer';
    return new PrinterTransportError('PRINTER_OFFLINE', `The connection to ${this.description} broke ${during}.`, {
      ...facts,
      failure: 'reset',
    });
  }
}

export function createNetworkZebraTransport(options: NetworkZebraOptions): NetworkZebraTransport {
  return new NetworkZebraTransport(options);
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
