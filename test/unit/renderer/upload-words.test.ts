/**
 * The spreadsheet upload's refusals and row reasons in the screen's words, in every language: the
 * file problems main reports as IMPORT_FAILED with a subject, the missing columns listed, an upload
 * whose state refuses the call (CONFLICT), the panel's own refusals (which used to carry their
 * words in `message`, which the screen no longer shows), and an orderRef created before for
 * another location.
 */
import { describe, expect, it } from 'vitest';
import { uploadFileProblems, type UploadRowView } from '../../../src/shared/contract/upload';
import type { StationErrorData } from '../../../src/shared/errors';
import { createI18n } from './all-languages';
import { errorText } from '../../../src/renderer/src/supervision/error-words';
import { fileTooBig, noLocationChosen, uploadCountsWords, uploadRowWhy } from '../../../src/renderer/src/shift/upload-words';
import type { Language } from '../../../src/renderer/src/state/preferences';

const languages = ['en', 'nl', 'de', 'pl'] as const;
const say = (language: Language, error: StationErrorData) => {
  const { title, action } = errorText(error, createI18n(language).t, language);
  return `${title} — ${action}`;
};
const error = (code: StationErrorData['code'], facts: StationErrorData['facts']): StationErrorData => ({ code, message: 'English for the log only', facts });

