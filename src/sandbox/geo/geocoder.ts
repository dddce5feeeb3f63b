/**
 * A deterministic geocoder: the same postal code always lands on the same coordinate, near the
 * real town its range belongs to; the same street and house number always on the same spot near it.
 */
import type { Address, ResolvedAddress } from '../../shared/api/schemas';
import { hashUnit } from '../random';
import { offset, round6, type LatLng } from './distance';
import { findKnownAddress, type KnownAddress } from './known-addresses';
import { tidyName } from './names';
import { displayPostalCode, isValidPostalCode, normalisePostalCode, numericPart } from './postal-codes';
import { buildRegions, countryCentres, type Region } from './regions';

export interface PostalLocation extends LatLng {
  countryCode: string;
  /** Normalised (upper case, no spaces). */
  postalCode: string;
  /** The town of the code's range; undefined when the code lies outside every known range. */
  city: string | undefined;
  state: string;
  /** The region holding the code, or the numerically nearest one. */
  region: Region | undefined;
}

export interface AddressResolution {
  resolvedAddress: ResolvedAddress;
  /** False when the country is unknown, the postal code malformed or the house number has no digit. */
  located: boolean;
  location: PostalLocation | undefined;
}

export interface Geocoder {
  locatePostalCode(countryCode: string, postalCode: string): PostalLocation | undefined;
  resolveAddress(address: Address): AddressResolution;
  regions(countryCode: string): readonly Region[];
}

export interface GeocoderOptions {
  /** The buildings the geocoder knows by name and corrects to (default: `knownAddresses`). */
  knownAddresses?: readonly KnownAddress[];
}

export function createGeocoder(options: GeocoderOptions = {}): Geocoder {
  const regionsByCountry = buildRegions();
  const regionsOf = (countryCode: string): readonly Region[] =>
    (regionsByCountry as Record<string, Region[] | undefined>)[countryCode] ?? [];

  const findRegion = (countryCode: string, number: number): { region: Region; inside: boolean } | undefined => {
    let nearest: Region | undefined;
    let nearestGap = Number.POSITIVE_INFINITY;
    for (const region of regionsOf(countryCode)) {
      if (number >= region.from && number <= region.to) return { region, inside: true };
      const gap = number < region.from ? region.from - number : number - region.to;
      if (gap < nearestGap) {
        nearest = region;
        nearestGap = gap;
      }
    }
    return nearest ? { region: nearest, inside: false } : undefined;
  };

  const locatePostalCode = (countryCodeInput: string, postalCodeInput: string): PostalLocation | undefined => {
    const countryCode = countryCodeInput.toUpperCase();
    const postalCode = normalisePostalCode(postalCodeInput);
    if (!isValidPostalCode(countryCode, postalCode)) return undefined;
    const angle = hashUnit(`angle/${countryCode}/${postalCode}`) * 2 * Math.PI;
    const spread = hashUnit(`spread/${countryCode}/${postalCode}`);
    const found = regionsOf(countryCode).length > 0 ? findRegion(countryCode, numericPart(postalCode)) : undefined;
    if (found) {
      const { region, inside } = found;
      // Codes outside every range sit on the outskirts of the nearest town.
      const distanceKm = inside ? Math.sqrt(spread) * region.radiusKm : region.radiusKm + 3 + spread * 12;
      const point = offset(region, distanceKm, angle);
      return { countryCode, postalCode, city: inside ? region.city : undefined, state: region.state, region, ...point };
    }
    const centre = countryCentres[countryCode];
    if (!centre) return undefined;
    const point = offset(centre, Math.sqrt(spread) * centre.spreadKm, angle);
    return { countryCode, postalCode, city: undefined, state: '', region: undefined, ...point };
  };

  const resolveAddress = (submitted: Address): AddressResolution => {
    // A building the geocoder knows wins over what was sent: its suffix and its postal code.
    const known = findKnownAddress({ ...submitted, city: submitted.city ?? '' }, options.knownAddresses);
    const address: Address = known ? { ...submitted, suffix: known.suffix, postalCode: known.postalCode } : submitted;
    const countryCode = address.countryCode.toUpperCase();
    const location = locatePostalCode(countryCode, address.postalCode);
    const houseNumber = address.houseNumber.trim().replace(/\s+/g, '');
    const street = tidyName(address.street);
    const submittedCity = address.city ? tidyName(address.city) : '';
    const located = location !== undefined && /\d/.test(houseNumber);
    const normalised = normalisePostalCode(address.postalCode);
    let coordinates: LatLng = { lat: 0, lng: 0 };
    if (location) {
      const key = `${countryCode}/${location.postalCode}/${street.toLowerCase()}/${houseNumber.toLowerCase()}`;
      coordinates = offset(location, hashUnit(`house/${key}`) * 0.4, hashUnit(`bearing/${key}`) * 2 * Math.PI);
    }
    return {
      located,
      location,
      resolvedAddress: {
        street,
        houseNumber,
        suffix: (address.suffix ?? '').trim().replace(/\s+/g, ' ').toUpperCase(),
        postalCode: displayPostalCode(countryCode, normalised),
        city: location?.city ?? submittedCity,
        countryCode,
        coordinates: { lat: round6(coordinates.lat), lng: round6(coordinates.lng) },
      },
    };
  };

  return { locatePostalCode, resolveAddress, regions: regionsOf };
}
