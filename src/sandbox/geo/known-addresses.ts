/**
 * The few buildings the sandbox's geocoder knows by name, so that it can correct the mistakes
 * packers and web shops really make: a suffix left off (or added to a house that has none) and a
 * postal code with one digit wrong. Everything else is resolved by rule, never looked up, so these
 * are the addresses to use when a test or a demo needs a correction.
 */
import { normalisePostalCode } from './postal-codes';

export interface KnownAddress {
  street: string;
  houseNumber: string;
  /** Empty when the house has no suffix. */
  suffix: string;
  /** Normalised (upper case, no spaces). */
  postalCode: string;
  city: string;
  countryCode: string;
}

export const knownAddresses: readonly KnownAddress[] = [
  // A canal house split into floors: "Herengracht 182" alone does not reach the door.
  { street: 'Herengracht', houseNumber: '182', suffix: 'H', postalCode: '1016BR', city: 'Amsterdam', countryCode: 'NL' },
  // A single-family house: a suffix sent with it is one the address does not have.
  { street: 'Singel', houseNumber: '250', suffix: '', postalCode: '1016AB', city: 'Amsterdam', countryCode: 'NL' },
  // A shop on a square whose code is often typed with one digit wrong.
  { street: 'Spui', houseNumber: '21', suffix: '', postalCode: '1012WX', city: 'Amsterdam', countryCode: 'NL' },
  { street: 'Coolsingel', houseNumber: '40', suffix: '', postalCode: '3011AD', city: 'Rotterdam', countryCode: 'NL' },
];

export interface AddressQuery {
  street: string;
  houseNumber: string;
  postalCode: string;
  city: string;
  countryCode: string;
}

const same = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/** True when the codes have the same length and differ in exactly one position, and that position is a digit in both. */
export function oneDigitOff(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let differences = 0;
  for (let index = 0; index < a.length; index += 1) {
    if (a[index] === b[index]) continue;
    if (!/\d/.test(a[index]!) || !/\d/.test(b[index]!)) return false;
    differences += 1;
  }
  return differences === 1;
}

/**
 * The known building a query means: the same street, house number and country, and either the
 * same postal code, or a postal code one digit off when the city names the building's city too (a
 * typo is only corrected when street and city leave no doubt).
 */
export function findKnownAddress(query: AddressQuery, known: readonly KnownAddress[] = knownAddresses): KnownAddress | undefined {
  const postalCode = normalisePostalCode(query.postalCode);
  const houseNumber = query.houseNumber.trim().replace(/\s+/g, '');
  const candidates = known.filter(
    (address) => address.countryCode === query.countryCode.toUpperCase() && same(address.street, query.street) && same(address.houseNumber, houseNumber),
  );
  return (
    candidates.find((address) => address.postalCode === postalCode) ??
    candidates.find((address) => query.city !== '' && same(address.city, query.city) && oneDigitOff(address.postalCode, postalCode))
  );
}
