import { describe, expect, it } from 'vitest';
import { createKeyService } from '../../../src/main/keys/key-service';
import type { KeyStore } from '../../../src/main/keys/key-store';
import { createLogger } from '../../../src/main/logging/logger';
import { StationSettings } from '../../../src/main/settings/station-settings';
import { openDatabase } from '../../../src/main/store/database';
import { SettingsRepository } from '../../../src/main/store/settings-repository';
import { StationError } from '../../../src/shared/errors';
import { memoryKeyStore } from '../../support/station';

function service(store: KeyStore, clock?: () => Date) {
  const lines: string[] = [];
  const settings = new StationSettings(new SettingsRepository(openDatabase(':memory:')));
  settings.setApiBaseUrl('test', 'https://test.delivery.example');
  settings.setApiBaseUrl('live', 'https://api.delivery.example');
  const logger = createLogger((line) => lines.push(line));
  const keys = createKeyService({
    store,
    settings,
    logger,
    clientWithKey: async () => {
      throw new StationError('NOT_CONFIGURED', 'no API in this test');
    },
    ...(clock ? { clock } : {}),
  });
  return { keys, settings, lines, logger };
}

describe('key service', () => {
  it('stores a key and forgets an earlier verdict', async () => {
    const { keys, settings } = service(memoryKeyStore());
    settings.setKeyVerification('test', { outcome: 'accepted', checkedAt: '2026-01-01T00:00:00.000Z', message: 'ok' });
    expect(await keys.set('test', 'sk_test_new_key_123')).toEqual({ environment: 'test', keySet: true, verification: null });
    expect(await keys.readKey('test')).toEqual({ key: 'sk_test_new_key_123', address: 'https://test.delivery.example' });
  });

  it('refuses a key for an environment without an address, storing nothing', async () => {
    const store = memoryKeyStore();
    const { keys, settings } = service(store);
    settings.setApiBaseUrl('test', null);
    await expect(keys.set('test', 'sk_test_new_key_123')).rejects.toMatchObject({ code: 'NOT_CONFIGURED', message: expect.stringContaining('not stored') });
    expect(await store.get('test')).toBeNull();
  });

  it('forgets a key only when it was entered for another address', async () => {
    const store = memoryKeyStore();
    const { keys } = service(store);
    await keys.set('test', 'sk_test_new_key_123');
    expect(await keys.forgetUnlessBoundTo('test', 'https://TEST.delivery.example/')).toBe(false);
    expect(await store.get('test')).not.toBeNull();
    expect(await keys.forgetUnlessBoundTo('test', 'https://elsewhere.example')).toBe(true);
    expect(await store.get('test')).toBeNull();
  });

  it('makes the station logger redact every key it stores or reads', async () => {
    const { keys, lines, logger } = service(memoryKeyStore({ live: { key: 'sk_live_stored_key_456', address: 'https://api.delivery.example' } }));
    await keys.set('test', 'sk_test_typed_key_789');
    await keys.readKey('live');
    logger.error('request failed', { note: 'sent sk_test_typed_key_789 and sk_live_stored_key_456' });
    const text = lines.join('\n');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('sk_test_typed_key_789');
    expect(text).not.toContain('sk_live_stored_key_456');
  });

  it('does not verify without a key', async () => {
    const { keys } = service(memoryKeyStore());
    await expect(keys.verify('live')).rejects.toMatchObject({ code: 'KEY_MISSING' });
  });

  it('reads the keychain once a minute for the clients, not once per call, and takes this process’s own changes at once', async () => {
    const keychain = memoryKeyStore({ test: { key: 'sk_test_first_key_111', address: 'https://test.delivery.example' } });
    let reads = 0;
    const counting: KeyStore = { ...keychain, get: (environment) => ((reads += 1), keychain.get(environment)) };
    let now = Date.parse('2026-11-24T06:00:00Z');
    const { keys } = service(counting, () => new Date(now));

    for (let call = 0; call < 50; call++) expect((await keys.readKey('test'))?.key).toBe('sk_test_first_key_111');
    expect(reads).toBe(1);

    // Another process (the CLI) stores a new key: seen once the minute is over.
    await keychain.set('test', { key: 'sk_test_other_process_222', address: 'https://test.delivery.example' });
    now += 59_000;
    expect((await keys.readKey('test'))?.key).toBe('sk_test_first_key_111');
    now += 1_000;
    expect((await keys.readKey('test'))?.key).toBe('sk_test_other_process_222');

    // This process's own change is used at once; a removed key is gone at once.
    await keys.set('test', 'sk_test_typed_here_333');
    expect((await keys.readKey('test'))?.key).toBe('sk_test_typed_here_333');
    await keys.remove('test');
    expect(await keys.readKey('test')).toBeNull();
  });
});
