/**
 * What a scale's cable can carry: MT-SICS answer lines, Toledo continuous frames and USB HID
 * reports. Every parser answers any bytes with a sample (a weight, or a condition with its code),
 * never throws, and never calls anything a weight that is not a finite, non-negative number of
 * grams; a frame written as the manuals lay it out reads back to the weight it was written from
 * (a round trip), and the Toledo stream reader finds the same frames however the bytes arrive.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHidScaleReport } from '../../src/shared/scales/hid-pos-scale';
import { parseMtSicsLine } from '../../src/shared/scales/mt-sics';
import { ScaleConditionSchema, type ScaleSample } from '../../src/shared/scales/scale-reading';
import { CR, parseToledoFrame, STX, toledoChecksum, ToledoStreamReader } from '../../src/shared/scales/toledo-continuous';
import { gramsPer, toGrams, type WeightUnit } from '../../src/shared/scales/weight-units';
import { fuzz, timed, quickMs } from './budget';

/** A sample the station can use: a weight in finite, non-negative grams (never -0), or a known condition. */
function expectUsable(sample: ScaleSample): void {
  if (sample.kind === 'weight') {
    expect(Number.isFinite(sample.grams)).toBe(true);
    expect(sample.grams >= 0 && !Object.is(sample.grams, -0)).toBe(true);
    if (sample.tareGrams !== null) expect(Number.isFinite(sample.tareGrams) && sample.tareGrams >= 0).toBe(true);
  } else {
    expect(ScaleConditionSchema.options).toContain(sample.condition);
  }
}

const units = Object.keys(gramsPer) as WeightUnit[];
const lineText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 100 }),
  fc.string({ unit: fc.constantFrom('S', ' ', 'D', 'I', '+', '-', '.', '0', '1', '9', 'g', 'kg', 'lb', 'E', '\r', '\n'), maxLength: 80 }),
);

/** A Toledo frame's 16 bytes from its parts (status words with bit 5 set, digits right-aligned). */
function toledoFrame(weight: number, tare: number, decimal: number, flags: { net: boolean; negative: boolean; motion: boolean; unit: 'lb' | 'kg' | 'g' }): Uint8Array {
  const a = 0x20 | decimal;
  const b = 0x20 | (flags.net ? 0x01 : 0) | (flags.negative ? 0x02 : 0) | (flags.motion ? 0x08 : 0) | (flags.unit === 'kg' ? 0x10 : 0);
  const c = 0x20 | (flags.unit === 'g' ? 0x01 : 0);
  const digits = (value: number) => [...String(value).padStart(6, ' ')].map((character) => character.charCodeAt(0));
  return Uint8Array.from([STX, a, b, c, ...digits(weight), ...digits(tare)]);
}
const decimalFactor = [100, 10, 1, 0.1, 0.01, 0.001, 0.0001, 0.00001];
const toledoParts = fc.record({
  weight: fc.integer({ min: 0, max: 999_999 }),
  tare: fc.integer({ min: 0, max: 999_999 }),
  decimal: fc.integer({ min: 0, max: 7 }),
  net: fc.boolean(),
  negative: fc.boolean(),
  motion: fc.boolean(),
  unit: fc.constantFrom<'lb' | 'kg' | 'g'>('lb', 'kg', 'g'),
});

describe('scale frames (fuzzed)', () => {
  it('MT-SICS: any line is a usable sample, read within 250 ms', () => {
    fc.assert(
      fc.property(lineText, (line) => {
        const { value, ms } = timed(() => parseMtSicsLine(line));
        expectUsable(value);
        expect(ms).toBeLessThan(quickMs);
      }),
      fuzz(4000),
    );
  });

  it('MT-SICS: a weight line as the manual lays it out reads back to its weight; below zero is "negative"', () => {
    fc.assert(
      fc.property(fc.constantFrom('S', 'D'), fc.integer({ min: -99_999, max: 999_999 }), fc.integer({ min: 0, max: 3 }), fc.constantFrom(...units), (status, hundredths, places, unit) => {
        const value = (hundredths / 100).toFixed(places);
        const sample = parseMtSicsLine(`S ${status} ${value.padStart(10, ' ')} ${unit}\r\n`);
        const grams = toGrams(Number(value), unit);
        expectUsable(sample);
        if (grams < 0) expect(sample).toMatchObject({ kind: 'condition', condition: 'negative' });
        else expect(sample).toEqual({ kind: 'weight', grams: grams === 0 ? 0 : grams, steady: status === 'S', net: false, tareGrams: null });
      }),
      fuzz(3000),
    );
  });

  it('Toledo: any 16 bytes and any checksum are a usable sample', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 20 }), fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }), (frame, checksum) => {
        expectUsable(parseToledoFrame(frame, checksum));
        const withStx = Uint8Array.from([STX, ...frame.slice(0, 15)]);
        expectUsable(parseToledoFrame(withStx, checksum));
      }),
      fuzz(4000),
    );
  });

  it('Toledo: frames read back to their weights, from a stream cut anywhere, after noise without STX', () => {
    fc.assert(
      fc.property(fc.array(toledoParts, { minLength: 1, maxLength: 5 }), fc.boolean(), fc.uint8Array({ maxLength: 30 }).map((noise) => noise.filter((byte) => (byte & 0x7f) !== STX)), fc.array(fc.nat(), { maxLength: 8 }), (frames, withChecksum, noise, cuts) => {
        const bytes: number[] = [...noise];
        const expected: ScaleSample[] = [];
        for (const parts of frames) {
          const frame = toledoFrame(parts.weight, parts.tare, parts.decimal, parts);
          bytes.push(...frame, CR);
          if (withChecksum) bytes.push(toledoChecksum(Uint8Array.from([...frame, CR])));
          const grams = toGrams(parts.weight * decimalFactor[parts.decimal]!, parts.unit);
          expected.push(parts.negative ? { kind: 'condition', condition: 'negative', detail: `-${grams} g` } : { kind: 'weight', grams, steady: !parts.motion, net: parts.net, tareGrams: toGrams(parts.tare * decimalFactor[parts.decimal]!, parts.unit) });
        }
        const reader = new ToledoStreamReader(withChecksum);
        const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((x, y) => x - y);
        const samples: ScaleSample[] = [];
        let from = 0;
        for (const point of [...points, bytes.length]) {
          samples.push(...reader.push(Uint8Array.from(bytes.slice(from, point))));
          from = point;
        }
        for (const sample of samples) expectUsable(sample);
        expect(samples).toEqual(expected);
      }),
      fuzz(2000),
    );
  });

  it('USB HID: any report is a usable sample', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 10 }), fc.boolean(), (report, asScaleReport) => {
        const bytes = asScaleReport && report.length > 0 ? Uint8Array.from([3, ...report.slice(1)]) : report;
        expectUsable(parseHidScaleReport(bytes));
      }),
      fuzz(4000),
    );
  });
});
