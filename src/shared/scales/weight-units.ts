/**
 * Weight units a scale may report, and how many grams each is. The station works in grams (the
 * Delivery Service API takes weight in grams), so every reading is converted here, once.
 * Avoirdupois pound and ounce by their legal definitions (1 lb = 453.59237 g, 1 oz = 1/16 lb);
 * troy ounce 31.1034768 g; grain 64.79891 mg; pennyweight 24 grains; carat 200 mg; tael 37.5 g
 * (the Hong Kong tael: the HID usage tables do not say which); avoirdupois (short) ton 2000 lb.
 */
export const gramsPer = {
  mg: 0.001,
  g: 1,
  kg: 1000,
  t: 1_000_000,
  ct: 0.2,
  tael: 37.5,
  gr: 0.06479891,
  dwt: 24 * 0.06479891,
  ozt: 31.1034768,
  oz: 453.59237 / 16,
  lb: 453.59237,
  ton: 2000 * 453.59237,
} as const;
export type WeightUnit = keyof typeof gramsPer;

export const isWeightUnit = (text: string): text is WeightUnit => Object.hasOwn(gramsPer, text);

/**
 * Grams to one decimal: the finest a packing scale shows, and a float's noise removed. A hair
 * below zero (a scale's "-0" or "-0.04 g") is zero, never "-0", which a screen would show as such.
 */
export function toGrams(value: number, unit: WeightUnit): number {
  const grams = Math.round(value * gramsPer[unit] * 10) / 10;
  return grams === 0 ? 0 : grams;
}
