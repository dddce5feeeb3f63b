import { describe, expect, it } from 'vitest';
import { StationError, type StationErrorData } from '../../../src/shared/errors';
import { errorText } from '../../../src/renderer/src/supervision/error-words';
import { offlineMergedNotices } from '../../../src/renderer/src/store-offline/merged-notices';
import type { Language } from '../../../src/renderer/src/state/preferences';
import { createI18n } from './all-languages';

const languages: Language[] = ['en', 'nl', 'de', 'pl'];

const refusal = (code: StationErrorData['code'], subject: string) =>
  new StationError(code, 'English for the log', undefined, { facts: { subject, since: '2026-11-24T06:28:00.000Z', problem: 'unreachable' } }).toData();

const say = (language: Language, error: StationErrorData) => {
  const { title, action } = errorText(error, createI18n(language).t, language);
  return `${title} — ${action}`;
};

/** A notice as the Notices component words it. */
const word = (language: Language, notice: ReturnType<typeof offlineMergedNotices>[number]) => createI18n(language).t(`notices.${notice.code}`, { ...notice.facts });

describe('local-only printing while the shared store is offline, in the screen’s words', () => {
  it('says why a print waits while the local labels are merged, and that a bundle run is not covered', () => {
    expect(say('en', refusal('STORE_OFFLINE', 'merging'))).toBe(
      "Shared store back: this bench's local labels are being merged — Scan again in a moment: printing starts once the merge is done",
    );
    expect(say('en', refusal('STORE_OFFLINE', 'scans-only'))).toBe(
      'Local-only printing covers scans, not bundle runs — Scan the orders one by one, or start the run when the shared store is back',
    );
    expect(say('nl', refusal('STORE_OFFLINE', 'scans-only'))).toBe(
      'Lokaal printen geldt voor scans, niet voor bundelruns — Scan de orders een voor een, of start de run zodra de gedeelde opslag terug is',
    );
  });

  it('words an allowance refused because the store answers, or because nobody is named', () => {
    expect(say('en', refusal('CONFLICT', 'store-online'))).toBe('The shared store answers: local-only printing is not needed — Print as usual: the duplicate guard works again');
    expect(say('en', refusal('OPERATOR_REQUIRED', 'local-printing'))).toBe("Allowing local-only printing needs the lead's name — Fill in your name, then allow it");
  });

  it('gives every new refusal its own words in every language, not the code’s plain ones', () => {
    for (const language of languages) {
      for (const [code, subject] of [
        ['STORE_OFFLINE', 'merging'],
        ['STORE_OFFLINE', 'scans-only'],
        ['CONFLICT', 'store-online'],
        ['OPERATOR_REQUIRED', 'local-printing'],
      ] as const) {
        const plain = say(language, refusal(code, 'a-subject-nobody-words'));
        expect(say(language, refusal(code, subject)), `${language} ${code} ${subject}`).not.toBe(plain);
      }
    }
  });

  it('after a merge, says how many labels were merged and warns of those printed twice', () => {
    const notices = offlineMergedNotices({ labels: 12, duplicates: 1 });
    expect(notices.map((notice) => notice.level)).toEqual(['info', 'warning']);
    expect(notices.map((notice) => word('en', notice))).toEqual([
      '12 local-only labels merged into the shared journal',
      '1 printed twice while offline — see Setup › Store',
    ]);
    expect(offlineMergedNotices({ labels: 1, duplicates: 0 }).map((notice) => word('nl', notice))).toEqual(['1 lokaal geprint etiket samengevoegd met het gedeelde journaal']);
    expect(offlineMergedNotices({ labels: 5, duplicates: 3 }).map((notice) => word('pl', notice))).toEqual([
      '5 lokalnych etykiet scalonych ze wspólnym dziennikiem',
      '3 wydrukowane dwa razy podczas awarii — zobacz Ustawienia › Baza danych',
    ]);
  });
});
