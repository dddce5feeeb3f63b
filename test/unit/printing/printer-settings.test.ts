import { describe, expect, it } from 'vitest';
import {
  parseConfiguration,
  parseInches,
  parseMediaType,
  parseReprintSetting,
  parseTracking,
  settingsCommands,
} from '../../../src/shared/zebra/printer-settings';

describe('printer settings as a Zebra reports them', () => {
  it('reads the SGD words and the configuration words alike', () => {
    expect(parseReprintSetting('on')).toBe('on');
    expect(parseReprintSetting('DISABLED')).toBe('off');
    expect(parseReprintSetting(null)).toBe('unknown');
    expect(parseReprintSetting('?')).toBe('unknown');
    expect(parseMediaType('thermal trans')).toBe('transfer');
    expect(parseMediaType('DIRECT-THERMAL')).toBe('direct');
    expect(parseTracking('gap/notch')).toBe('gap');
    expect(parseTracking('NON-CONTINUOUS')).toBe('gap');
    expect(parseTracking('continuous')).toBe('continuous');
    expect(parseTracking('mark')).toBe('mark');
  });

  it('reads odometer lengths in inches from SGD and from ~HQ', () => {
    expect(parseInches('1489 INCHES, 3784 CENTIMETERS')).toBe(1489);
    expect(parseInches('  LAST CLEANED:  2905 "')).toBe(2905);
    expect(parseInches('7620 CENTIMETERS')).toBe(3000);
    expect(parseInches('?')).toBeNull();
  });

  it('reads ^HH line by line: value first, name after', () => {
    const text = ['\x02+22.0           DARKNESS', '4.0 IPS         PRINT SPEED', 'NON-CONTINUOUS  MEDIA TYPE', 'MARK            SENSOR TYPE', 'DIRECT-THERMAL  PRINT METHOD', '0832            PRINT WIDTH', '0800            LABEL LENGTH', 'DISABLED        REPRINT MODE', '123 IN          LAST CLEANED\x03'].join('\r\n');
    expect(parseConfiguration(text)).toEqual({
      darkness: 22,
      speed: 4,
      mediaType: 'direct',
      tracking: 'mark',
      printWidthDots: 832,
      labelLengthDots: 800,
      reprint: 'off',
      headCleanInches: 123,
    });
  });

  it('leaves unknown what an older printer’s configuration does not list', () => {
    // The guide's ^HH example: no reprint mode, no counters.
    const text = '+10 DARKNESS\r\nTEAROFF PRINT MODE\r\nNON-CONTINUOUS MEDIA TYPE\r\nWEB SENSOR TYPE\r\nDIRECT-THERMAL PRINT METHOD\r\n0622 LABEL LENGTH';
    expect(parseConfiguration(text)).toMatchObject({ darkness: 10, tracking: 'gap', mediaType: 'direct', labelLengthDots: 622, reprint: 'unknown', speed: null, printWidthDots: null });
  });

  it('changes only what is named, with the printer’s own commands, saving only when asked', () => {
    expect(settingsCommands({ darkness: 7 }, false)).toEqual([{ setting: 'darkness', bytes: '~SD07' }]);
    expect(settingsCommands({ speed: 4, mediaType: 'direct', tracking: 'continuous', reprintAfterError: false }, true)).toEqual([
      { setting: 'speed', bytes: '^XA^PR4^XZ' },
      { setting: 'mediaType', bytes: '^XA^MTD^XZ' },
      { setting: 'tracking', bytes: '^XA^MNN^XZ' },
      { setting: 'reprintAfterError', bytes: '^XA^JZN^XZ' },
      { setting: 'save', bytes: '^XA^JUS^XZ' },
    ]);
  });
});
