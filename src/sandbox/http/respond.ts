import type { ServerResponse } from 'node:http';

/** Writes a JSON answer with an exact Content-Length (keep-alive friendly). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendRaw(res, status, Buffer.from(JSON.stringify(body)), headers);
}

/** Writes an already serialised JSON body (cached label answers are sent this way). */
export function sendRaw(res: ServerResponse, status: number, payload: Buffer, headers: Record<string, string> = {}, contentType = 'application/json; charset=utf-8'): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': contentType, 'content-length': String(payload.length), ...headers });
  res.end(payload);
}
