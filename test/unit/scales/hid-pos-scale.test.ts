import { describe, expect, it } from 'vitest';
import { parseHidScaleReport } from '../../../src/shared/scales/hid-pos-scale';

/*
 * Scale Data Reports as the HID Point of Sale Usage Tables 1.02 (usage page 0x8D) lay them out:
 * report ID 3, Scale Status (index of 0x71-0x78), Weight Unit (index of 0x51-0x5C), Data Scaling
 * (signed exponent), Data Weight (16 bits, low byte first). The byte strings are the ones desk
 * postal scales send (docs/hardware.md lists them with their meaning).
 */
const report = (...bytes: number[]) => Uint8Array.from(bytes);

describe('HID POS scale reports', () => {
  it('stable weight in ounces with scaling -1: 03 04 0B FF 5E 01 = 35.0 oz', () => {
    expect(parseHidScaleReport(report(0x03, 0x04, 0x0b, 0xff, 0x5e, 0x01))).toEqual({ kind: 'weight', grams: 992.2, steady: true, net: false, tareGrams: null });
  });

  it('stable weight in grams with scaling 0: 03 04 02 00 DC 05 = 1500 g', () => {
    expect(parseHidScaleReport(report(0x03, 0x04, 0x02, 0x00, 0xdc, 0x05))).toMatchObject({ grams: 1500, steady: true });
  });

  it('kilograms with scaling -2: 03 04 03 FE 7B 00 = 1.23 kg', () => {
    expect(parseHidScaleReport(report(0x03, 0x04, 0x03, 0xfe, 0x7b, 0x00))).toMatchObject({ grams: 1230 });
  });

  it('stable at centre of zero: 03 02 0B FF 00 00 = 0 g, steady', () => {
    expect(parseHidScaleReport(report(0x03, 0x02, 0x0b, 0xff, 0x00, 0x00))).toEqual({ kind: 'weight', grams: 0, steady: true, net: false, tareGrams: null });
  });

  it('in motion: 03 03 0C FE 2C 01 = 3.00 lb, not steady', () => {
    expect(parseHidScaleReport(report(0x03, 0x03, 0x0c, 0xfe, 0x2c, 0x01))).toMatchObject({ grams: 1360.8, steady: false });
  });

  it('under zero, over the limit, needs calibration or re-zeroing, fault: each said plainly', () => {
    expect(parseHidScaleReport(report(0x03, 0x05, 0x02, 0x00, 0x00, 0x00))).toMatchObject({ condition: 'negative' });
    expect(parseHidScaleReport(report(0x03, 0x06, 0x02, 0x00, 0xff, 0xff))).toMatchObject({ condition: 'overload' });
    expect(parseHidScaleReport(report(0x03, 0x07, 0x02, 0x00, 0x00, 0x00))).toMatchObject({ condition: 'fault', detail: 'status 7: requires calibration' });
    expect(parseHidScaleReport(report(0x03, 0x08, 0x02, 0x00, 0x00, 0x00))).toMatchObject({ condition: 'fault', detail: 'status 8: requires re-zeroing' });
    expect(parseHidScaleReport(report(0x03, 0x01, 0x02, 0x00, 0x00, 0x00))).toMatchObject({ condition: 'fault' });
  });

  it('refuses another report, a short one, an unknown status or unit', () => {
    expect(parseHidScaleReport(report(0x04, 0x04, 0x02, 0x00, 0x00, 0x00))).toMatchObject({ condition: 'bad-data' });
    expect(parseHidScaleReport(report(0x03, 0x04, 0x02))).toMatchObject({ condition: 'bad-data' });
    expect(parseHidScaleReport(report(0x03, 0x09, 0x02, 0x00, 0x00, 0x00))).toMatchObject({ condition: 'bad-data' });
    expect(parseHidScaleReport(report(0x03, 0x04, 0x0d, 0x00, 0x10, 0x00))).toMatchObject({ condition: 'bad-data' });
  });
});
