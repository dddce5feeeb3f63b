import { describe, expect, it } from 'vitest';
import { decodeGfaData, encodeGfa } from '../../../src/main/printing/raster/gfa';
import { thresholdRgba, type MonoBitmap } from '../../../src/main/printing/raster/mono-bitmap';

function bitmapFromRows(rows: string[]): MonoBitmap {
  const width = rows[0]!.length;
  const rgba = new Uint8Array(width * rows.length * 4);
  rows.forEach((row, y) =>
    [...row].forEach((dot, x) => {
      const i = (y * width + x) * 4;
      const value = dot === '#' ? 0 : 255;
      rgba.set([value, value, value, 255], i);
    }),
  );
  return thresholdRgba(rgba, width, rows.length);
}

function gfaParts(command: string) {
  const [, total, , perRow, ...rest] = command.split(',');
  return { total: Number(total), perRow: Number(perRow), data: rest.join(',') };
}

describe('thresholdRgba', () => {
  it('packs dots most significant bit first, 1 = black, and treats transparency as paper', () => {
    const rgba = new Uint8Array([0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 0, 10, 10, 10, 255]);
    const bitmap = thresholdRgba(rgba, 4, 1);
    expect(bitmap.bytesPerRow).toBe(1);
    expect([...bitmap.data]).toEqual([0b1001_0000]);
  });

  it('refuses pixel data shorter than the stated size', () => {
    expect(() => thresholdRgba(new Uint8Array(8), 4, 1)).toThrow(RangeError);
  });
});

describe('encodeGfa', () => {
  const picture = bitmapFromRows([
    '#'.repeat(64) + '.'.repeat(136),
    '#'.repeat(64) + '.'.repeat(136),
    '.'.repeat(200),
    '#'.repeat(200),
    '#.'.repeat(100),
    '.'.repeat(199) + '#',
  ]);

  it('states the byte counts ZPL expects', () => {
    const { total, perRow } = gfaParts(encodeGfa(picture, 'hex'));
    expect(perRow).toBe(25);
    expect(total).toBe(25 * 6);
  });

  it('writes plain hex that decodes to the bitmap', () => {
    const { data, perRow, total } = gfaParts(encodeGfa(picture, 'hex'));
    expect(data).toMatch(/^[0-9A-F]+$/);
    expect(data).toHaveLength(total * 2);
    expect(decodeGfaData(data, perRow, total)).toEqual(picture.data);
  });

  it('compresses to the same dots, with row repeats and fills', () => {
    const command = encodeGfa(picture, 'compressed');
    const { data, perRow, total } = gfaParts(command);
    expect(data).toContain(':');
    expect(data).toContain(',');
    expect(data).toContain('!');
    expect(data.length).toBeLessThan(total);
    expect(decodeGfaData(data, perRow, total)).toEqual(picture.data);
  });

  it('splits runs longer than one repeat prefix can say', () => {
    const wide = bitmapFromRows(['#'.repeat(4000) + '.'.repeat(8)]);
    const { data, perRow, total } = gfaParts(encodeGfa(wide, 'compressed'));
    expect(decodeGfaData(data, perRow, total)).toEqual(wide.data);
  });

  it('round-trips random pictures', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let n = 0; n < 25; n++) {
      const width = 1 + Math.floor(random() * 90);
      const rows = Array.from({ length: 1 + Math.floor(random() * 12) }, () =>
        Array.from({ length: width }, () => (random() < 0.3 ? '#' : '.')).join(''),
      );
      const bitmap = bitmapFromRows(rows);
      const { data, perRow, total } = gfaParts(encodeGfa(bitmap, 'compressed'));
      expect(decodeGfaData(data, perRow, total)).toEqual(bitmap.data);
    }
  });
});
