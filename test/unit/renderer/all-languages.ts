/// <reference types="vite/client" />
/**
 * Every language's words loaded at once, for tests that word a text in each language without the
 * screen's fetch of a language on first use.
 */
import type { i18n } from 'i18next';
import { createI18n as createScreenI18n } from '../../../src/renderer/src/i18n/create-i18n';
import type { Language } from '../../../src/renderer/src/state/preferences';
import de from '../../../src/renderer/src/i18n/de.json?raw';
import en from '../../../src/renderer/src/i18n/en.json?raw';
import nl from '../../../src/renderer/src/i18n/nl.json?raw';
import pl from '../../../src/renderer/src/i18n/pl.json?raw';

export const messageFiles: Record<Language, string> = { en, nl, de, pl };

export function createI18n(language: Language): i18n {
  return createScreenI18n(language, messageFiles);
}
