import { createStore, type StoreApi } from 'zustand/vanilla';
import { clampVolume } from '../sound/tones';
import { loadPreferences, savePreferences, type Language, type Preferences, type PreferenceStorage } from './preferences';
import { scanGapBounds } from '../scan/scan-detector';

export interface PreferencesState extends Preferences {
  setLanguage(language: Language): void;
  setVolume(volume: number): void;
  setScanGapMs(gap: number): void;
  setUploadLocations(text: string): void;
}

export function createPreferencesStore(storage: PreferenceStorage, defaults: Preferences): StoreApi<PreferencesState> {
  const store = createStore<PreferencesState>()((set) => ({
    ...loadPreferences(storage, defaults),
    setLanguage: (language) => set({ language }),
    setVolume: (volume) => set({ volume: clampVolume(volume) }),
    setScanGapMs: (gap) => set({ scanGapMs: Math.min(scanGapBounds.max, Math.max(scanGapBounds.min, Math.round(gap))) }),
    setUploadLocations: (text) => set({ uploadLocations: text.slice(0, 500) }),
  }));
  store.subscribe(({ language, volume, scanGapMs, uploadLocations }) => savePreferences(storage, { language, volume, scanGapMs, uploadLocations }));
  return store;
}
