/**
 * The Floor screen's words for a bench, its printers and its runs, and for a lead's action seen at
 * the bench it was for, in each language: what a lead reads at a glance.
 */
import { describe, expect, it } from 'vitest';
import type { FloorCommandData, FloorRunData } from '../../../src/shared/contract/floor';
import { StationError } from '../../../src/shared/errors';
import { floorActedNotice } from '../../../src/renderer/src/floor/acted-notice';
import { benchStateWords, printerWords, runActions, runStateWords, type Words } from '../../../src/renderer/src/floor/floor-words';
import type { Language } from '../../../src/renderer/src/state/preferences';
import { errorText } from '../../../src/renderer/src/supervision/error-words';
import { floorBench } from '../../support/floor-reports';
import { createI18n } from './all-languages';

const clock = (iso: string) => iso.slice(11, 16);
const say = (language: Language, words: Words) => createI18n(language).t(words.key, words.values);

const run = (patch: Partial<FloorRunData> = {}): FloorRunData => ({
  runId: '9bd33285-cac7-4534-9196-734941ac578b',
  kind: 'bundles',
  printerId: 'p-1',
  printerName: 'Zebra 4',
  operator: 'Sam',
  state: 'running',
  pause: null,
  done: 12,
  total: 40,
  printed: 12,
  failed: 0,
  live: true,
  lastAction: null,
  ...patch,
});

describe("the floor's words", () => {
  it('say first what needs the lead, in each language', () => {
    const silent = floorBench('Bench 4', { answering: 'silent', heardAt: '2026-05-04T10:42:05.000Z' });
    expect(['en', 'nl', 'de', 'pl'].map((language) => say(language as Language, benchStateWords(silent, clock)))).toEqual([
      'Not answering since 10:42',
      'Antwoordt niet sinds 10:42',
      'Antwortet seit 10:42 nicht',
      'Nie odpowiada od 10:42',
    ]);
    expect(benchStateWords(silent, clock).tone).toBe('danger');
    const paperOut = floorBench('Bench 7', { printers: [{ printerId: 'p-1', name: 'Zebra 4', state: 'paused', fault: 'paper-out', busyWith: null, inBuffer: 2, roles: ['single'] }] });
    expect(say('en', benchStateWords(paperOut, clock))).toBe('Out of labels');
    expect(say('de', benchStateWords(floorBench('Bench 2', { uncertainCount: 3 }), clock))).toBe('3 Etiketten warten auf eine Entscheidung');
    expect(say('pl', benchStateWords(floorBench('Bench 2', { uncertainCount: 5 }), clock))).toBe('5 etykiet czeka na decyzję');
    expect(say('en', benchStateWords(floorBench('Bench 2', { runs: [run()] }), clock))).toBe('Printing');
    expect(say('en', benchStateWords(floorBench('Bench 2'), clock))).toBe('Ready');
    expect(say('nl', benchStateWords(floorBench('Bench 2', { answering: 'stopped', stoppedAt: '2026-05-04T17:02:00.000Z' }), clock))).toBe('Afgesloten om 17:02');
  });

  it('name the fault, the bench driving a printer, and the lead who paused a run', () => {
    expect(say('en', printerWords({ printerId: 'p-1', name: 'Zebra 4', state: 'busy', fault: null, busyWith: { benchName: 'Bench 3', since: '2026-05-04T06:28:00.000Z' }, inBuffer: 0, roles: [] }, clock))).toBe(
      'in use at Bench 3 since 06:28',
    );
    expect(say('nl', printerWords({ printerId: 'p-1', name: 'Zebra 4', state: 'offline', fault: 'offline', busyWith: null, inBuffer: 0, roles: [] }, clock))).toBe('Printer niet bereikbaar');
    const byLead = run({ state: 'paused', pause: { by: 'user', fault: null, lead: { operator: 'Anna', benchName: 'Bench 2' }, since: '2026-05-04T10:43:00.000Z' } });
    expect(say('en', runStateWords(byLead, clock))).toBe('paused by Anna at Bench 2 (10:43)');
    expect(say('en', runStateWords(run({ state: 'paused', pause: { by: 'printer', fault: 'head-open', lead: null, since: '2026-05-04T10:43:00.000Z' } }), clock))).toBe('Head open');
    expect(say('en', runStateWords(run({ state: 'paused', live: false, pause: { by: 'station', fault: null, lead: null, since: '2026-05-04T10:43:00.000Z' } }), clock))).toBe('stopped with the station');
    expect(runActions(byLead)).toEqual(['resume', 'cancel']);
    expect(runActions(run())).toEqual(['pause', 'cancel']);
  });

  it('tell a lead who acted first, and a bench who acted on it from where', () => {
    const first = new StationError('FLOOR_ACTED_FIRST', 'English for the log', undefined, { facts: { operator: 'Piotr', benchName: 'Bench 2', action: 'resume', since: '2026-05-04T10:44:00.000Z' } }).toData();
    const { title, action } = errorText(first, createI18n('en').t, 'en');
    expect(`${title} — ${action}`).toMatch(/^Piotr at Bench 2 acted on this first \(\d\d:\d\d\) — Nothing was sent\. Look at the floor again, then decide$/);
    const closed = new StationError('BENCH_NOT_ANSWERING', 'English for the log', undefined, { facts: { benchName: 'Bench 7', since: '2026-05-04T17:02:00.000Z', subject: 'stopped' } }).toData();
    expect(errorText(closed, createI18n('de').t, 'de').title).toMatch(/^Bench 7 wurde um \d\d:\d\d geschlossen$/);

    const command: FloorCommandData = {
      id: 7, environment: 'live', benchId: 'b', benchName: 'Bench 6', action: 'pause', target: 'run:9bd33285-cac7-4534-9196-734941ac578b', operator: 'Anna', fromBenchName: 'Bench 2',
      state: 'done', error: null, runId: '9bd33285-cac7-4534-9196-734941ac578b', createdAt: '2026-05-04T10:43:00.000Z', settledAt: '2026-05-04T10:43:00.200Z',
    };
    const notice = floorActedNotice(command);
    expect(createI18n('en').t(`notices.${notice.code}`, { ...notice.facts })).toBe('Anna at Bench 2 paused a run of this bench (9bd33285)');
    expect(createI18n('pl').t(`notices.${notice.code}`, { ...notice.facts })).toBe('Anna (Bench 2) wstrzymał przebieg na tym stanowisku (9bd33285)');
  });
});
