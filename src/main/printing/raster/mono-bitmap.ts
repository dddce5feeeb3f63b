/**
 * A one-bit image as a Zebra prints it: rows of bytes, most significant bit first, 1 = black dot.
 */
export interface MonoBitmap {
  readonly widthDots: number;
  readonly heightDots: number;
  readonly bytesPerRow: number;
  readonly data: Uint8Array;
}

/** Luminance below which a dot prints black. A hard threshold keeps barcode edges crisp. */
export const defaultBlackThreshold = 160;

/**
 * Thresholds RGBA pixels into a bitmap. Transparent pixels count as paper (white); no dithering,
 * because dithered bars and spaces no longer scan.
 */
export function thresholdRgba(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, threshold = defaultBlackThreshold): MonoBitmap {
  if (rgba.length < width * height * 4) throw new RangeError('Image data is smaller than its stated size.');
  const bytesPerRow = Math.ceil(width / 8);
  const data = new Uint8Array(bytesPerRow * height);
  for (let y = 0; y < height; y++) {
    const rowStart = y * width * 4;
    const outRow = y * bytesPerRow;
    for (let x = 0; x < width; x++) {
      const i = rowStart + x * 4;
      const alpha = rgba[i + 3]!;
      if (alpha < 128) continue;
      // Integer Rec. 601 luma: fast and close enough for black-on-white labels.
      const luma = (rgba[i]! * 299 + rgba[i + 1]! * 587 + rgba[i + 2]! * 114) / 1000;
      if (luma < threshold) data[outRow + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return { widthDots: width, heightDots: height, bytesPerRow, data };
}
