import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attachEmbeddedSandbox, type RunningSandbox } from '../../../src/main/embedded-sandbox';
import { createKeychainKeyStore } from '../../../src/main/keys/key-store';
import { startSandbox } from '../../../src/sandbox/index';
import { createTestStation, type TestStation } from '../../support/station';
import { openWebHostSession, type WebHostSession } from '../../support/web-host-session';

// A key is bound to the address it was entered for. A "stranger" on loopback answers every request
// as a friendly API would and records each one; whatever a contract caller does, it must never see
// the key. The key lives in the real Secret Service (scripts/with-keyring.sh).

interface Stranger {
  url: string;
  /** Every request the stranger received: its raw header lines and its body. */
  seen: string[];
  close(): Promise<void>;
}

async function startStranger(): Promise<Stranger> {
  const seen: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push(`${request.method} ${request.url}\n${request.rawHeaders.join('\n')}\n\n${Buffer.concat(chunks).toString()}`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('[]');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

let sandbox: RunningSandbox;
let stranger: Stranger;
let test: TestStation;
let page: WebHostSession;
let events: string[];
let service: string;

beforeAll(async () => {
  sandbox = await startSandbox({ seedSize: 'small', rateLimit: { requestsPerSecond: 1000, burst: 1000 } });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  stranger = await startStranger();
  service = `packing-station-binding-${randomBytes(6).toString('hex')}`;
  test = await createTestStation({
    sandbox: attachEmbeddedSandbox(sandbox),
    keyStore: createKeychainKeyStore({ service }),
    clientOptions: { retry: { maxAttempts: 1 } },
  });
  events = [];
  test.station.events.subscribe((name, payload) => events.push(JSON.stringify({ name, payload })));
  page = await openWebHostSession(test.station);
});
afterEach(async () => {
  await page.close();
  await createKeychainKeyStore({ service }).remove('test');
  await test.dispose();
  await stranger.close();
});

/** The station on the test environment with a key the real test API accepts. */
async function stationWithVerifiedKey(): Promise<string> {
  const key = sandbox.environments.test.companies[0]!.apiKey;
  expect(await page.call('settings.set', { apiBaseUrls: { test: sandbox.environments.test.baseUrl }, environment: 'test' })).toMatchObject({ ok: true });
  expect(await page.call('keys.set', { environment: 'test', key, verify: true })).toMatchObject({ ok: true, value: { keySet: true } });
  expect(await page.call('app.info', {})).toMatchObject({ ok: true, value: { keySet: true } });
  return key;
}

/** The key is nowhere a caller or another account could read it: not at the stranger, on the socket, in events, logs or files. */
function expectKeyNowhere(key: string): void {
  for (const request of stranger.seen) expect(request).not.toContain(key);
  for (const frame of page.frames) expect(frame).not.toContain(key);
  for (const event of events) expect(event).not.toContain(key);
  for (const line of test.logLines) expect(line).not.toContain(key);
  for (const file of filesUnder(test.dataDir)) expect(readFileSync(file).includes(Buffer.from(key)), file).toBe(false);
}

describe('an API key stays bound to the address it was entered for', () => {
  it('moving the environment to another address forgets the key, and the stranger never sees it', async () => {
    const key = await stationWithVerifiedKey();
    const moved = await page.call('settings.set', { apiBaseUrls: { test: stranger.url } });

    // Every call that would talk to the API now: none may carry the key to the stranger.
    const verify = await page.call('keys.verify', { environment: 'test' });
    const lookup = await page.call('orders.lookup', { scan: 'ORD-2026-999999', remote: true });
    const status = await page.call('keys.status', {});
    const info = await page.call('app.info', {});

    expect(stranger.seen).toEqual([]);
    expectKeyNowhere(key);
    expect(moved).toMatchObject({ ok: true, value: { apiBaseUrls: { test: stranger.url }, forgottenKeys: ['test'] } });
    expect(verify).toMatchObject({ ok: false, error: { code: 'KEY_MISSING' } });
    expect(lookup).toMatchObject({ ok: false });
    expect(status).toMatchObject({ ok: true, value: { environments: [{ environment: 'test', keySet: false, verification: null }, {}] } });
    expect(info).toMatchObject({ ok: true, value: { environment: 'test', keySet: false } });
    expect(await createKeychainKeyStore({ service }).get('test')).toBeNull();
    expect(test.logLines.some((line) => line.includes('Delivery API address changed') && line.includes(stranger.url) && line.includes('"keyForgotten":true'))).toBe(true);
  });

  it('sends nothing to an address the settings were changed to behind the contract', async () => {
    const key = await stationWithVerifiedKey();
    // Another process on the same database (or a hand-edited file) points test at the stranger.
    test.station.settings.setApiBaseUrl('test', stranger.url);

    const verify = await page.call('keys.verify', { environment: 'test' });
    const lookup = await page.call('orders.lookup', { scan: 'ORD-2026-999999', remote: true });

    expect(stranger.seen).toEqual([]);
    expectKeyNowhere(key);
    expect(verify).toMatchObject({ ok: false, error: { code: 'KEY_MISSING', message: expect.stringContaining('enter the key again') } });
    expect(lookup).toMatchObject({ ok: false });
    // Back at its own address the key works again: it was refused, not lost.
    test.station.settings.setApiBaseUrl('test', sandbox.environments.test.baseUrl);
    expect(await page.call('keys.verify', { environment: 'test' })).toMatchObject({ ok: true, value: { outcome: 'accepted' } });
  });

  it('keeps the key when the address is given again in another spelling', async () => {
    await stationWithVerifiedKey();
    const respelled = `${sandbox.environments.test.baseUrl.replace('http://', 'HTTP://')}/`;
    expect(await page.call('settings.set', { apiBaseUrls: { test: respelled } })).toMatchObject({ ok: true, value: { forgottenKeys: [] } });
    expect(await page.call('keys.verify', { environment: 'test' })).toMatchObject({ ok: true, value: { outcome: 'accepted' } });
  });

  it('takes plain http only on a loopback address, and no key without an address', async () => {
    for (const address of ['http://192.168.1.20:8080', 'http://api.delivery.example', 'http://127.0.0.1.nip.io/', 'ftp://127.0.0.1/']) {
      expect(await page.call('settings.set', { apiBaseUrls: { test: address } }), address).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    }
    for (const address of ['http://127.0.0.2:4100/test', 'http://localhost:4100', 'http://[::1]:4100', 'https://api.delivery.example']) {
      expect(await page.call('settings.set', { apiBaseUrls: { test: address } }), address).toMatchObject({ ok: true });
    }
    await page.call('settings.set', { apiBaseUrls: { test: null } });
    const refused = await page.call('keys.set', { environment: 'test', key: 'sk_test_0123456789abcdef' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED', message: expect.stringContaining('not stored') } });
    expect(await createKeychainKeyStore({ service }).get('test')).toBeNull();
  });
});
