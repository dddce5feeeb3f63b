import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Station } from '../../../src/main/composition';
import { startWebHost, type RunningWebHost } from '../../../src/main/web-host/server';

export interface WebHostClient {
  host: RunningWebHost;
  /** Every message the socket received: answers and events. */
  received: string[];
  request(name: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string; details?: string[] } }>;
  close(): Promise<void>;
}

/** The station's web host with a socket open to it, as the browser kiosk uses it. */
export async function openWebHost(station: Station): Promise<WebHostClient> {
  const rendererDir = mkdtempSync(join(tmpdir(), 'renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Packing Station</title>');
  const host = await startWebHost({ station, rendererDir, token: 'launch-token-for-import-tests-0123' });
  const login = await fetch(host.launchUrl, { redirect: 'manual' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/station`, { headers: { cookie, origin: host.url } });
  await once(ws, 'open');
  let nextId = 1;
  const received: string[] = [];
  const waiting = new Map<number, (result: never) => void>();
  ws.on('message', (data) => {
    const text = data.toString();
    received.push(text);
    const message = JSON.parse(text) as { type: string; id: number; result: never };
    if (message.type === 'result') waiting.get(message.id)?.(message.result);
  });
  return {
    host,
    received,
    request(name, input) {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ type: 'call', id, name, input }));
      });
    },
    async close() {
      ws.close();
      await host.close();
    },
  };
}
