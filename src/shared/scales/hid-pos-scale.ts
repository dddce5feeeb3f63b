/**
 * USB HID point-of-sale scales (usage page 0x8D, "Scales"), as the HID Point of Sale Usage Tables
 * (version 1.02, usb.org) define them. Desk scales from Dymo, Mettler Toledo, Fairbanks and others
 * send the Scale Data Report (report ID 3) as six bytes:
 *
 *   [0] report ID 3
 *   [1] Scale Status, an index into the status selectors 0x71-0x78:
 *       1 fault, 2 stable at centre of zero, 3 in motion, 4 weight stable, 5 under zero,
 *       6 over weight limit, 7 requires calibration, 8 requires re-zeroing
 *   [2] Weight Unit, an index into the unit selectors 0x51-0x5C:
 *       1 mg, 2 g, 3 kg, 4 carat, 5 tael, 6 grain, 7 pennyweight, 8 metric ton, 9 avoir ton,
 *       10 troy ounce, 11 ounce, 12 pound
 *   [3] Data Scaling: a signed power of ten (0xFF = -1)
 *   [4] [5] Data Weight, unsigned, least significant byte first
 */
import { condition, type ScaleSample } from './scale-reading';
import { toGrams, type WeightUnit } from './weight-units';

export const hidScaleUsagePage = 0x8d;
export const scaleDataReportId = 3;

const units: readonly (WeightUnit | null)[] = [null, 'mg', 'g', 'kg', 'ct', 'tael', 'gr', 'dwt', 't', 'ton', 'ozt', 'oz', 'lb'];

/** One input report as read from the device (the report ID first, as node-hid gives it). */
export function parseHidScaleReport(report: Uint8Array): ScaleSample {
  if (report.length < 6) return condition('bad-data', `a report of ${report.length} bytes`);
  if (report[0] !== scaleDataReportId) return condition('bad-data', `report ${report[0]}`);
  const status = report[1]!;
  const unit = units[report[2]!] ?? null;
  const exponent = (report[3]! << 24) >> 24;
  const raw = report[4]! | (report[5]! << 8);
  switch (status) {
    case 1:
      return condition('fault', 'status 1: fault');
    case 7:
      return condition('fault', 'status 7: requires calibration');
    case 8:
      return condition('fault', 'status 8: requires re-zeroing');
    case 5:
      return condition('negative', 'status 5: under zero');
    case 6:
      return condition('overload', 'status 6: over weight limit');
    case 2:
      return { kind: 'weight', grams: 0, steady: true, net: false, tareGrams: null };
    case 3:
    case 4: {
      if (unit === null) return condition('bad-data', `unit ${report[2]}`);
      if (exponent < -8 || exponent > 8) return condition('bad-data', `scaling ${exponent}`);
      return { kind: 'weight', grams: toGrams(raw * 10 ** exponent, unit), steady: status === 4, net: false, tareGrams: null };
    }
    default:
      return condition('bad-data', `status ${status}`);
  }
}
