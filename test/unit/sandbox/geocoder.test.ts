import { describe, expect, it } from 'vitest';
import { distanceMeters } from '../../../src/sandbox/geo/distance';
import { createGeocoder } from '../../../src/sandbox/geo/geocoder';
import { displayPostalCode, isValidPostalCode, normalisePostalCode } from '../../../src/sandbox/geo/postal-codes';

const geocoder = createGeocoder();

describe('postal codes', () => {
  it('ignore case and whitespace', () => {
    expect(normalisePostalCode(' 1018 pn ')).toBe('1018PN');
    expect(normalisePostalCode('1018\tP N')).toBe('1018PN');
  });

  it('follow each country\'s format', () => {
    expect(isValidPostalCode('NL', '1018PN')).toBe(true);
    expect(isValidPostalCode('NL', '0118PN')).toBe(false);
    expect(isValidPostalCode('NL', '1018')).toBe(false);
    expect(isValidPostalCode('BE', '9000')).toBe(true);
    expect(isValidPostalCode('DE', '01067')).toBe(true);
    expect(isValidPostalCode('DE', '1067')).toBe(false);
    expect(displayPostalCode('NL', '1018PN')).toBe('1018 PN');
    expect(displayPostalCode('DE', '01067')).toBe('01067');
  });
});

describe('the deterministic geocoder', () => {
  it('places a postal code in its town, always on the same spot', () => {
    const first = geocoder.locatePostalCode('NL', '3011 AB')!;
    expect(first.city).toBe('Rotterdam');
    expect(distanceMeters(first, { lat: 51.9244, lng: 4.4777 })).toBeLessThan(7000);
    expect(geocoder.locatePostalCode('nl', '3011ab')).toEqual(first);
  });

  it('puts codes outside every known range near the nearest town, without naming a town', () => {
    const outskirts = geocoder.locatePostalCode('NL', '1434AB')!;
    expect(outskirts.city).toBeUndefined();
    expect(outskirts.region).toBeDefined();
    expect(distanceMeters(outskirts, outskirts.region!)).toBeLessThan(40_000);
  });

  it('knows other European countries roughly and nothing outside them', () => {
    const paris = geocoder.locatePostalCode('FR', '75001')!;
    expect(paris.lat).toBeGreaterThan(41);
    expect(paris.lat).toBeLessThan(52);
    expect(geocoder.locatePostalCode('ZZ', '12345')).toBeUndefined();
    expect(geocoder.locatePostalCode('NL', 'ABCDEF')).toBeUndefined();
  });

  it('tidies an all-lower-case address and keeps mixed case as written', () => {
    const resolved = geocoder.resolveAddress({ street: 'burgemeester  de withstraat', houseNumber: '3', suffix: ' a ', postalCode: '1018pn', countryCode: 'nl' }).resolvedAddress;
    expect(resolved).toMatchObject({ street: 'Burgemeester de Withstraat', suffix: 'A', postalCode: '1018 PN', city: 'Amsterdam', countryCode: 'NL' });
    expect(geocoder.resolveAddress({ street: 'McAdam Street', houseNumber: '3', postalCode: '1018PN', countryCode: 'NL' }).resolvedAddress.street).toBe('McAdam Street');
  });

  it('places different houses of a street apart, but close to each other', () => {
    const a = geocoder.resolveAddress({ street: 'Kerkstraat', houseNumber: '1', postalCode: '1017GC', countryCode: 'NL' }).resolvedAddress.coordinates;
    const b = geocoder.resolveAddress({ street: 'Kerkstraat', houseNumber: '99', postalCode: '1017GC', countryCode: 'NL' }).resolvedAddress.coordinates;
    expect(a).not.toEqual(b);
    expect(distanceMeters(a, b)).toBeLessThan(1000);
  });

  it('cannot locate a house number without a digit', () => {
    expect(geocoder.resolveAddress({ street: 'Kerkstraat', houseNumber: 'achter', postalCode: '1017GC', countryCode: 'NL' }).located).toBe(false);
  });
});
