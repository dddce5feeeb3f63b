import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AsyncEntry } from '@napi-rs/keyring';
import { createKeychainKeyStore } from '../../../src/main/keys/key-store';
import { createTestStation, type TestStation } from '../../support/station';
import { childScript } from '../../support/child-scripts';

// These tests use the real Secret Service that scripts/with-keyring.sh starts (gnome-keyring in a
// private D-Bus session), as `npm test` does.

let test: TestStation;
let service: string;
const TEST_API = 'https://test.delivery.example';
const LIVE_API = 'https://api.delivery.example';
const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeEach(async () => {
  service = `packing-station-test-${randomBytes(6).toString('hex')}`;
  test = await createTestStation({ keyStore: createKeychainKeyStore({ service }) });
  await call('settings.set', { apiBaseUrls: { test: TEST_API, live: LIVE_API } });
});
afterEach(async () => {
  await call('keys.remove', { environment: 'test' });
  await call('keys.remove', { environment: 'live' });
  await test.dispose();
});

describe('API keys in the OS keychain', () => {
  it('stores, reports and removes a key per environment through the contract, never returning it', async () => {
    const key = `sk_test_${randomBytes(16).toString('hex')}`;
    const set = await call('keys.set', { environment: 'test', key });
    expect(set).toEqual({ ok: true, value: { environment: 'test', keySet: true, verification: null } });

    // It is really in the keychain: a second store with the same service name reads it.
    expect(await createKeychainKeyStore({ service }).get('test')).toEqual({ key, address: TEST_API });
    expect(await createKeychainKeyStore({ service }).get('live')).toBeNull();

    const status = await call('keys.status', {});
    expect(status).toEqual({
      ok: true,
      value: {
        keychain: { available: true, message: null },
        environments: [
          { environment: 'test', keySet: true, verification: null },
          { environment: 'live', keySet: false, verification: null },
        ],
      },
    });
    await call('settings.set', { environment: 'test' });
    expect(await call('app.info', {})).toMatchObject({ ok: true, value: { keySet: true } });
    for (const answer of [set, status, await call('app.info', {}), await call('settings.get', {})]) expect(JSON.stringify(answer)).not.toContain(key);

    expect(await call('keys.remove', { environment: 'test' })).toEqual({ ok: true, value: { environment: 'test', removed: true } });
    expect(await createKeychainKeyStore({ service }).get('test')).toBeNull();
    expect(await call('keys.remove', { environment: 'test' })).toEqual({ ok: true, value: { environment: 'test', removed: false } });
  });

  it('leaves the key in no file under the data folder and in no log line', async () => {
    const key = `sk_live_${randomBytes(16).toString('hex')}`;
    expect(await call('keys.set', { environment: 'live', key })).toMatchObject({ ok: true });
    // Work that reads the key and writes to the database and the log around it.
    await call('keys.status', {});
    await call('settings.set', { environment: 'live', stationName: 'Bench 7', operator: 'Sam' });
    await call('orders.lookup', { scan: 'REF-1', remote: false });
    await test.station.services.keys.readKey('live');
    test.station.logger.info('diagnostics', { note: `loaded ${key}`, headers: { 'api-key': key } });
    await call('keys.set', { environment: 'live', key: 'short' });

    const files = filesUnder(test.dataDir);
    expect(files.some((file) => file.endsWith('station.db'))).toBe(true);
    for (const file of files) expect(readFileSync(file).includes(Buffer.from(key)), file).toBe(false);
    expect(test.logLines.length).toBeGreaterThan(0);
    for (const line of test.logLines) expect(line).not.toContain(key);
  });

  it('refuses a key that cannot be an API key without storing anything', async () => {
    const result = await call('keys.set', { environment: 'test', key: 'has spaces in it' });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(result)).not.toContain('has spaces in it');
    expect(await createKeychainKeyStore({ service }).get('test')).toBeNull();
  });
});

describe('a key stored before keys were bound to their address', () => {
  it('is sent nowhere and reported as not set until it is entered again', async () => {
    const key = `sk_test_${randomBytes(16).toString('hex')}`;
    // What earlier versions wrote: the bare key in the same entry.
    await new AsyncEntry(service, 'api-key:test', { linux: { store: 'secret-service' } }).setPassword(key);
    expect(await createKeychainKeyStore({ service }).get('test')).toEqual({ key, address: null });
    expect(await call('keys.status', {})).toMatchObject({ ok: true, value: { environments: [{ environment: 'test', keySet: false }, {}] } });
    expect(await call('keys.verify', { environment: 'test' })).toMatchObject({ ok: false, error: { code: 'KEY_MISSING', message: expect.stringContaining('no recorded address') } });
    expect(await call('keys.set', { environment: 'test', key })).toMatchObject({ ok: true, value: { keySet: true } });
    expect(await createKeychainKeyStore({ service }).get('test')).toEqual({ key, address: TEST_API });
    for (const line of test.logLines) expect(line).not.toContain(key);
  });
});

describe('without a persistent keychain', () => {
  it('refuses to store a key and says why, instead of keeping it somewhere that forgets', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [childScript('test/integration/keys/keychain-child.ts')], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
      timeout: 30_000,
    });
    const [set, status, info] = stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(set).toMatchObject({ ok: false, error: { code: 'KEYCHAIN_UNAVAILABLE', message: expect.stringContaining('No persistent OS keychain') } });
    expect(status).toMatchObject({ ok: true, value: { keychain: { available: false, message: expect.stringContaining('Secret Service') } } });
    expect(info).toMatchObject({ ok: true });
    expect(stdout).not.toContain('child-key-0123456789');
  });
});
