import { describe, expect, it } from 'vitest';
import { altCodeCharacter } from '../../../src/shared/keyboard/alt-codes';
import { layoutMixups, readBack } from '../../../src/shared/keyboard/layout-mixups';
import { keysAsTyped, readKeys, type RecordedKey } from '../../../src/shared/keyboard/recorded-keys';

describe('Alt + keypad characters', () => {
  it('reads printable ASCII the same with and without the leading 0', () => {
    for (const [digits, character] of [
      ['78', 'N'],
      ['078', 'N'],
      ['0078', 'N'],
      ['45', '-'],
      ['047', '/'],
      ['32', ' '],
      ['126', '~'],
    ]) {
      expect(altCodeCharacter(digits!), digits).toBe(character);
    }
  });

  it('reads 128–255 as the OEM code page (CP437) without the leading 0, as Windows-1252 with it', () => {
    // From the code pages' published tables.
    expect(altCodeCharacter('130')).toBe('é');
    expect(altCodeCharacter('0233')).toBe('é');
    expect(altCodeCharacter('156')).toBe('£');
    expect(altCodeCharacter('0163')).toBe('£');
    expect(altCodeCharacter('0128')).toBe('€');
    expect(altCodeCharacter('0150')).toBe('–');
    expect(altCodeCharacter('225')).toBe('ß');
    expect(altCodeCharacter('0223')).toBe('ß');
    expect(altCodeCharacter('0129')).toBe('\u0081');
  });

  it('gives the control characters themselves (29 is GS), nothing for 0, and counts modulo 256 as Windows does', () => {
    expect(altCodeCharacter('29')).toBe('\x1D');
    expect(altCodeCharacter('029')).toBe('\x1D');
    expect(altCodeCharacter('0029')).toBe('\x1D');
    expect(altCodeCharacter('13')).toBe('\r');
    expect(altCodeCharacter('0')).toBeNull();
    expect(altCodeCharacter('334')).toBe('N');
    expect(altCodeCharacter('')).toBeNull();
  });
});

const key = (key: string, code: string, shift: boolean, extra: Partial<Extract<RecordedKey, { kind: 'key' }>> = {}): RecordedKey => ({ kind: 'key', key, code, shift, capsLock: false, ...extra });

describe("a scan's keys read through the scanner's layout", () => {
  // A US scanner's "NW-5" on a German PC: the PC calls the "-" key "ß".
  const usScanOnGermanPc = [key('N', 'KeyN', true), key('W', 'KeyW', true), key('ß', 'Minus', false), key('5', 'Digit5', false)];

  it('reads each key by position, whatever the PC made of it', () => {
    expect(readKeys(usScanOnGermanPc, 'us')).toBe('NW-5');
    expect(keysAsTyped(usScanOnGermanPc)).toBe('NWß5');
    expect(readKeys(usScanOnGermanPc, 'de')).toBe('NWß5');
  });

  it('ignores Caps Lock: the scanner meant what its Shift says', () => {
    const withCapsLock = [key('n', 'KeyN', true, { capsLock: true }), key('W', 'KeyW', false, { capsLock: true })];
    expect(readKeys(withCapsLock, 'us')).toBe('Nw');
  });

  it('reads a key the PC makes a dead key (a US scanner\'s "\'" on a Dutch PC)', () => {
    expect(readKeys([key('Dead', 'Quote', false), key('A', 'KeyA', true)], 'us')).toBe("'A");
  });

  it('composes the dead keys of a scanner set to a layout that has them', () => {
    expect(readKeys([key('[', 'BracketLeft', false), key('e', 'KeyE', false), key('[', 'BracketLeft', false), key(' ', 'Space', false)], 'fr')).toBe('ê^');
  });

  it('reads as typed what came without a position, or whose letters contradict its Shift (software that sets no modifiers)', () => {
    expect(readKeys([{ kind: 'key', key: 'N' }, { kind: 'key', key: 'ß', code: '' }], 'us')).toBe('Nß');
    // A test driver's "N": no Shift, no Caps Lock, yet a capital.
    expect(readKeys([key('N', 'KeyN', false)], 'us')).toBe('N');
    expect(readKeys([{ kind: 'text', text: '\x1D' }, key('1', 'Digit1', false)], 'fr')).toBe('\x1D&');
  });
});

describe('a scan read through the wrong layout, read back', () => {
  it('finds the order in the issue\'s garbled scans, naming the layouts they were read with', () => {
    expect(layoutMixups('NWß104365ß5')).toContainEqual({ readAs: ['de'], typedAs: 'us', text: 'NW-104365-5' });
    expect(layoutMixups('DTé&èç-è("ç-"(é')).toContainEqual({ readAs: ['fr'], typedAs: 'us', text: 'DT2179675396352' });
    expect(layoutMixups('NZ)&à\'"!")é')).toContainEqual({ readAs: ['be'], typedAs: 'us', text: 'NW-104383-2' });
    // Without a 6 or an 8, French and Belgian read alike: both are named.
    expect(layoutMixups('NZ)&à\'"(é)é')).toContainEqual({ readAs: ['fr', 'be'], typedAs: 'us', text: 'NW-104352-2' });
  });

  it('reads back a scanner set to French read as US', () => {
    expect(readBack('!q,M', 'us', 'fr')).toBe('1a;?');
  });

  it('keeps GS and gives nothing for characters the reading layout cannot type', () => {
    expect(readBack('ß1\x1D', 'de', 'us')).toBe('-1\x1D');
    expect(readBack('€', 'us', 'de')).toBeNull();
    expect(layoutMixups('1234')).toEqual(expect.not.arrayContaining([expect.objectContaining({ text: '1234' })]));
  });
});
