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
    expect(await keys.readKey('test')).toBe('sk_test_new_key_123');
  });

  it('makes the station logger redact every key it stores or reads', async () => {
    const { keys, lines, logger } = service(memoryKeyStore({ live: 'sk_live_stored_key_456' }));
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
