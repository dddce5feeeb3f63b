/**
 * A loopback TCP relay in front of a server that a test can cut and restore, as a network cable
 * pulled out of one bench: open connections are dropped and new ones refused until restored,
 * while everyone else still reaches the server directly.
 */
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface CuttableProxy {
  readonly port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startCuttableProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<CuttableProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const relay = (incoming: Socket) => {
    const outgoing = createConnection({ host: targetHost, port: targetPort });
    track(incoming);
    track(outgoing);
    incoming.pipe(outgoing);
    outgoing.pipe(incoming);
    incoming.on('close', () => outgoing.destroy());
    outgoing.on('close', () => incoming.destroy());
  };
  let server: Server = createServer(relay);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  const port = address.port;
  let open = true;
  const stop = async () => {
    if (!open) return;
    open = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    cut: stop,
    async restore() {
      if (open) return;
      server = createServer(relay);
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
      open = true;
    },
    close: stop,
  };
}
