import { describe, expect, it } from 'vitest';
import type { RecordedKey } from '../../../src/shared/keyboard/recorded-keys';
import { SCANNER_CHECK_TEXT } from '../../../src/shared/keyboard/scanner-check';
import { isScannerCheck, pcLayoutsFromMap, scannerVerdict } from '../../../src/renderer/src/scan/scanner-check';
import { chartKeys, keyboardCharts, typingKeys, type KeyboardChart } from '../../support/keyboard-charts';

/** The keys a scanner typing for `scanner` presses for `text`, as a PC whose layout is `pc` reports them (from the published charts). */
function keysOf(text: string, scanner: KeyboardChart, pc: KeyboardChart, capsLock = false): RecordedKey[] {
  const strokes = typingKeys(scanner);
  const pcKeys = chartKeys(pc);
  return [...text].map((character) => {
    const stroke = strokes.get(character);
    if (!stroke) throw new Error(`no key for ${character}`);
    const onPc = pcKeys.find((key) => key.code === stroke.code && key.shift === stroke.shift);
    let typed = onPc ? (onPc.dead ? 'Dead' : onPc.character) : 'Unidentified';
    if (capsLock && /^[a-z]$/i.test(typed)) typed = typed === typed.toUpperCase() ? typed.toLowerCase() : typed.toUpperCase();
    return { kind: 'key', key: typed, code: stroke.code, shift: stroke.shift, altGraph: false, capsLock };
  });
}

describe('the scanner check', () => {
  it('tells a US scanner on a French PC: reads right with US chosen, the PC French', () => {
    const keys = keysOf(SCANNER_CHECK_TEXT, keyboardCharts.us, keyboardCharts.fr);
    expect(isScannerCheck(keys)).toBe(true);
    expect(scannerVerdict(keys, 'us', null)).toEqual({ scanner: 'layout', layouts: ['us', 'uk', 'pl'], readsCorrectly: true, pc: ['fr'], capsLock: false });
  });

  it('tells a scanner set to French on a German PC, and that US would misread it', () => {
    const keys = keysOf(SCANNER_CHECK_TEXT, keyboardCharts.fr, keyboardCharts.de);
    expect(scannerVerdict(keys, 'us', null)).toMatchObject({ scanner: 'layout', layouts: ['fr'], readsCorrectly: false, pc: ['de'] });
    expect(scannerVerdict(keys, 'fr', null)).toMatchObject({ layouts: ['fr'], readsCorrectly: true });
  });

  it('tells each layout it knows apart from the others (US, UK and Polish type these keys alike)', () => {
    for (const layout of ['de', 'fr', 'be', 'nl'] as const) {
      const keys = keysOf(SCANNER_CHECK_TEXT, keyboardCharts[layout], keyboardCharts.us);
      expect(scannerVerdict(keys, layout, null), layout).toMatchObject({ layouts: [layout], readsCorrectly: true });
    }
  });

  it('says Caps Lock was on, and that it changes nothing', () => {
    const keys = keysOf(SCANNER_CHECK_TEXT, keyboardCharts.us, keyboardCharts.be, true);
    expect(scannerVerdict(keys, 'us', null)).toMatchObject({ readsCorrectly: true, capsLock: true, pc: ['be'] });
  });

  it('takes Alt codes as reading right on any layout', () => {
    const keys: RecordedKey[] = [...SCANNER_CHECK_TEXT].map((text) => ({ kind: 'text', text }));
    expect(scannerVerdict(keys, 'de', ['be'])).toEqual({ scanner: 'alt-codes', capsLock: false, pc: ['be'] });
  });

  it('prefers what the browser says of the PC\'s layout, and reads its keyboard map', () => {
    const french = new Map(chartKeys(keyboardCharts.fr).filter((key) => !key.shift && !key.dead).map((key) => [key.code, key.character]));
    expect(pcLayoutsFromMap(french)).toEqual(['fr']);
    const keys = keysOf(SCANNER_CHECK_TEXT, keyboardCharts.us, keyboardCharts.fr);
    expect(scannerVerdict(keys, 'us', ['nl']).pc).toEqual(['nl']);
  });

  it('is not taken for any other scan', () => {
    expect(isScannerCheck(keysOf('NW-104365-5', keyboardCharts.us, keyboardCharts.de))).toBe(false);
    expect(scannerVerdict(keysOf('AQWYZM-aqwyzm/0123456788.', keyboardCharts.us, keyboardCharts.us), 'us', null).scanner).toBe('unknown');
  });
});
