/// <reference types="vite/client" />
import i18next, { type i18n, type ResourceLanguage } from 'i18next';
import { z } from 'zod';
import { languages, type Language } from '../state/preferences';
import enText from './en.json?raw';
import nlText from './nl.json?raw';
import deText from './de.json?raw';
import plText from './pl.json?raw';

/** A translation file: nested objects whose leaves are strings. */
type Messages = { [key: string]: string | Messages };
const MessagesSchema: z.ZodType<Messages> = z.lazy(() => z.record(z.string(), z.union([z.string(), MessagesSchema])));

/** Parses a translation file; a broken one fails the build's tests, not a bench at 6 am. */
export function parseMessages(text: string, name: string): Messages {
  const parsed = MessagesSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`The translation file ${name} is not nested text: ${parsed.error.message}`);
  return parsed.data;
}

export const messageFiles: Record<Language, string> = { en: enText, nl: nlText, de: deText, pl: plText };

/**
 * A fresh i18next instance for one screen (never the library's global one), initialised
 * synchronously: every language is bundled, a few kilobytes each, so switching is instant.
 */
export function createI18n(language: Language): i18n {
  const resources = Object.fromEntries(
    languages.map((code) => [code, { translation: parseMessages(messageFiles[code], `${code}.json`) }]),
  ) as Record<Language, { translation: ResourceLanguage }>;
  const instance = i18next.createInstance();
  void instance.init({
    resources,
    lng: language,
    fallbackLng: 'en',
    initAsync: false,
    // i18next otherwise advertises its commercial service in the console of every page.
    showSupportNotice: false,
    // React escapes what it renders; escaping here too would show "&amp;" on screen.
    interpolation: { escapeValue: false },
  });
  return instance;
}
