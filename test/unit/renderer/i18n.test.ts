import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../../src/shared/errors';
import { createI18n as createScreenI18n, parseMessages, switchLanguage } from '../../../src/renderer/src/i18n/create-i18n';
import { createI18n, messageFiles } from './all-languages';
import { reprintReasons } from '../../../src/renderer/src/scan/commands';
import { screenIds } from '../../../src/renderer/src/navigation/shortcuts';
import { soundKinds } from '../../../src/renderer/src/sound/tones';
import { stationNameWords } from '../../../src/renderer/src/i18n/station-name';
import { defaultStationName } from '../../../src/shared/contract/settings';

type Messages = ReturnType<typeof parseMessages>;
const load = (language: keyof typeof messageFiles) => parseMessages(messageFiles[language], `${language}.json`);
const en = load('en');
const nl = load('nl');

/** Every leaf as "a.b.c" → text. */
const flatten = (messages: Messages, prefix = ''): Map<string, string> => {
  const leaves = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') leaves.set(path, value);
    else for (const [leaf, text] of flatten(value, path)) leaves.set(leaf, text);
  }
  return leaves;
};
const enLeaves = flatten(en);
const nlLeaves = flatten(nl);
const deLeaves = flatten(load('de'));
const plLeaves = flatten(load('pl'));
/** Plural forms a language needs besides `_one` and `_other` (i18next's CLDR categories). */
const extraPlurals: Record<'de' | 'pl', readonly string[]> = { de: [], pl: ['few', 'many'] };
/** The keys a language must have: every English key, plus its extra plural forms of each `_other`. */
const expectedKeys = (language: 'de' | 'pl') =>
  [...enLeaves.keys()].flatMap((key) => (key.endsWith('_other') ? [key, ...extraPlurals[language].map((form) => key.replace(/_other$/, `_${form}`))] : [key])).sort();
