import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StationSettings } from '../../../src/main/settings/station-settings';
import { openDatabase } from '../../../src/main/store/database';
import { SettingsRepository } from '../../../src/main/store/settings-repository';

const fresh = () => {
  const db = openDatabase(':memory:');
  return { db, repository: new SettingsRepository(db) };
};

describe('settings repository', () => {
  it('falls back to the default when a stored value no longer parses', () => {
    const { db, repository } = fresh();
    repository.write('station', 'port', 8080);
    expect(repository.read('station', 'port', z.number(), 1)).toBe(8080);
    db.prepare(`UPDATE settings SET value = '{broken' WHERE key = 'port'`).run();
    expect(repository.read('station', 'port', z.number(), 1)).toBe(1);
    repository.write('station', 'port', 'not a number');
    expect(repository.read('station', 'port', z.number(), 1)).toBe(1);
  });

  it('keeps scopes apart', () => {
    const { repository } = fresh();
    repository.write('test', 'apiBaseUrl', 'https://test.example');
    expect(repository.read('live', 'apiBaseUrl', z.string().nullable(), null)).toBeNull();
  });

  it('writes a change of several settings whole or not at all', () => {
    const { repository } = fresh();
    expect(() =>
      repository.transaction(() => {
        repository.write('station', 'a', 1);
        throw new Error('halfway');
      }),
    ).toThrow('halfway');
    expect(repository.read('station', 'a', z.number(), 0)).toBe(0);
  });
});

describe('station settings', () => {
  it('makes one webhook secret per environment, once', () => {
    const { repository } = fresh();
    let made = 0;
    const settings = new StationSettings(repository, () => `secret-${(made += 1)}-${'x'.repeat(32)}`);
    const sandbox = settings.webhookSecret('sandbox');
    expect(settings.webhookSecret('sandbox')).toBe(sandbox);
    expect(settings.webhookSecret('live')).not.toBe(sandbox);
    expect(made).toBe(2);
    expect(new StationSettings(repository).webhookSecret('sandbox')).toBe(sandbox);
  });

  it('makes secrets that are long and safe in a URL path by default', () => {
    const secret = new StationSettings(fresh().repository).webhookSecret('test');
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('refuses a webhook receiver setting outside its range and keeps the old one', () => {
    const settings = new StationSettings(fresh().repository);
    expect(() => settings.setWebhookReceiver({ port: 70_000 })).toThrow();
    expect(settings.webhookReceiver().port).toBe(8787);
  });
});
