// What a host does to a Zebra on port 9100, over plain Node net: connect, write bytes, read
// replies. Independent from the printer's code, so the tests check the bytes on the wire.
import net from 'node:net';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface RawClient {
  socket: net.Socket;
  /** Everything received so far. */
  received(): string;
  /** Writes and waits until the bytes have left for the kernel. */
  send(data: string | Buffer): Promise<void>;
  /** Writes, then resolves with what arrives once `complete` is satisfied by the new bytes. */
  ask(data: string, complete: (reply: string) => boolean, timeoutMs?: number): Promise<string>;
  closed: Promise<{ error: NodeJS.ErrnoException | null }>;
  close(): Promise<void>;
}

export function connect(port: number): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setNoDelay(true);
    let buffer = '';
    let firstError: NodeJS.ErrnoException | null = null;
    const waiters = new Set<() => void>();
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      for (const waiter of waiters) waiter();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      firstError ??= error;
    });
    const closed = new Promise<{ error: NodeJS.ErrnoException | null }>((done) => socket.on('close', () => done({ error: firstError })));
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve({
        socket,
        received: () => buffer,
        send: (data) =>
          new Promise((done, fail) => {
            socket.write(data, (error) => (error ? fail(error) : done()));
          }),
        ask: (data, complete, timeoutMs = 2000) =>
          new Promise((done, fail) => {
            const start = buffer.length;
            const check = (): void => {
              const reply = buffer.slice(start);
              if (!complete(reply)) return;
              waiters.delete(check);
              clearTimeout(timer);
              done(reply);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`No complete reply to ${JSON.stringify(data)} in ${timeoutMs} ms; got ${JSON.stringify(buffer.slice(start))}`));
            }, timeoutMs);
            waiters.add(check);
            socket.write(data);
          }),
        closed,
        close: async () => {
          socket.end();
          socket.destroySoon();
          await closed;
        },
      });
    });
  });
}

/** Connects and expects the connection to fail; resolves with the error code. */
export function connectionError(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      reject(new Error('connection was accepted'));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

export const threeStatusStrings = (reply: string): boolean => reply.split('\x03\r\n').length - 1 >= 3;
export const quotedValue = (reply: string): boolean => /^"[^"]*"/.test(reply);

export interface HostStatus {
  paperOut: boolean;
  paused: boolean;
  labelLength: number;
  formatsInBuffer: number;
  bufferFull: boolean;
  partialFormat: boolean;
  headUp: boolean;
  ribbonOut: boolean;
  thermalTransfer: boolean;
  labelsRemaining: number;
}

/** Reads a ~HS reply the way a host does: STX…ETX CR LF framing, comma-separated fields. */
export function parseHostStatus(reply: string): HostStatus {
  const pieces = reply.split('\x03\r\n');
  const framed = pieces.slice(0, -1);
  if (framed.length !== 3 || pieces.at(-1) !== '' || !framed.every((piece) => piece.startsWith('\x02') && !piece.includes('\x03'))) {
    throw new Error(`Expected 3 strings framed <STX>…<ETX><CR><LF>, got ${JSON.stringify(reply)}`);
  }
  const frames = framed.map((piece) => piece.slice(1).split(','));
  const [one = [], two = [], three = []] = frames;
  if (one.length !== 12 || two.length !== 11 || three.length !== 2) throw new Error(`Unexpected field counts in ${JSON.stringify(reply)}`);
  const field = (fields: string[], index: number): string => fields[index] ?? '';
  return {
    paperOut: field(one, 1) === '1',
    paused: field(one, 2) === '1',
    labelLength: Number(field(one, 3)),
    formatsInBuffer: Number(field(one, 4)),
    bufferFull: field(one, 5) === '1',
    partialFormat: field(one, 7) === '1',
    headUp: field(two, 2) === '1',
    ribbonOut: field(two, 3) === '1',
    thermalTransfer: field(two, 4) === '1',
    labelsRemaining: Number(field(two, 8)),
  };
}

/** Reads the ERRORS line of a ~HQES reply: flag and the two 8-digit hex groups. */
export function parseErrors(reply: string): { flag: number; group2: number; group1: number } {
  const match = /ERRORS:\s+(\d)\s+([0-9A-F]{8})\s+([0-9A-F]{8})/.exec(reply);
  if (!match) throw new Error(`No ERRORS line in ${JSON.stringify(reply)}`);
  return { flag: Number(match[1]), group2: Number.parseInt(match[2] ?? '', 16), group1: Number.parseInt(match[3] ?? '', 16) };
}

/** A small, valid label format; `n` makes each one distinct. */
export const label = (n: number, extra = ''): string => `^XA^PW832^LL1184^FO50,50^A0N,40,40^FDLabel ${n}^FS${extra}^XZ`;
