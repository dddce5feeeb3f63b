import { describe, expect, it } from 'vitest';
import { createKeyService } from '../../../src/main/keys/key-service';
import type { KeyStore } from '../../../src/main/keys/key-store';
import { createLogger } from '../../../src/main/logging/logger';
import { StationSettings } from '../../../src/main/settings/station-settings';
import { openDatabase } from '../../../src/main/store/database';
import { SettingsRepository } from '../../../src/main/store/settings-repository';
import { StationError } from '../../../src/shared/errors';
import { memoryKeyStore } from '../../support/station';

function service(store: KeyStore) {
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
});
