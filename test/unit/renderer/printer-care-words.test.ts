import { describe, expect, it } from 'vitest';
import type { PrinterSettingsData } from '../../../src/shared/contract/printers';
import { changedOnly, changeLines, draftOf, rollWarnings } from '../../../src/renderer/src/screens/printers/care-words';
import { createI18n } from './all-languages';

const settings = (patch: Partial<PrinterSettingsData> = {}): PrinterSettingsData => ({
  printerId: 'p-1',
  darkness: 15,
  speedIps: 4,
  mediaType: 'transfer',
  tracking: 'gap',
  printWidthDots: 832,
  labelLengthDots: 1184,
  dpi: 203,
  reprintAfterError: 'unknown',
  labelCount: 10,
  fromConfiguration: [],
  roll: { fits: true, issues: [], dpi: 203, printWidthDots: 832, labelLengthDots: 1184 },
  head: { sinceCleanedInches: 0, headInches: 0, cleanNow: false, replaceWarning: false, faults: [] },
  readAt: '2025-01-01T08:00:00.000Z',
  ...patch,
});

describe('the printer settings form', () => {
  it('sends only what the lead changed: a setting the printer did not report is left alone', () => {
    const read = draftOf(settings({ darkness: 15.0, speedIps: 4 }));
    expect(changedOnly(read, read)).toEqual({});
    expect(changedOnly(read, { ...read, darkness: 22 })).toEqual({ darkness: 22 });
    expect(changedOnly(read, { ...read, speed: 3, mediaType: 'direct', reprintAfterError: 'off' })).toEqual({ speed: 3, mediaType: 'direct', reprintAfterError: false });
  });

  it('says each change as before → after in the lead’s language, the saving apart', () => {
    const changes = [
      { setting: 'darkness' as const, sent: '~SD22', before: 15, after: 22 },
      { setting: 'tracking' as const, sent: '^XA^MNM^XZ', before: 'gap', after: 'mark' },
      { setting: 'save' as const, sent: '^XA^JUS^XZ', before: null, after: null },
    ];
    expect(changeLines(changes, createI18n('en').t)).toEqual(['Darkness: 15 → 22', 'Media tracking: Gap between labels → Black mark']);
    expect(changeLines(changes, createI18n('de').t)).toEqual(['Schwärzung: 15 → 22', 'Etikettenerkennung: Etikettenlücke → Schwarze Markierung']);
  });

  it('names a roll that does not fit in whole millimetres, and says nothing of one that fits or is unknown', () => {
    const short = { fits: false, issues: [{ issue: 'too-short' as const, printerDots: 800, labelDots: 1184, printerMm: 100.1, labelMm: 148 }], dpi: 203, printWidthDots: 832, labelLengthDots: 800 };
    expect(rollWarnings(short, createI18n('pl').t)).toEqual([
      'Ta rolka jest krótsza niż etykieta A6: jej etykiety mają 100 mm długości, a etykieta potrzebuje 148 mm, więc każda etykieta zajęłaby dwie. Załóż etykiety A6 (105 × 148 mm) i skalibruj.',
    ]);
    expect(rollWarnings(settings().roll, createI18n('en').t)).toEqual([]);
    expect(rollWarnings(null, createI18n('en').t)).toEqual([]);
  });
});
