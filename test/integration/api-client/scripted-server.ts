/**
 * A small purpose-built HTTP server for the client's integration tests: every request is recorded
 * (with its socket, arrival time and the number in flight), and a script decides the answer, so a
 * test can count attempts and measure the gaps between them exactly.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  index: number;
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
  socketId: number;
  inFlight: number;
}

export type Script = (request: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => unknown;

export interface ScriptedServer {
  baseUrl: string;
  requests: RecordedRequest[];
  maxInFlight: () => number;
  close(): Promise<void>;
}

export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Map<Socket, number>();
  let inFlight = 0;
  let peak = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      let done = false;
      const finish = () => {
        if (!done) {
          done = true;
          inFlight -= 1;
        }
      };
      res.on('close', finish);
      const recorded: RecordedRequest = {
        index: requests.length,
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://127.0.0.1'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
        socketId: sockets.get(req.socket) ?? -1,
        inFlight,
      };
      requests.push(recorded);
      Promise.resolve()
        .then(() => script(recorded, res, req))
        .catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
  });
  server.on('connection', (socket) => sockets.set(socket, sockets.size));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    maxInFlight: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export const zplText = '^XA^PW812^LL1218^FO40,40^A0N,50,50^FDORD-1^FS^BY3^FO40,120^BCN,120,Y,N,N^FD3SABC123^FS^XZ';
export const zplBase64 = Buffer.from(zplText, 'utf8').toString('base64');
export const pdfBytes = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
export const pdfBase64 = pdfBytes.toString('base64');

export function orderRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 501,
    orderId: 'ORD-501',
    orderRef: 'REF-501',
    status: 'draft',
    name: 'Parcel 1',
    barcode: '3SABC123',
    trackingUrl: 'https://track.example.test/3SABC123',
    deliveryName: 'Ada Lovelace',
    deliveryAddress: 'Damrak 1, 1012 LG Amsterdam',
    locationId: 101,
    createdAt: '2025-03-01T08:00:00.000Z',
    updatedAt: '2025-03-01T08:00:00.000Z',
    orderBundle: { id: 9, bundleId: 'BND-9' },
    ...overrides,
  };
}
