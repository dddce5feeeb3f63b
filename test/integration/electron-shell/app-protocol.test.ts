import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler } from '../../../src/main/electron/app-protocol';
import { contentSecurityPolicy } from '../../../src/main/security/content-security-policy';

let base: string;
let root: string;
let handle: (request: Request) => Promise<Response>;
const SECRET = 'this is outside the renderer folder';

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'station-protocol-'));
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Packing Station</title>');
  writeFileSync(join(root, 'assets', 'index.js'), 'console.log("station")');
  writeFileSync(join(root, 'assets', 'preview.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]));
  writeFileSync(join(base, 'secret.txt'), SECRET);
  writeFileSync(join(base, 'renderer-evil.txt'), SECRET);
  symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'link.txt'));
  symlinkSync(base, join(root, 'up'));
  handle = createAppProtocolHandler({ root, contentSecurityPolicy: contentSecurityPolicy() });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

describe('the app:// protocol', () => {
  it('serves the screen with the Content-Security-Policy header on it', async () => {
    const response = await get('app://station/index.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<title>Packing Station</title>');
    expect(await (await get('app://station/')).text()).toContain('Packing Station');
  });

  it('serves scripts and WebAssembly with their types, and HEAD without a body', async () => {
    expect((await get('app://station/assets/index.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const wasm = await get('app://station/assets/preview.wasm');
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect(new Uint8Array(await wasm.arrayBuffer())).toEqual(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    const head = await get('app://station/assets/index.js', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('22');
    expect(await head.text()).toBe('');
  });

  it('never serves a file outside its folder, however the path is written', async () => {
    for (const url of [
      'app://station/../secret.txt',
      'app://station/%2e%2e/secret.txt',
      'app://station/..%2fsecret.txt',
      'app://station/..%5csecret.txt',
      'app://station/assets/..%2f..%2fsecret.txt',
      'app://station/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://station/assets/link.txt',
      'app://station/up/secret.txt',
      'app://station/up/renderer-evil.txt',
      'app://station/%00secret.txt',
      'app://station/assets',
      'app://station/missing.js',
      'app://elsewhere/index.html',
    ]) {
      const response = await get(url);
      const body = await response.text();
      expect(response.status, url).toBe(404);
      expect(body, url).not.toContain(SECRET);
      expect(response.headers.get('content-security-policy'), url).toBe(contentSecurityPolicy());
    }
  });

  it('answers only GET and HEAD', async () => {
    const response = await handle(new Request('app://station/index.html', { method: 'POST', body: 'x' }));
    expect(response.status).toBe(405);
  });
});
