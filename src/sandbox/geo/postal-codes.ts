/** Postal code rules of the countries the sandbox knows; case and whitespace never matter. */

const formats: Record<string, RegExp> = {
  NL: /^[1-9]\d{3}[A-Z]{2}$/,
  BE: /^[1-9]\d{3}$/,
  DE: /^\d{5}$/,
  LU: /^\d{4}$/,
  FR: /^\d{5}$/,
  AT: /^\d{4}$/,
  CH: /^\d{4}$/,
  DK: /^\d{4}$/,
  PL: /^\d{5}$/,
  ES: /^\d{5}$/,
  IT: /^\d{5}$/,
  CZ: /^\d{5}$/,
  SE: /^\d{5}$/,
  PT: /^\d{7}$/,
  GB: /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/,
  IE: /^[A-Z]\d[\dW][A-Z\d]{4}$/,
};

/** Upper case with every whitespace character removed: `1018 pn` → `1018PN`. */
export function normalisePostalCode(code: string): string {
  return code.replace(/\s+/g, '').toUpperCase();
}

export function isValidPostalCode(countryCode: string, normalised: string): boolean {
  const format = formats[countryCode];
  if (format) return format.test(normalised);
  return /^[A-Z0-9-]{2,10}$/.test(normalised);
}

/** The leading digits of a postal code as a number (NL `1018PN` → 1018, DE `01067` → 1067). */
export function numericPart(normalised: string): number {
  const digits = /^\d+/.exec(normalised);
  return digits ? Number(digits[0]) : Number.NaN;
}

/** The way the country writes the code on an envelope (NL puts a space before the letters). */
export function displayPostalCode(countryCode: string, normalised: string): string {
  if (countryCode === 'NL' && /^\d{4}[A-Z]{2}$/.test(normalised)) return `${normalised.slice(0, 4)} ${normalised.slice(4)}`;
  return normalised;
}
