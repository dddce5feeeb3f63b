/// <reference types="vite/client" />
import i18next, { type i18n, type ResourceLanguage } from 'i18next';
import { z } from 'zod';
import type { Language } from '../state/preferences';
import englishText from './en.json?raw';

/** A translation file: nested objects whose leaves are strings. */
type Messages = { [key: string]: string | Messages };
const MessagesSchema: z.ZodType<Messages> = z.lazy(() => z.record(z.string(), z.union([z.string(), MessagesSchema])));

/** Parses a translation file; a broken one fails the build's tests, not a bench at 6 am. */
export function parseMessages(text: string, name: string): Messages {
  const parsed = MessagesSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`The translation file ${name} is not nested text: ${parsed.error.message}`);
  return parsed.data;
}

/** Translation files by language, as text. */
export type MessageFiles = Partial<Record<Language, string>>;

/**
 * English is in the first load (it is every other language's fallback); the others, about 50 KB
 * each, are fetched when a bench first uses them, so the scan screen's first load carries one.
 */
const otherLanguages: Record<Exclude<Language, 'en'>, () => Promise<string>> = {
  nl: async () => (await import('./nl.json?raw')).default,
  de: async () => (await import('./de.json?raw')).default,
  pl: async () => (await import('./pl.json?raw')).default,
};

export function loadMessageFile(language: Language): Promise<string> {
  return language === 'en' ? Promise.resolve(englishText) : otherLanguages[language]();
}

/**
 * A fresh i18next instance for one screen (never the library's global one), initialised
 * synchronously with English and the files given; a language without its file yet shows English
 * until `switchLanguage` has fetched it.
 */
export function createI18n(language: Language, files: MessageFiles = {}): i18n {
  const texts: MessageFiles = { en: englishText, ...files };
  const resources: Record<string, { translation: ResourceLanguage }> = {};
  for (const [code, text] of Object.entries(texts)) resources[code] = { translation: parseMessages(text, `${code}.json`) };
  const instance = i18next.createInstance();
  void instance.init({
    resources,
    lng: language in resources ? language : 'en',
    fallbackLng: 'en',
    initAsync: false,
    // i18next otherwise advertises its commercial service in the console of every page.
    showSupportNotice: false,
    // React escapes what it renders; escaping here too would show "&amp;" on screen.
    interpolation: { escapeValue: false },
  });
  return instance;
}

/**
 * Switches the screen to `language`, fetching its file the first time. `stillWanted` is asked
 * after the fetch, so a slower fetch never overrides a language chosen after it.
 */
export async function switchLanguage(instance: i18n, language: Language, stillWanted: () => boolean = () => true): Promise<void> {
  if (!instance.hasResourceBundle(language, 'translation')) {
    const messages = parseMessages(await loadMessageFile(language), `${language}.json`);
    instance.addResourceBundle(language, 'translation', messages);
  }
  if (stillWanted()) await instance.changeLanguage(language);
}
