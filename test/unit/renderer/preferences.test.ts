import { describe, expect, it } from 'vitest';
import { defaultPreferences, loadPreferences, pickLanguage, preferencesStorageKey, savePreferences, type PreferenceStorage } from '../../../src/renderer/src/state/preferences';
import { createPreferencesStore } from '../../../src/renderer/src/state/preferences-store';

const memoryStorage = (initial: Record<string, string> = {}): PreferenceStorage & { data: Map<string, string> } => {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value) };
};

describe('screen preferences', () => {
  it('starts in the browser’s language when the station speaks it, else English', () => {
    expect(pickLanguage(['nl-NL', 'en'])).toBe('nl');
    expect(pickLanguage(['de-DE', 'fr'])).toBe('de');
    expect(pickLanguage(['pl-PL'])).toBe('pl');
    expect(pickLanguage(['fr-FR', 'es'])).toBe('en');
    expect(defaultPreferences(['nl-BE'])).toEqual({ language: 'nl', volume: 70, scanGapMs: 50, uploadLocations: '' });
  });

  it('keeps what was chosen across a reload', () => {
    const storage = memoryStorage();
    const first = createPreferencesStore(storage, defaultPreferences(['en']));
    first.getState().setLanguage('nl');
    first.getState().setVolume(35);
    first.getState().setScanGapMs(80);
    first.getState().setUploadLocations('1101, 1102');
    const reloaded = createPreferencesStore(storage, defaultPreferences(['en']));
    expect(reloaded.getState()).toMatchObject({ language: 'nl', volume: 35, scanGapMs: 80, uploadLocations: '1101, 1102' });
  });

  it('keeps settings in range whatever the control sends', () => {
    const store = createPreferencesStore(memoryStorage(), defaultPreferences(['en']));
    store.getState().setVolume(250);
    store.getState().setScanGapMs(1);
    expect(store.getState()).toMatchObject({ volume: 100, scanGapMs: 10 });
  });

  it('falls back field by field when the stored text is broken or tampered with', () => {
    const defaults = defaultPreferences(['en']);
    expect(loadPreferences(memoryStorage({ [preferencesStorageKey]: '{not json' }), defaults)).toEqual(defaults);
    expect(loadPreferences(memoryStorage({ [preferencesStorageKey]: '"text"' }), defaults)).toEqual(defaults);
    const mixed = JSON.stringify({ language: 'fr', volume: 20, scanGapMs: 'fast' });
    expect(loadPreferences(memoryStorage({ [preferencesStorageKey]: mixed }), defaults)).toEqual({ ...defaults, volume: 20 });
  });

  it('does not break when the storage refuses to save', () => {
    const refusing: PreferenceStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => savePreferences(refusing, defaultPreferences(['en']))).not.toThrow();
  });
});
