import { describe, expect, it } from 'vitest';
import { StationError, type StationErrorData } from '../../../src/shared/errors';
import { createI18n } from './all-languages';
import { errorText, shownDetails } from '../../../src/renderer/src/supervision/error-words';
import { reasonWords, skippedWords } from '../../../src/renderer/src/journal/reason-words';
import { rowProblemWords } from '../../../src/renderer/src/screens/setup/row-problem-words';
import type { Language } from '../../../src/renderer/src/state/preferences';

/** "Title — Action", as the panels show it, in one language. */
const say = (language: Language, error: StationErrorData) => {
  const i18n = createI18n(language);
  const { title, action } = errorText(error, i18n.t, language);
  return `${title} — ${action}`;
};

const data = (code: StationErrorData['code'], facts?: StationErrorData['facts']) =>
  new StationError(code, 'English for the log that the screen never shows', ['a detail for the CLI'], facts ? { facts } : undefined).toData();

describe('the screen words each cause the station reports, in every language', () => {
  it('a reprint without an operator asks for the operator, not "check what you entered"', () => {
    const error = data('OPERATOR_REQUIRED', { subject: 'reprint' });
    expect(say('en', error)).toBe("A reprint needs the operator's name — Enter your name as the operator in Setup (F4), then reprint");
    expect(say('nl', error)).toBe('Opnieuw printen kan alleen met de naam van de medewerker — Vul uw naam in als medewerker bij Instellingen (F4) en print dan opnieuw');
    expect(say('de', error)).toBe('Ein Neudruck braucht den Namen des Bedieners — Geben Sie unter Einstellungen (F4) Ihren Namen als Bediener ein und drucken Sie dann erneut');
    expect(say('pl', error)).toBe('Ponowny wydruk wymaga imienia operatora — Wpisz swoje imię jako operator w Ustawieniach (F4), a potem wydrukuj ponownie');
  });

  it('a printer another bench drives names the printer, the bench and since when, and says nothing was sent', () => {
    const error = data('PRINTER_LEASED', { printerId: 'p-4', printerName: 'Zebra 4', benchName: 'Bench 3', since: '2026-11-24T06:28:00.000Z' });
    const en = say('en', error);
    const nl = say('nl', error);
    expect(en).toMatch(/^Zebra 4 is in use at Bench 3 — Bench 3 has been driving it since \d{1,2}:28.*Nothing was sent/);
    expect(nl).toMatch(/^Zebra 4 is in gebruik bij Bench 3 — Bench 3 stuurt deze printer aan sinds \d{1,2}:28.*Er is niets verstuurd/);
  });

  it('a scan read through the wrong keyboard layout names the layouts and what the scan meant', () => {
    const error = data('ORDER_NOT_FOUND', { subject: 'keyboard-layout', readAs: 'fr', typedAs: 'us', meant: 'DT2179675396352' });
    expect(say('en', error)).toBe(
      'This looks like a scanner typing through a French keyboard layout — As the US scanner meant it, the scan is DT2179675396352. Nothing was printed: check Setup › Scanner (F4), then scan again',
    );
    expect(say('nl', error)).toMatch(/^Dit lijkt een scanner die typt via de toetsenbordindeling Frans — Zoals de scanner \(VS\) het bedoelde, is de scan DT2179675396352\./);
    expect(say('de', error)).toMatch(/^Das sieht nach einem Scanner aus, der über das Tastaturlayout „Französisch“ tippt — So wie ihn der Scanner mit dem Layout „Englisch \(USA\)“ gemeint hat/);
    expect(say('pl', error)).toMatch(/^Wygląda na to, że skaner pisze przez układ klawiatury „francuski” — .*DT2179675396352/);
    // Two layouts that read the scan alike are both named.
    expect(say('en', data('ORDER_NOT_FOUND', { subject: 'keyboard-layout', readAs: 'fr,be', typedAs: 'us', meant: 'NW-104352-2' }))).toMatch(/^This looks like a scanner typing through a French \/ Belgian keyboard layout/);
    // A plain "not found" keeps its plain words.
    expect(say('en', data('ORDER_NOT_FOUND'))).toBe('Order not found — Check the slip and scan again, or call your lead');
  });

  it('a stopped station says it is not running and to restart it, not "check the network cable"', () => {
    const error: StationErrorData = { code: 'STATION_UNREACHABLE', message: 'The connection to the station was lost.' };
    expect(say('en', error)).toBe('The station is not running — Restart it');
    expect(say('nl', error)).toBe('Het station draait niet — Start het opnieuw');
    expect(say('de', error)).toBe('Die Station läuft nicht — Starten Sie sie neu');
    expect(say('pl', error)).toBe('Stacja nie działa — Uruchom ją ponownie');
  });

  it('an order in the manifest that the service does not know names the order and never says "import today’s manifest"', () => {
    const error = data('ORDER_UNKNOWN_TO_SERVICE', { orderRef: 'NW-1043', orderId: 'a7e0c1f2' });
    expect(say('en', error)).toBe("NW-1043 is in today's list, but the delivery service does not know it — Put the parcel aside and ask a supervisor to check the order at the delivery service");
    expect(say('nl', error)).toBe('NW-1043 staat in de lijst van vandaag, maar de bezorgdienst kent de order niet — Zet het pakket apart en vraag een leidinggevende de order bij de bezorgdienst na te gaan');
    expect(say('de', error)).toBe('NW-1043 steht in der heutigen Liste, aber der Lieferdienst kennt den Auftrag nicht — Legen Sie das Paket beiseite und bitten Sie die Schichtleitung, den Auftrag beim Lieferdienst zu prüfen');
    expect(say('pl', error)).toBe('NW-1043 jest na dzisiejszej liście, ale usługa dostawcza nie zna tego zamówienia — Odłóż paczkę na bok i poproś kierownika zmiany o sprawdzenie zamówienia w usłudze dostawczej');
    for (const language of ['en', 'nl', 'de', 'pl'] as const) expect(say(language, error)).not.toMatch(/manifest/i);
  });

  it('TEST with no key and no address says what is missing, not "printer not found"', () => {
    const error = data('NOT_CONFIGURED', { subject: 'key-and-address', environment: 'test' });
    expect(say('en', error)).toBe('TEST is not set up: no delivery service address and no API key — Ask a supervisor to enter the address and the key in Setup (F4)');
    expect(say('nl', error)).toBe('TEST is niet ingesteld: geen adres van de bezorgdienst en geen API-sleutel — Vraag een leidinggevende het adres en de sleutel in te voeren bij Instellingen (F4)');
    expect(say('de', error)).toBe('TEST ist nicht eingerichtet: keine Adresse des Lieferdienstes und kein API-Schlüssel — Bitten Sie die Schichtleitung, Adresse und Schlüssel unter Einstellungen (F4) einzugeben');
    expect(say('pl', error)).toBe('TEST nie jest skonfigurowane: brak adresu usługi dostawczej i klucza API — Poproś kierownika zmiany o wpisanie adresu i klucza w Ustawieniach (F4)');
    expect(say('en', data('NOT_CONFIGURED', { subject: 'key', environment: 'live' }))).toBe('LIVE is not set up: no API key — Ask a supervisor to enter the key in Setup (F4)');
  });

  it('an unknown bundle is "not known to the service", not "the station refused the request (HTTP 404)"', () => {
    const error = data('BUNDLE_NOT_FOUND', { bundleId: 'B-77', count: 1 });
    expect(say('en', error)).toBe('Bundle B-77 is not known to the delivery service — Check the bundle slip; remove the bundle or ask a supervisor');
    expect(say('nl', error)).toBe('Bundel B-77 is niet bekend bij de bezorgdienst — Controleer de bundelbon; haal de bundel weg of vraag een leidinggevende');
    expect(say('de', error)).toBe('Bündel B-77 ist dem Lieferdienst nicht bekannt — Prüfen Sie den Bündel-Lieferschein; entfernen Sie das Bündel oder fragen Sie die Schichtleitung');
    expect(say('pl', error)).toBe('Pakiet B-77 nie jest znany usłudze dostawczej — Sprawdź list pakietu; usuń pakiet lub zapytaj kierownika zmiany');
  });

  it('a scale port that is not there names the port and the ports the computer has, or says it has none', () => {
    const listed = data('NOT_FOUND', { subject: 'serial-port', port: 'COM7', ports: 'COM1, COM4', count: 2 });
    expect(say('en', listed)).toBe('There is no port COM7 on this computer — Choose one of the ports it has: COM1, COM4 — or plug in the scale’s cable and press Look again');
    expect(say('nl', listed)).toBe('Er is geen poort COM7 op deze computer — Kies een van de poorten die hij heeft: COM1, COM4 — of sluit de kabel van de weegschaal aan en druk op Opnieuw zoeken');
    const none = data('NOT_FOUND', { subject: 'serial-port-none', port: '/dev/ttyUSB0', ports: '', count: 0 });
    expect(say('en', none)).toBe('There is no port /dev/ttyUSB0 on this computer — It has no serial port at all: plug in the scale’s cable (or its USB adapter), then press Look again');
    for (const language of ['de', 'pl'] as const) expect(say(language, none)).toContain('/dev/ttyUSB0');
  });

  it('a code without a variant of its own falls back to the code’s words', () => {
    expect(say('en', data('NOT_CONFIGURED', { subject: 'something-new' }))).toBe('The station is not set up for this yet — Ask a supervisor to finish the setup (F4)');
    expect(say('en', data('PRINTER_NOT_FOUND', { subject: 'none', environment: 'sandbox' }))).toBe('No printer is set up in SANDBOX — Add the printer next to this bench in Printers (F3)');
  });

  it('shows the delivery service’s own field list for a refused order, and no station English for anything else', () => {
    expect(shownDetails(new StationError('VALIDATION', 'x', ['postalCode: too long']).toData())).toEqual(['postalCode: too long']);
    expect(shownDetails(data('ORDER_TERMINAL', { status: 'cancelled' }))).toEqual([]);
  });
});