const variables = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('The screen texts in every language', () => {
  it('have exactly the same keys, none empty', () => {
    expect([...nlLeaves.keys()].sort()).toEqual([...enLeaves.keys()].sort());
    for (const [key, text] of [...enLeaves, ...nlLeaves]) expect(text.trim(), key).not.toBe('');
  });

  it('use the same placeholders in both languages', () => {
    // A singular may say "one" in words instead of {{count}}.
    const withoutCount = (names: (string | undefined)[], key: string) => (key.endsWith('_one') ? names.filter((name) => name !== 'count') : names);
    for (const [key, text] of enLeaves) expect(withoutCount(variables(nlLeaves.get(key) ?? ''), key), key).toEqual(withoutCount(variables(text), key));
  });

  it('are translated: the Dutch differs from the English except for names and codes', () => {
    const same = [...enLeaves].filter(([key, text]) => nlLeaves.get(key) === text).map(([key]) => key);
    const allowed = /^(environment\.(sandbox|test|live)|languages\.|footer\.station|nav\.printers|printers\.(title|dpi|model)|shift\.printer|printerStatus\.offline|errors\.PRINTER_OFFLINE\.title|result\.(order|printer)|setup\.(volumeValue|scanGapUnit|scanner\.title)|scan\.scanned|history\.(order|printer)|setup\.importFields\.status|upload\.fileRows|floor\.(printerFor|filter\.run|run\.kind\.single))/;
    expect(same.filter((key) => !allowed.test(key))).toEqual([]);
  });

  it('say for every error code what happened and what to do, in both languages', () => {
    for (const code of errorCodes) {
      for (const leaves of [enLeaves, nlLeaves, deLeaves, plLeaves]) {
        expect(leaves.get(`errors.${code}.title`), code).toBeTruthy();
        expect(leaves.get(`errors.${code}.action`), code).toBeTruthy();
      }
    }
  });

  it('cover every screen, reprint reason and sound', () => {
    for (const screen of screenIds) expect(enLeaves.has(`nav.${screen}`), screen).toBe(true);
    for (const reason of reprintReasons) expect(enLeaves.has(`reprint.reasons.${reason}`), reason).toBe(true);
    for (const sound of soundKinds) expect(enLeaves.has(`sounds.${sound}`), sound).toBe(true);
  });

  it('give the messages the bench expects', () => {
    const i18n = createI18n('en');
    const say = (code: string) => `${i18n.t(`errors.${code}.title`)} — ${i18n.t(`errors.${code}.action`)}`;
    expect(say('PAPER_OUT')).toBe('Printer out of labels — Load a roll, then press Resume');
    // A packer can check the slip and scan again; importing a manifest is a lead's job.
    expect(say('ORDER_NOT_FOUND')).toBe('Order not found — Check the slip and scan again, or call your lead');
    expect(say('KEY_REJECTED')).toBe('API key rejected — Ask a supervisor');
    expect(i18n.t('result.duplicateLine', { time: '10:31', operator: 'Sam', station: 'Bench 3' })).toBe('Already printed at 10:31 by Sam on Bench 3 — reprint?');
  });

  it('switch language on one instance without touching another', async () => {
    const first = createI18n('en');
    const second = createI18n('en');
    await first.changeLanguage('nl');
    expect(first.t('errors.PAPER_OUT.title')).toBe('Printer heeft geen etiketten meer');
    expect(second.t('errors.PAPER_OUT.title')).toBe('Printer out of labels');
  });

  it('are complete in German and Polish, with Polish few/many plurals and the same placeholders', () => {
    for (const [language, leaves] of [['de', deLeaves], ['pl', plLeaves]] as const) {
      expect([...leaves.keys()].sort(), language).toEqual(expectedKeys(language));
      for (const [key, text] of leaves) {
        expect(text.trim(), `${language} ${key}`).not.toBe('');
        const english = enLeaves.get(key.replace(/_(few|many)$/, '_other')) ?? '';
        const names = (value: string) => variables(value).filter((name) => !(key.endsWith('_one') && name === 'count'));
        expect(names(text), `${language} ${key}`).toEqual(names(english));
      }
    }
  });

  it('are translated into German and Polish, not copied from English', () => {
    for (const leaves of [deLeaves, plLeaves]) {
      const same = [...enLeaves].filter(([key, text]) => leaves.get(key) === text && text.length > 12).map(([key]) => key);
      expect(same.filter((key) => !/^(footer\.keys|languages\.|upload\.fileRows)/.test(key))).toEqual([]);
    }
  });

  it('pick the Polish plural form by count', () => {
    const pl = createI18n('pl');
    expect(pl.t('shift.parcels', { count: 1 })).toBe('1 paczka');
    expect(pl.t('shift.parcels', { count: 3 })).toBe('3 paczki');
    expect(pl.t('shift.parcels', { count: 5 })).toBe('5 paczek');
    expect(pl.t('shift.parcels', { count: 22 })).toBe('22 paczki');
    const de = createI18n('de');
    expect(de.t('shift.parcels', { count: 5 })).toBe('5 Pakete');
    expect(de.t('errors.PAPER_OUT.title')).toBe('Drucker hat keine Etiketten mehr');
  });

  it('use one word per thing: British English, "etiket" in Dutch, "paczka" for a parcel in Polish', () => {
    const american = /\b(journaled|journaling|canceled|canceling|color|labeled|labeling|center|organiz\w*|analyz\w*|behavior|gray)\b/i;
    expect([...enLeaves].filter(([, text]) => american.test(text))).toEqual([]);
    // The Dutch screen calls a label an etiket everywhere ("labelprinter" too).
    expect([...nlLeaves].filter(([, text]) => /\blabel(s|printer)?\b/i.test(text.replace(/\{\{\w+\}\}/g, '')))).toEqual([]);
    // Polish calls a parcel a paczka; przesyłka is kept for what the English calls a shipment.
    const parcelAsShipment = [...plLeaves].filter(([key, text]) => /przesył(ka|ki|ek|kę)/i.test(text) && !/shipment/i.test(enLeaves.get(key.replace(/_(few|many)$/, '_other')) ?? ''));
    expect(parcelAsShipment).toEqual([]);
    expect(nlLeaves.get('errors.NOT_FOUND.title_run')).not.toMatch(/Printrun/);
  });

  it('name the values the readers take for a yes/no column, "yes" and "no", alike on the upload panel, its refusal and the guide', () => {
    for (const leaves of [enLeaves, nlLeaves, deLeaves, plLeaves]) {
      for (const key of ['upload.columnsOptional', 'upload.problem.flag', 'guide.units']) {
        const text = leaves.get(key) ?? '';
        expect(text, key).toMatch(/\byes\b.*\bno\b/);
        expect(text, key).not.toMatch(/\b(ja of nee|ja oder nein|tak lub nie)\b/);
      }
    }
  });

  it('say what TEST lacks, the key alone or the address alone, not both when one is set', () => {
    for (const language of ['en', 'nl', 'de', 'pl'] as const) {
      const i18n = createI18n(language);
      const both = i18n.t('setup.notSetUpBody', { environment: 'TEST' });
      const key = i18n.t('setup.notSetUpBody', { environment: 'TEST', context: 'key' });
      const address = i18n.t('setup.notSetUpBody', { environment: 'TEST', context: 'address' });
      expect(new Set([both, key, address]).size, language).toBe(3);
    }
    expect(createI18n('en').t('setup.notSetUpBody', { environment: 'TEST', context: 'key' })).toContain('until its API key is entered below');
  });

  it('name a bench nobody named in the screen’s language', () => {
    const names = (['en', 'nl', 'de', 'pl'] as const).map((language) => stationNameWords(defaultStationName, createI18n(language).t));
    expect(names).toEqual(['Packing bench', 'Inpaktafel', 'Packplatz', 'Stanowisko pakowania']);
    expect(stationNameWords('Bench 3', createI18n('nl').t)).toBe('Bench 3');
  });

  it('refuse a translation file that is not nested text', () => {
    expect(() => parseMessages('{"a": 1}', 'bad.json')).toThrow(/bad\.json/);
  });
});

describe('Languages fetched on first use', () => {
  it('start in English, switch once the file is in, and never let a slower fetch override a later choice', async () => {
    const screen = createScreenI18n('nl');
    expect(screen.t('nav.scan')).toBe(createI18n('en').t('nav.scan'));
    await switchLanguage(screen, 'nl');
    expect(screen.language).toBe('nl');
    expect(screen.t('nav.scan')).toBe(createI18n('nl').t('nav.scan'));
    await switchLanguage(screen, 'de', () => false);
    expect(screen.language).toBe('nl');
    expect(screen.hasResourceBundle('de', 'translation')).toBe(true);
  });
});
