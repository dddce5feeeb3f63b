import { describe, expect, it } from 'vitest';
import { createGeocoder } from '../../../src/sandbox/geo/geocoder';
import { findKnownAddress, oneDigitOff, type KnownAddress } from '../../../src/sandbox/geo/known-addresses';

// A register of the test's own, so the expectations do not come from the module's default list.
const register: KnownAddress[] = [
  { street: 'Herengracht', houseNumber: '182', suffix: 'H', postalCode: '1016BR', city: 'Amsterdam', countryCode: 'NL' },
  { street: 'Singel', houseNumber: '250', suffix: '', postalCode: '1016AB', city: 'Amsterdam', countryCode: 'NL' },
  { street: 'Spui', houseNumber: '21', suffix: '', postalCode: '1012WX', city: 'Amsterdam', countryCode: 'NL' },
];
const geocoder = createGeocoder({ knownAddresses: register });

describe('the geocoder corrects the typical mistakes on a building it knows', () => {
  it('adds the suffix a known building needs when it was left off', () => {
    const resolved = geocoder.resolveAddress({ street: 'Herengracht', houseNumber: '182', postalCode: '1016 BR', city: 'Amsterdam', countryCode: 'NL' }).resolvedAddress;
    expect(resolved).toMatchObject({ street: 'Herengracht', houseNumber: '182', suffix: 'H', postalCode: '1016 BR', city: 'Amsterdam' });
  });

  it('drops a suffix the building does not have', () => {
    const resolved = geocoder.resolveAddress({ street: 'singel', houseNumber: '250', suffix: 'b', postalCode: '1016ab', city: 'Amsterdam', countryCode: 'nl' }).resolvedAddress;
    expect(resolved).toMatchObject({ street: 'Singel', suffix: '', postalCode: '1016 AB' });
  });

  it('corrects a postal code one digit off when street and city identify the building, and places it at the right code', () => {
    const typo = geocoder.resolveAddress({ street: 'Spui', houseNumber: '21', postalCode: '1013 WX', city: 'Amsterdam', countryCode: 'NL' });
    const right = geocoder.resolveAddress({ street: 'Spui', houseNumber: '21', postalCode: '1012 WX', city: 'Amsterdam', countryCode: 'NL' });
    expect(typo.resolvedAddress.postalCode).toBe('1012 WX');
    expect(typo.resolvedAddress.coordinates).toEqual(right.resolvedAddress.coordinates);
  });

  it('leaves a postal code alone when the city is missing or another, or more than one digit or a letter differs', () => {
    const spui = { street: 'Spui', houseNumber: '21', countryCode: 'NL' };
    expect(geocoder.resolveAddress({ ...spui, postalCode: '1013 WX' }).resolvedAddress.postalCode).toBe('1013 WX');
    expect(geocoder.resolveAddress({ ...spui, postalCode: '1013 WX', city: 'Utrecht' }).resolvedAddress.postalCode).toBe('1013 WX');
    expect(geocoder.resolveAddress({ ...spui, postalCode: '1023 WX', city: 'Amsterdam' }).resolvedAddress.postalCode).toBe('1023 WX');
    expect(geocoder.resolveAddress({ ...spui, postalCode: '1012 WY', city: 'Amsterdam' }).resolvedAddress.postalCode).toBe('1012 WY');
  });

  it('changes nothing for an address it does not know, or another house number of a known street', () => {
    expect(geocoder.resolveAddress({ street: 'Herengracht', houseNumber: '184', suffix: '', postalCode: '1016 BR', city: 'Amsterdam', countryCode: 'NL' }).resolvedAddress.suffix).toBe('');
    expect(geocoder.resolveAddress({ street: 'Kerkstraat', houseNumber: '1', suffix: 'A', postalCode: '1017GC', countryCode: 'NL' }).resolvedAddress).toMatchObject({ suffix: 'A', postalCode: '1017 GC' });
  });

  it('knows these buildings by default, so the running sandbox corrects them', () => {
    const standard = createGeocoder();
    expect(standard.resolveAddress({ street: 'Herengracht', houseNumber: '182', postalCode: '1016 BR', city: 'Amsterdam', countryCode: 'NL' }).resolvedAddress.suffix).toBe('H');
    expect(standard.resolveAddress({ street: 'Spui', houseNumber: '21', postalCode: '1013 WX', city: 'Amsterdam', countryCode: 'NL' }).resolvedAddress.postalCode).toBe('1012 WX');
  });
});

describe('one digit off', () => {
  it('is exactly one differing position, a digit on both sides', () => {
    expect(oneDigitOff('1012WX', '1013WX')).toBe(true);
    expect(oneDigitOff('1012WX', '1012WX')).toBe(false);
    expect(oneDigitOff('1012WX', '1023WX')).toBe(false);
    expect(oneDigitOff('1012WX', '1012WY')).toBe(false);
    expect(oneDigitOff('10115', '1011')).toBe(false);
  });

  it('finds the building by its own code first', () => {
    expect(findKnownAddress({ street: 'Spui', houseNumber: '21', postalCode: '1012WX', city: '', countryCode: 'NL' }, register)).toBe(register[2]);
  });
});