describe('a run’s left-out parcels and journal notes in the screen’s words', () => {
  it('names a left-out parcel by its order ref and says when it printed, never by a raw id or journal entry number', () => {
    const skipped = { orderId: '1f0c9a55-5a4e-4bb2-9a7f-0c1d2e3f4a5b', bundleId: 'B-1', code: 'ALREADY_PRINTED' as const, facts: { orderRef: 'NW-7', printedAt: '2026-03-01T09:42:00.000Z', entryId: 17 } };
    for (const language of ['en', 'nl', 'de', 'pl'] as const) {
      const { subject, why } = skippedWords(skipped, createI18n(language).t, language);
      expect(subject).toBe('NW-7');
      expect(why).not.toContain(skipped.orderId);
      expect(why).not.toMatch(/journal|17/);
    }
    expect(skippedWords(skipped, createI18n('nl').t, 'nl').why).toMatch(/^al eerder geprint \(.+\); start een nieuwe run met ‘Eerder geprinte etiketten opnieuw printen’ aangevinkt/);
    const terminal = { orderId: 'x', bundleId: 'B-1', code: 'ORDER_TERMINAL' as const, facts: { orderRef: 'NW-8', status: 'cancelled' } };
    expect(skippedWords(terminal, createI18n('de').t, 'de')).toEqual({ subject: 'NW-8', why: 'Storniert: dafür wird kein Etikett gedruckt' });
    const unknownBundle = { orderId: null, bundleId: 'B-404', code: 'BUNDLE_NOT_FOUND' as const, facts: { bundleId: 'B-404' } };
    expect(skippedWords(unknownBundle, createI18n('pl').t, 'pl')).toEqual({ subject: 'Pakiet B-404', why: 'nieznany usłudze dostawczej — sprawdź list pakietu' });
  });

  it('words the station’s journal notes: a cancelled label and a failure kept as "CODE: English"', () => {
    expect(reasonWords('Cancelled by Sam before it was sent.', createI18n('nl').t)).toBe('Geannuleerd door Sam voordat het verstuurd was');
    expect(reasonWords('Cancelled before it was sent.', createI18n('pl').t)).toBe('Anulowane przed wysłaniem');
    expect(reasonWords('Printed for a cancelled order on the word of Anna: customer called', createI18n('nl').t)).toBe(
      'Geprint voor een order met status Geannuleerd, op gezag van Anna: customer called',
    );
    expect(reasonWords('PRINTER_OFFLINE: the printer at 127.0.0.1:9100 did not answer', createI18n('de').t)).toBe('Drucker nicht erreichbar');
    expect(reasonWords('NOT_A_CODE: words', createI18n('en').t)).toBe('NOT_A_CODE: words');
    expect(reasonWords('PRINT_UNCERTAIN: The connection to the printer at 127.0.0.1:9100 broke while sending.', createI18n('nl').t)).toBe('Niet zeker of het etiket geprint is');
    expect(reasonWords("removed ^JUS: it would save the label's settings as the printer's power-on settings, which are the bench admin's to set.", createI18n('de').t)).toBe(
      'Die Station hat ^JUS aus dem Etikett entfernt: Es hätte die eigenen Einstellungen des Druckers geändert',
    );
  });
});

describe('a manifest row’s problem in the screen’s words', () => {
  it('names the field and the problem in each language, not the station’s English', () => {
    const empty = { row: 3, message: 'orderId is empty', problem: 'empty' as const, facts: { field: 'orderId' } };
    expect(rowProblemWords(empty, createI18n('en').t)).toBe('Order id is empty');
    expect(rowProblemWords(empty, createI18n('nl').t)).toBe('Order-id is leeg');
    expect(rowProblemWords(empty, createI18n('de').t)).toBe('Auftrags-ID ist leer');
    expect(rowProblemWords(empty, createI18n('pl').t)).toBe('ID zamówienia jest puste');
    const status = { row: 4, message: 'x', problem: 'unknown-status' as const, facts: { value: 'sideways' } };
    expect(rowProblemWords(status, createI18n('de').t)).toBe('Status „sideways“ ist kein Status des Lieferdienstes');
  });
});
