/**
 * An impostor at a shared store's address: a loopback server that speaks just enough of the
 * PostgreSQL protocol (v3, from its documented message formats) to ask a client for its password
 * in clear text, and records what it was sent. With `tls`, it accepts the client's SSLRequest and
 * serves a self-signed certificate (as anyone could make), so `sslmode=require` connects to it;
 * without, it refuses TLS and speaks plain TCP.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';

export interface Impostor {
  port: number;
  /** Connections opened to it. */
  connections: number;
  /** Passwords clients sent when asked. */
  passwords: string[];
  close(): Promise<void>;
}

const sslRequestCode = 80877103;

/** A certificate for 127.0.0.1 signed by nobody anyone trusts. */
function selfSigned(): { key: string; cert: string } {
  const folder = mkdtempSync(join(tmpdir(), 'impostor-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '1', '-subj', '/CN=127.0.0.1'], {
      cwd: folder,
      stdio: 'pipe',
    });
    return { key: readFileSync(join(folder, 'key.pem'), 'utf8'), cert: readFileSync(join(folder, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Reads exactly `length` bytes, or null when the connection ends first. */
function reader(socket: Socket) {
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  let ended = false;
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  });
  const finish = () => {
    ended = true;
    wake?.();
  };
  socket.on('end', finish);
  socket.on('close', finish);
  socket.on('error', finish);
  return async (length: number): Promise<Buffer | null> => {
    while (buffered.length < length) {
      if (ended) return null;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
    const taken = buffered.subarray(0, length);
    buffered = buffered.subarray(length);
    return taken;
  };
}

export async function startImpostor(options: { tls: boolean }): Promise<Impostor> {
  const certificate = options.tls ? selfSigned() : null;
  const impostor: Impostor = { port: 0, connections: 0, passwords: [], close: async () => undefined };

  const converse = async (raw: Socket) => {
    let socket: Socket = raw;
    let read = reader(socket);
    let first = await read(8);
    if (!first) return;
    if (first.readInt32BE(0) === 8 && first.readInt32BE(4) === sslRequestCode) {
      if (!certificate) {
        socket.write('N');
      } else {
        raw.removeAllListeners('data');
        socket.write('S');
        socket = new TLSSocket(raw, { isServer: true, key: certificate.key, cert: certificate.cert });
        read = reader(socket);
      }
      first = await read(8);
      if (!first) return;
    }
    // The startup message: its length, then the rest (protocol version, parameters).
    const rest = await read(first.readInt32BE(0) - 8);
    if (!rest) return;
    // AuthenticationCleartextPassword: 'R', length 8, code 3.
    const ask = Buffer.alloc(9);
    ask.write('R', 0);
    ask.writeInt32BE(8, 1);
    ask.writeInt32BE(3, 5);
    socket.write(ask);
    const head = await read(5);
    if (!head || head.toString('latin1', 0, 1) !== 'p') return;
    const body = await read(head.readInt32BE(1) - 4);
    if (!body) return;
    impostor.passwords.push(body.toString('utf8').replace(/\0$/, ''));
    socket.end();
  };

  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    impostor.connections += 1;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    void converse(socket).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  impostor.port = (server.address() as { port: number }).port;
  impostor.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of open) socket.destroy();
    });
  return impostor;
}
