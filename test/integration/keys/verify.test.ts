import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attachEmbeddedSandbox, type RunningSandbox } from '../../../src/main/embedded-sandbox';
import { createKeychainKeyStore } from '../../../src/main/keys/key-store';
import { startSandbox } from '../../../src/sandbox/index';
import { createTestStation, type TestStation } from '../../support/station';

// Checking keys against the sandbox's API, with the keys kept in the real Secret Service.

let sandbox: RunningSandbox;
let test: TestStation;
let service: string;
const call = (name: string, input: unknown) => test.station.dispatcher.dispatch(name, input, { host: 'web' });

beforeAll(async () => {
  sandbox = await startSandbox({ seedSize: 'small', rateLimit: { requestsPerSecond: 1000, burst: 1000 } });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  service = `packing-station-verify-${randomBytes(6).toString('hex')}`;
  test = await createTestStation({ sandbox: attachEmbeddedSandbox(sandbox), keyStore: createKeychainKeyStore({ service }) });
  await call('settings.set', { apiBaseUrls: { test: sandbox.environments.test.baseUrl, live: sandbox.environments.live.baseUrl } });
});
afterEach(async () => {
  await call('keys.remove', { environment: 'test' });
  await call('keys.remove', { environment: 'live' });
  await test.dispose();
});

describe('checking an API key against the service', () => {
  it('accepts a good key, remembers the verdict, and forgets it when the key changes', async () => {
    const key = sandbox.environments.live.companies[0]!.apiKey;
    await call('keys.set', { environment: 'live', key });
    const verdict = await call('keys.verify', { environment: 'live' });
    expect(verdict).toMatchObject({ ok: true, value: { outcome: 'accepted', message: expect.stringContaining('accepted the live key') } });
    expect(await call('keys.status', {})).toMatchObject({ ok: true, value: { environments: [{ environment: 'test', verification: null }, { environment: 'live', keySet: true, verification: { outcome: 'accepted' } }] } });
    await call('keys.set', { environment: 'live', key: sandbox.environments.live.companies[1]!.apiKey });
    expect(await call('keys.status', {})).toMatchObject({ ok: true, value: { environments: [{}, { environment: 'live', keySet: true, verification: null }] } });
    for (const line of test.logLines) expect(line).not.toContain(key);
  });

  it('reports a revoked or foreign key as rejected', async () => {
    await call('keys.set', { environment: 'test', key: sandbox.environments.test.revokedKey });
    expect(await call('keys.verify', { environment: 'test' })).toMatchObject({ ok: true, value: { outcome: 'rejected' } });
    // A live key is no key in the test environment.
    await call('keys.set', { environment: 'test', key: sandbox.environments.live.companies[0]!.apiKey });
    expect(await call('keys.verify', { environment: 'test' })).toMatchObject({ ok: true, value: { outcome: 'rejected' } });
  });

  it('with verify, stores a key only once the service has accepted it', async () => {
    const refused = await call('keys.set', { environment: 'test', key: sandbox.environments.test.revokedKey, verify: true });
    expect(refused).toMatchObject({ ok: false, error: { code: 'KEY_REJECTED', message: expect.stringContaining('not stored') } });
    expect(await createKeychainKeyStore({ service }).get('test')).toBeNull();
    const key = sandbox.environments.test.companies[0]!.apiKey;
    expect(await call('keys.set', { environment: 'test', key, verify: true })).toMatchObject({ ok: true, value: { keySet: true, verification: { outcome: 'accepted' } } });
    expect(await createKeychainKeyStore({ service }).get('test')).toEqual({ key, address: sandbox.environments.test.baseUrl });
  });

  it('says so when there is no key to check, or nowhere to check it', async () => {
    expect(await call('keys.verify', { environment: 'test' })).toMatchObject({ ok: false, error: { code: 'KEY_MISSING' } });
    await call('settings.set', { apiBaseUrls: { test: null } });
    expect(await call('keys.set', { environment: 'test', key: sandbox.environments.test.companies[0]!.apiKey })).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED' } });
    expect(await call('keys.verify', { environment: 'test' })).toMatchObject({ ok: false, error: { code: 'KEY_MISSING' } });
  });
});