describe('the upload’s refusals in the screen’s words', () => {
  it('words every file problem in every language as its own cause, never the plain "import failed"', () => {
    for (const language of languages) {
      const plain = say(language, error('IMPORT_FAILED', {}));
      const said = uploadFileProblems.map((subject) => say(language, error('IMPORT_FAILED', { subject, file: 'orders.xlsx', mb: 20, sizeMb: 23.4 })));
      for (const [index, text] of said.entries()) {
        expect(text, `${language} ${uploadFileProblems[index]}`).not.toBe(plain);
        expect(text, `${language} ${uploadFileProblems[index]}`).not.toMatch(/\{\{|English/);
      }
      // Six causes, six different sentences.
      expect(new Set(said).size, language).toBe(uploadFileProblems.length);
    }
  });

  it('says how big a file is and the limit, from its facts', () => {
    const tooBig = error('IMPORT_FAILED', { subject: 'too-big', file: 'week.xlsx', mb: 20, sizeMb: 23.4 });
    expect(say('en', tooBig)).toBe('week.xlsx is larger than 20 MB (23.4 MB) — Split it into files of at most 20 MB and choose each one in turn');
    expect(say('nl', tooBig)).toBe('week.xlsx is groter dan 20 MB (23.4 MB) — Splits het in bestanden van hoogstens 20 MB en kies ze een voor een');
    expect(say('de', tooBig)).toBe('week.xlsx ist größer als 20 MB (23.4 MB) — Teilen Sie sie in Dateien von höchstens 20 MB und wählen Sie sie nacheinander');
    expect(say('pl', tooBig)).toBe('week.xlsx jest większy niż 20 MB (23.4 MB) — Podziel go na pliki po najwyżej 20 MB i wybierz je po kolei');
    expect(say('en', error('IMPORT_FAILED', { subject: 'no-header', file: 'empty.csv' }))).toMatch(/^empty\.csv has no header row — Put the column names in the first row/);
  });

  it('names the missing columns, singular or plural, with the Polish forms', () => {
    const one = error('UPLOAD_COLUMNS_MISSING', { subject: 'listed', columns: 'deliveryCity', count: 1 });
    const two = error('UPLOAD_COLUMNS_MISSING', { subject: 'listed', columns: 'deliveryCity, deliveryStreet', count: 2 });
    expect(say('en', one)).toBe("The spreadsheet lacks the column deliveryCity — Name the columns exactly as the service's spreadsheet does (capitals count), then upload it again");
    expect(say('en', two)).toMatch(/^The spreadsheet lacks the columns deliveryCity, deliveryStreet — /);
    expect(say('nl', two)).toMatch(/^De spreadsheet mist de kolommen deliveryCity, deliveryStreet — /);
    expect(say('de', one)).toMatch(/^In der Tabelle fehlt die Spalte deliveryCity — /);
    expect(say('pl', one)).toMatch(/^W arkuszu brakuje kolumny deliveryCity — /);
    expect(say('pl', two)).toMatch(/^W arkuszu brakuje kolumn deliveryCity, deliveryStreet — /);
    // An older error without the list still says what happened.
    expect(say('en', error('UPLOAD_COLUMNS_MISSING', {}))).toMatch(/^The spreadsheet lacks required columns — /);
  });

  it('says which state refused start, pause or cancel, not "check what you entered"', () => {
    const finished = error('CONFLICT', { subject: 'upload-finished', id: 'u-1', state: 'finished', action: 'start' });
    const cancelled = error('CONFLICT', { subject: 'upload-cancelled', id: 'u-1', state: 'cancelled', action: 'cancel' });
    const paused = error('CONFLICT', { subject: 'upload-paused', id: 'u-1', state: 'paused', action: 'pause' });
    expect(say('en', finished)).toBe('This upload is finished — Nothing is left to send: download the report, or upload the corrected failures sheet');
    expect(say('en', cancelled)).toBe('This upload was cancelled — Upload the file again: rows created before are skipped');
    expect(say('en', paused)).toBe('This upload is paused already — Press Resume to carry on, or cancel the upload');
    expect(say('nl', finished)).toBe('Deze upload is klaar — Er is niets meer te versturen: download het rapport, of upload het verbeterde blad met mislukte orders');
    expect(say('de', cancelled)).toBe('Dieser Upload wurde abgebrochen — Laden Sie die Datei erneut hoch: schon angelegte Zeilen werden übersprungen');
    expect(say('pl', paused)).toBe('To przesyłanie jest już wstrzymane — Naciśnij Wznów, aby kontynuować, albo anuluj przesyłanie');
  });
});

describe('the upload panel’s own refusals', () => {
  it('a file too big for the screen says its size and the limit in every language (its words used to sit in the unshown message)', () => {
    const tooBig = fileTooBig('week.xlsx', 25 * 1024 * 1024, 20 * 1024 * 1024);
    expect(tooBig).toMatchObject({ code: 'IMPORT_FAILED', facts: { subject: 'too-big', file: 'week.xlsx', mb: 20, sizeMb: 25 } });
    expect(say('en', tooBig)).toBe('week.xlsx is larger than 20 MB (25 MB) — Split it into files of at most 20 MB and choose each one in turn');
    expect(say('pl', tooBig)).toBe('week.xlsx jest większy niż 20 MB (25 MB) — Podziel go na pliki po najwyżej 20 MB i wybierz je po kolei');
  });

  it('no location asks for the company’s locations in every language', () => {
    expect(say('en', noLocationChosen())).toBe('No location chosen for the upload — Type the location ids of your company the rows may name (for example 1101), then choose the file again');
    expect(say('nl', noLocationChosen())).toBe("Geen locatie gekozen voor de upload — Typ de locatie-id's van uw bedrijf die de rijen mogen noemen (bijvoorbeeld 1101) en kies het bestand opnieuw");
    expect(say('de', noLocationChosen())).toMatch(/^Kein Standort für den Upload gewählt — /);
    expect(say('pl', noLocationChosen())).toMatch(/^Nie wybrano lokalizacji dla przesyłania — /);
  });
});

describe('why a row is skipped', () => {
  const skipped = (skip: UploadRowView['skip']): UploadRowView => ({ row: 7, orderRef: 'NW-7', state: 'skipped', problems: [], skip, orderId: 'o-1' });

  it('an orderRef created before for another location names both locations', () => {
    const row = skipped({ code: 'created-before', orderId: 'o-1', locationId: '1101', rowLocationId: '1102' });
    expect(uploadRowWhy(row, createI18n('en').t)).toBe('Already created at location 1101 (this row names location 1102)');
    expect(uploadRowWhy(row, createI18n('nl').t)).toBe('Al aangemaakt op locatie 1101 (deze rij noemt locatie 1102)');
    expect(uploadRowWhy(row, createI18n('de').t)).toBe('Schon angelegt für Standort 1101 (diese Zeile nennt Standort 1102)');
    expect(uploadRowWhy(row, createI18n('pl').t)).toBe('Już utworzone w lokalizacji 1101 (ten wiersz podaje lokalizację 1102)');
  });

  it('created before for the same location, or where the station does not know, is plainly "already created"', () => {
    expect(uploadRowWhy(skipped({ code: 'created-before', orderId: 'o-1', locationId: '1101', rowLocationId: '1101' }), createI18n('en').t)).toBe('Already created');
    expect(uploadRowWhy(skipped({ code: 'created-before', orderId: 'o-1', locationId: null, rowLocationId: '1101' }), createI18n('en').t)).toBe('Already created');
  });
});

describe('the upload’s result counts', () => {
  const counts = { total: 3, ready: 2, invalid: 1, skipped: 0, created: 0, failed: 2, unknown: 0, cancelled: 0 };
  it('says where the failed rows failed, so the result adds up with the progress of the rows sent', () => {
    const status = { successful: 0, failedTotal: 3, counts };
    expect(uploadCountsWords(status, createI18n('en').t)).toBe('0 created, 3 failed (1 with errors in the file, 2 at the service), 0 skipped');
    expect(uploadCountsWords(status, createI18n('nl').t)).toBe('0 aangemaakt, 3 mislukt (1 met fouten in het bestand, 2 bij de dienst), 0 overgeslagen');
    // Rows of unknown outcome failed at the service too; cancelled rows are said as such.
    const mixed = { successful: 5, failedTotal: 3, counts: { ...counts, invalid: 0, failed: 1, unknown: 1, cancelled: 1, skipped: 2 } };
    expect(uploadCountsWords(mixed, createI18n('en').t)).toBe('5 created, 3 failed (2 at the service, 1 cancelled), 2 skipped');
  });

  it('says nothing of failures when there were none', () => {
    expect(uploadCountsWords({ successful: 4, failedTotal: 0, counts: { ...counts, invalid: 0, failed: 0 } }, createI18n('en').t)).toBe('4 created, 0 failed, 0 skipped');
  });

  it('counts rows with their plural: one row, 2 rows; Polish few and many', () => {
    expect(createI18n('en').t('upload.rows', { count: 1 })).toBe('1 row');
    expect(createI18n('en').t('upload.rows', { count: 2 })).toBe('2 rows');
    expect(createI18n('nl').t('upload.rows', { count: 1 })).toBe('1 rij');
    expect(createI18n('pl').t('upload.rows', { count: 3 })).toBe('3 wiersze');
    expect(createI18n('pl').t('upload.rows', { count: 5 })).toBe('5 wierszy');
  });
});
