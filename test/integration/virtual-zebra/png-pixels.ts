// Reads the 8-bit greyscale PNGs the label renderer writes, so a test can count inked dots
// without an image library: IHDR, the IDAT stream, and the five PNG row filters.
import { inflateSync } from 'node:zlib';

export interface GreyImage {
  width: number;
  height: number;
  /** One byte per pixel, 0 black to 255 white, row after row. */
  pixels: Uint8Array;
}

export function readGreyPng(png: Buffer): GreyImage {
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 0 || data[12] !== 0) throw new Error('expected a non-interlaced 8-bit greyscale PNG');
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (width + 1)];
    for (let x = 0; x < width; x += 1) {
      const value = raw[y * (width + 1) + 1 + x] ?? 0;
      const left = x > 0 ? (pixels[y * width + x - 1] ?? 0) : 0;
      const up = y > 0 ? (pixels[(y - 1) * width + x] ?? 0) : 0;
      const upLeft = x > 0 && y > 0 ? (pixels[(y - 1) * width + x - 1] ?? 0) : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = Math.floor((left + up) / 2);
      else if (filter === 4) predictor = paeth(left, up, upLeft);
      pixels[y * width + x] = (value + predictor) & 0xff;
    }
  }
  return { width, height, pixels };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Dots darker than mid-grey inside the rectangle [x0, x1) × [y0, y1). */
export function inkedDots(image: GreyImage, x0 = 0, y0 = 0, x1 = image.width, y1 = image.height): number {
  let count = 0;
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) if ((image.pixels[y * image.width + x] ?? 255) < 128) count += 1;
  }
  return count;
}
