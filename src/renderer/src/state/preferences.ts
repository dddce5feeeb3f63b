/**
 * The screen's own preferences at this bench: language, sound volume, scanner timing and the
 * company's locations an upload's rows may name (typed once, not every shift). They
 * belong to the screen (the browser profile or the Electron window), not to the station's core,
 * so they are kept in the page's storage; what is stored is parsed, and anything unreadable falls
 * back to the default instead of breaking the screen.
 */
import { z } from 'zod';
import { defaultScanDetectorOptions, scanGapBounds } from '../scan/scan-detector';

export const languages = ['en', 'nl', 'de', 'pl'] as const;
export type Language = (typeof languages)[number];

export const PreferencesSchema = z.object({
  language: z.enum(languages),
  /** 0–100. */
  volume: z.number().int().min(0).max(100),
  /** Longest gap between two keys of a scan, ms; slow Bluetooth scanners need more. */
  scanGapMs: z.number().int().min(scanGapBounds.min).max(scanGapBounds.max),
  /** As typed into the spreadsheet upload ("1101, 1102"). */
  uploadLocations: z.string().max(500),
});
export type Preferences = z.infer<typeof PreferencesSchema>;

/** Where preferences live: `window.localStorage` in the page, a Map in tests. */
export interface PreferenceStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const preferencesStorageKey = 'station.preferences.v1';

/** The browser's language when it is one the station speaks, else English. */
export function pickLanguage(browserLanguages: readonly string[]): Language {
  for (const tag of browserLanguages) {
    const primary = tag.toLowerCase().split('-')[0];
    const match = languages.find((language) => language === primary);
    if (match) return match;
  }
  return 'en';
}

export function defaultPreferences(browserLanguages: readonly string[]): Preferences {
  return { language: pickLanguage(browserLanguages), volume: 70, scanGapMs: defaultScanDetectorOptions.maxGapMs, uploadLocations: '' };
}

/** Reads stored preferences field by field: one bad field keeps its default, the rest survive. */
export function loadPreferences(storage: PreferenceStorage, defaults: Preferences): Preferences {
  let stored: unknown;
  try {
    stored = JSON.parse(storage.getItem(preferencesStorageKey) ?? '{}');
  } catch {
    return defaults;
  }
  if (typeof stored !== 'object' || stored === null) return defaults;
  const record = stored as Record<string, unknown>;
  const shape = PreferencesSchema.shape;
  const field = <K extends keyof Preferences>(key: K): Preferences[K] => {
    const parsed = shape[key].safeParse(record[key]);
    return parsed.success ? (parsed.data as Preferences[K]) : defaults[key];
  };
  return { language: field('language'), volume: field('volume'), scanGapMs: field('scanGapMs'), uploadLocations: field('uploadLocations') };
}

export function savePreferences(storage: PreferenceStorage, preferences: Preferences): void {
  try {
    storage.setItem(preferencesStorageKey, JSON.stringify(PreferencesSchema.parse(preferences)));
  } catch {
    // Storage full or disabled (a locked-down kiosk profile): the choice holds until reload.
  }
}
