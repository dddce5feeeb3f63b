import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Station } from '../../src/main/composition';
import { startWebHost, type RunningWebHost } from '../../src/main/web-host/server';

/**
 * The station's web host over a tiny renderer folder, with one signed-in page: its socket records
 * every frame the page receives (answers and events), so a test can look for what must never reach it.
 */
export interface WebHostSession {
  host: RunningWebHost;
  /** The signed-in page's session cookie (`name=value`), for a second socket of the same page. */
  cookie: string;
  /** Every text frame the page received, as sent. */
  frames: string[];
  /** A contract call over the socket; answers with the call's result. */
  call(name: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string; details?: string[] } }>;
  close(): Promise<void>;
}

export async function openWebHostSession(station: Station): Promise<WebHostSession> {
  const rendererDir = mkdtempSync(join(tmpdir(), 'renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Packing Station</title>');
  mkdirSync(join(rendererDir, 'assets'));
  const host = await startWebHost({ station, rendererDir });
  const launch = await fetch(host.launchUrl, { redirect: 'manual' });
  const cookie = (launch.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const ws = await new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/station`, { headers: { cookie, origin: host.url } });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`socket refused: ${response.statusCode}`)));
    socket.once('error', reject);
  });
  const frames: string[] = [];
  const pending = new Map<number, (result: never) => void>();
  ws.on('message', (data) => {
    const text = data.toString();
    frames.push(text);
    const message = JSON.parse(text) as { type: string; id?: number; result?: unknown };
    if (message.type === 'result' && message.id !== undefined) pending.get(message.id)?.(message.result as never);
  });
  let nextId = 1;
  return {
    host,
    cookie,
    frames,
    call(name, input) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        ws.send(JSON.stringify({ type: 'call', id, name, input }));
      });
    },
    async close() {
      ws.close();
      await host.close();
      rmSync(rendererDir, { recursive: true, force: true });
    },
  };
}
