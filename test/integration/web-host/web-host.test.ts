import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebHost, type RunningWebHost } from '../../../src/main/web-host/server';
import { createTestStation, type TestStation } from '../../support/station';

let test: TestStation;
let host: RunningWebHost;
let rendererDir: string;

beforeAll(async () => {
  test = await createTestStation();
  rendererDir = mkdtempSync(join(tmpdir(), 'renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Packing Station</title>');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(tmpdir(), 'outside-renderer.txt'), 'secret file');
  host = await startWebHost({ station: test.station, rendererDir, token: 'launch-token-for-tests-0123456789' });
});

afterAll(async () => {
  await host?.close();
  await test?.dispose();
});

let traded: string | null = null;

/** The page's session: the launch link is traded once, by the first test that needs it. */
async function sessionCookie(): Promise<string> {
  if (traded) return traded;
  const response = await fetch(host.launchUrl, { redirect: 'manual' });
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe('/');
  const cookie = response.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/HttpOnly/);
  expect(cookie).toMatch(/SameSite=Strict/);
  traded = cookie.split(';')[0]!;
  return traded;
}

function openSocket(headers: Record<string, string>): Promise<{ ws: WebSocket } | { status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/station`, { headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0 }));
    ws.once('error', () => resolve({ status: -1 }));
  });
}

describe('web host', () => {
  it('binds to the loopback address only', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses the page without the token, and with a wrong one', async () => {
    expect((await fetch(`${host.url}/`)).status).toBe(401);
    expect((await fetch(`${host.url}/?token=guess`)).status).toBe(401);
    expect((await fetch(`${host.url}/assets/app.js`)).status).toBe(401);
  });

  it('serves the renderer with a strict CSP once the token was presented', async () => {
    const cookie = await sessionCookie();
    const page = await fetch(`${host.url}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Packing Station');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect((await fetch(`${host.url}/assets/app.js`, { headers: { cookie } })).status).toBe(200);
  });

  it('never serves files outside the renderer folder', async () => {
    const cookie = await sessionCookie();
    for (const path of ['/../outside-renderer.txt', '/%2e%2e/outside-renderer.txt', '/assets/..%2f..%2foutside-renderer.txt']) {
      const response = await fetch(`${host.url}${path}`, { headers: { cookie } });
      expect(response.status).toBe(404);
    }
  });

  it('refuses a request whose Host is not the loopback address (DNS rebinding)', async () => {
    const cookie = await sessionCookie();
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      request({ host: '127.0.0.1', port: host.port, path: '/', headers: { cookie, host: 'evil.example:80' } }, (response) => resolve(response.statusCode ?? 0)).end();
    });
    expect(status).toBe(421);
  });

  it('refuses a WebSocket without the token', async () => {
    expect(await openSocket({})).toEqual({ status: 401 });
    expect(await openSocket({ cookie: 'station_session=wrong' })).toEqual({ status: 401 });
  });

  it('refuses a WebSocket from another origin even with the cookie', async () => {
    const cookie = await sessionCookie();
    expect(await openSocket({ cookie, origin: 'http://evil.example' })).toEqual({ status: 401 });
  });

  it('carries contract calls over the socket, errors as data', async () => {
    const cookie = await sessionCookie();
    const opened = await openSocket({ cookie, origin: host.url });
    if (!('ws' in opened)) throw new Error(`socket refused: ${JSON.stringify(opened)}`);
    const { ws } = opened;
    const answers: unknown[] = [];
    const twoAnswers = new Promise<void>((resolve) =>
      ws.on('message', (data) => {
        answers.push(JSON.parse(data.toString()));
        if (answers.length === 2) resolve();
      }),
    );
    ws.send(JSON.stringify({ type: 'call', id: 1, name: 'app.info', input: {} }));
    ws.send(JSON.stringify({ type: 'call', id: 2, name: 'app.format', input: {} }));
    await twoAnswers;
    expect(answers).toContainEqual({
      type: 'result',
      id: 1,
      result: { ok: true, value: expect.objectContaining({ name: 'Packing Station', environment: 'sandbox', host: 'web' }) },
    });
    expect(answers).toContainEqual({ type: 'result', id: 2, result: { ok: false, error: expect.objectContaining({ code: 'UNKNOWN_CALL' }) } });
    ws.close();
  });

  it('closes a socket that sends something other than a contract call', async () => {
    const cookie = await sessionCookie();
    const opened = await openSocket({ cookie, origin: host.url });
    if (!('ws' in opened)) throw new Error('socket refused');
    const closed = new Promise<number>((resolve) => opened.ws.once('close', (code) => resolve(code)));
    opened.ws.send('not json at all');
    expect(await closed).toBe(1003);
  });

  it('keeps the launch token out of the cookie: the session has an id of its own, and the token is no cookie', async () => {
    const first = await sessionCookie();
    // Another host's link (same station, same session key): a session with an id of its own.
    const other = await startWebHost({ station: test.station, rendererDir, token: 'another-launch-token-0123456789ab', sessionKey: host.token });
    const second = ((await fetch(other.launchUrl, { redirect: 'manual' })).headers.get('set-cookie') ?? '').split(';')[0]!;
    await other.close();
    expect(first).not.toContain(host.token);
    expect(first).toMatch(/^station_session=[A-Za-z0-9_-]{40,}$/);
    expect(second).toMatch(/^station_session=[A-Za-z0-9_-]{40,}$/);
    expect(second).not.toBe(first);
    for (const cookie of [first, second]) expect((await fetch(`${host.url}/`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${host.url}/`, { headers: { cookie: `station_session=${host.token}` } })).status).toBe(401);
    expect(await openSocket({ cookie: `station_session=${host.token}`, origin: host.url })).toEqual({ status: 401 });
  });

  it('answers a request target that is not a path with 400 or 401, writing no log line', async () => {
    const { request } = await import('node:http');
    const rawStatus = (path: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        request({ host: '127.0.0.1', port: host.port, path, headers: { host: `127.0.0.1:${host.port}`, ...headers } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    const linesBefore = test.logLines.length;
    for (const path of ['//[::1]:x/', '//[::1]:x/?token=wrong', '//evil.example/', '/%', '//']) {
      expect([400, 401], path).toContain(await rawStatus(path));
    }
    // The socket endpoint reads its target the same way (a throw there would end the process).
    expect([400, 401]).toContain(await rawStatus('//[::1]:x/', { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', origin: host.url }));
    expect(test.logLines.slice(linesBefore)).toEqual([]);
    expect((await fetch(`${host.url}/`)).status).toBe(401);
  });

  it('after the token trade, redirects only to a path on this host', async () => {
    for (const path of ['/.//evil.example/', '//evil.example/', '/\\evil.example/', '/%2F%2Fevil.example/', '/assets/']) {
      const { request } = await import('node:http');
      // The link works once: each target gets a host of its own.
      const own = await startWebHost({ station: test.station, rendererDir });
      const location = await new Promise<string>((resolve, reject) => {
        request({ host: '127.0.0.1', port: own.port, path: `${path}?token=${own.token}`, headers: { host: `127.0.0.1:${own.port}` } }, (response) => {
          response.resume();
          resolve(`${response.statusCode} ${response.headers.location ?? ''}`);
        })
          .on('error', reject)
          .end();
      });
      await own.close();
      const [status, target = ''] = location.split(' ');
      expect(status, path).toBe('303');
      expect(new URL(target, own.url).origin, `${path} → ${target}`).toBe(own.url);
      expect(target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\'), target).toBe(true);
    }
  });

  it('opens the station once per link, and a session no longer than a long shift', async () => {
    let now = Date.parse('2026-11-27T06:00:00Z');
    const own = await startWebHost({ station: test.station, rendererDir, clock: () => now });
    try {
      const first = await fetch(own.launchUrl, { redirect: 'manual' });
      expect(first.status).toBe(303);
      const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
      expect(first.headers.get('set-cookie')).toMatch(/Max-Age=50400/);
      // Before: the link opened a new session every time it was used.
      const again = await fetch(own.launchUrl, { redirect: 'manual' });
      expect(again.status).toBe(401);
      expect(await again.text()).toContain('already used');
      expect((await fetch(`${own.url}/`, { headers: { cookie } })).status).toBe(200);
      now += 13 * 60 * 60 * 1000;
      expect((await fetch(`${own.url}/`, { headers: { cookie } })).status).toBe(200);
      // Before: a session never expired.
      now += 2 * 60 * 60 * 1000;
      expect((await fetch(`${own.url}/`, { headers: { cookie } })).status).toBe(401);
      const socket = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${own.port}/station`, { headers: { cookie, origin: own.url } });
        ws.once('open', () => resolve(101));
        ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        ws.once('error', () => resolve(-1));
      });
      expect(socket).toBe(401);
    } finally {
      await own.close();
    }
  });

  it('refuses a WebSocket that carries no Origin, even with the session cookie', async () => {
    const cookie = await sessionCookie();
    expect(await openSocket({ cookie })).toEqual({ status: 401 });
  });
});
