/**
 * The pickup point network: a few thousand generated points in NL, BE and DE (shops, post offices,
 * parcel lockers, mailboxes) and the spec's search over them. The network is public: the same for
 * both environments and every caller.
 */
import { pickupTypeFilterMatches, type PickupPoint, type PickupPointTypeFilter } from '../../shared/api/schemas';
import { distanceMeters, metresPerDegreeLatitude, offset, type LatLng } from '../geo/distance';
import type { Geocoder } from '../geo/geocoder';
import {
  familyNames,
  givenNames,
  lockerGuidance,
  lockerNames,
  mailboxNames,
  postOfficeNames,
  servicePointShops,
  shopGuidance,
  streets,
} from '../geo/names';
import type { Region } from '../geo/regions';
import { hashUnit, resumeRandom, type Random } from '../random';

export type PickupPointType = PickupPoint['type'];

type Slot = { openTime: string; closeTime: string };

/** A pickup point as the search returns it, without the distance. */
export interface PickupPointDocument {
  pudoId: string;
  carrierPudoId: string;
  type: PickupPointType;
  name: string;
  address: { street: string; street2: string; postalCode: string; city: string; state: string; suburb: string; countryCode: string };
  geo: LatLng;
  openingHours: { open24h: boolean; weekdays: Record<string, Slot[]> };
  facilities: { carParking: boolean; bikeParking: boolean; accessibility: boolean; waitingArea: boolean };
  contact?: { phone: string; email: string };
  locationGuidance?: string;
}

export interface DirectoryPoint {
  pudoId: string;
  type: PickupPointType;
  /** The carrier delivering to the point; orders naming it are routed to this carrier. */
  carrier: string;
  countryCode: string;
  geo: LatLng;
  /** The public document (without distanceMeters), the same whenever it is asked for. */
  readonly document: PickupPointDocument;
}

export interface PickupSearch {
  countryCode?: string;
  postalCode?: string;
  lat?: number;
  lng?: number;
  street?: string;
  maxResults?: number;
  maxDistanceKm?: number;
  types?: readonly PickupPointTypeFilter[];
}

export interface PickupSearchResult {
  points: (PickupPointDocument & { distanceMeters: number })[];
  totalFound: number;
}

/** The points a search finds, nearest first, before their documents are built. */
export interface NearbyPoints {
  points: { point: DirectoryPoint; distance: number }[];
  totalFound: number;
}

export interface PickupDirectory {
  readonly size: number;
  byPudoId(pudoId: string): DirectoryPoint | undefined;
  search(query: PickupSearch): PickupSearchResult;
  /** What search finds, as directory points: for the seed, which needs carriers, not documents. */
  nearby(query: PickupSearch): NearbyPoints;
  all(): readonly DirectoryPoint[];
}

/** Defaults where the spec says "not shown" or "the carrier default" (documented in docs/sandbox.md). */
export const pickupDefaults = { maxResults: 10, maxDistanceKm: 10 } as const;

/** Countries the pickup point network covers; searches by postal code elsewhere return no points. */
export const pickupCountries = ['NL', 'BE', 'DE'] as const;

/** Which carrier serves points of a type in a country. */
export function carrierFor(countryCode: string, type: PickupPointType, random: Random): string {
  if (type === 'PARCEL_LOCKER' && random.chance(0.4)) return 'EuroLocker';
  if (countryCode === 'NL') return 'NordPost';
  if (countryCode === 'BE') return 'Belgo Parcel';
  return 'PaketDirekt';
}

const carrierCodes: Record<string, (serial: number) => string> = {
  NordPost: (n) => `NP${String(204_000 + n * 7).padStart(6, '0')}`,
  'Belgo Parcel': (n) => `BP-${String(10_000 + n * 3).padStart(5, '0')}`,
  PaketDirekt: (n) => `PD ${String(100 + (n % 900)).padStart(3, '0')}-${String(1000 + Math.floor(n / 900) * 13 + (n % 97)).padStart(4, '0')}`,
  EuroLocker: (n) => `EL${String(4000 + n).padStart(5, '0')}`,
};

const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

function openingHoursFor(type: PickupPointType, random: Random): PickupPointDocument['openingHours'] {
  if (type === 'PARCEL_LOCKER' || type === 'MAILBOX') {
    // Lockers and mailboxes are open around the clock; some carriers send no weekday table then.
    return random.chance(0.5) ? { open24h: true, weekdays: {} } : { open24h: true, weekdays: Object.fromEntries(weekdays.map((day) => [day, [{ openTime: '00:00', closeTime: '23:59' }]])) };
  }
  const open = type === 'POST_OFFICE' ? '09:00' : random.pick(['08:00', '08:30', '09:00', '09:30', '10:00']);
  const close = type === 'POST_OFFICE' ? '17:30' : random.pick(['17:00', '18:00', '18:30', '20:00', '21:00']);
  const lunch = type === 'SERVICE_POINT' && random.chance(0.25);
  const day = (from: string, to: string): Slot[] =>
    lunch ? [{ openTime: from, closeTime: '12:30' }, { openTime: '13:30', closeTime: to }] : [{ openTime: from, closeTime: to }];
  const table: Record<string, Slot[]> = {};
  for (const name of weekdays) {
    if (name === 'sunday') table[name] = random.chance(0.2) ? [{ openTime: '12:00', closeTime: '17:00' }] : [];
    else if (name === 'saturday') table[name] = day(open, type === 'POST_OFFICE' ? '13:00' : '17:00');
    else if (name === 'monday' && random.chance(0.3)) table[name] = [{ openTime: '13:00', closeTime: close }];
    else table[name] = day(open, close);
  }
  return { open24h: false, weekdays: table };
}

function fill(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
}

function pickType(random: Random): PickupPointType {
  const roll = random.next();
  if (roll < 0.5) return 'SERVICE_POINT';
  if (roll < 0.75) return 'PARCEL_LOCKER';
  if (roll < 0.85) return 'POST_OFFICE';
  return 'MAILBOX';
}

interface PointBasics {
  type: PickupPointType;
  carrier: string;
  /** The point's number among its carrier's points (its carrier code and shop number). */
  serial: number;
  geo: LatLng;
  region: Region;
}

/**
 * The rest of a point's document, drawn from `random` right after its type, carrier and place.
 * skipDescription must draw as many values as this, in the same places: the network's seeded
 * points are the same as when every document was built at once.
 */
function describePoint({ type, carrier, serial, geo, region }: PointBasics, random: Random): PickupPointDocument {
  const { countryCode } = region;
  const span = region.to - region.from;
  const code = region.from + Math.floor(random.next() * (span + 1));
  const postalCode =
    countryCode === 'NL'
      ? `${code}${random.chars(2, 'ABCDEGHJKLMNPRTVWXZ')}`
      : String(code).padStart(countryCode === 'DE' ? 5 : 4, '0');
  const street = random.pick(streets[region.language]);
  const houseNumber = String(random.int(1, 180));
  const values = {
    street,
    city: region.city,
    family: random.pick(familyNames[region.language]),
    given: random.pick(givenNames[region.language]),
    number: String(100 + (serial % 900)),
  };
  const name =
    type === 'SERVICE_POINT'
      ? fill(random.pick(servicePointShops[region.language]), values)
      : type === 'POST_OFFICE'
        ? fill(postOfficeNames[region.language], values)
        : type === 'PARCEL_LOCKER'
          ? fill(lockerNames[region.language], values)
          : fill(mailboxNames[region.language], values);
  const streetLine = region.language === 'fr' ? `${houseNumber} ${street}` : `${street} ${houseNumber}`;
  const document: PickupPointDocument = {
    pudoId: pudoIdOf(random),
    carrierPudoId: (carrierCodes[carrier] ?? carrierCodes.NordPost!)(serial),
    type,
    name,
    address: { street: streetLine, street2: '', postalCode, city: region.city, state: region.state, suburb: '', countryCode },
    geo,
    openingHours: openingHoursFor(type, random),
    facilities: {
      carParking: random.chance(type === 'PARCEL_LOCKER' ? 0.7 : 0.5),
      bikeParking: random.chance(0.6),
      accessibility: random.chance(type === 'MAILBOX' ? 0.9 : 0.65),
      waitingArea: type === 'POST_OFFICE' ? true : type === 'SERVICE_POINT' && random.chance(0.3),
    },
  };
  // Which fields may be absent is not shown: lockers and mailboxes carry no contact, and some points no guidance.
  if (type === 'SERVICE_POINT' || type === 'POST_OFFICE') {
    const prefix = countryCode === 'NL' ? '+31' : countryCode === 'BE' ? '+32' : '+49';
    document.contact = {
      phone: `${prefix} ${random.int(10, 99)} ${random.int(100, 999)} ${random.int(1000, 9999)}`,
      email: type === 'POST_OFFICE' ? `${region.city.toLowerCase().replace(/[^a-z]+/g, '')}@post.example` : `winkel${serial}@shops.example`,
    };
  }
  if (type === 'PARCEL_LOCKER') document.locationGuidance = random.pick(lockerGuidance[region.language]);
  else if (type !== 'MAILBOX' && random.chance(0.6)) document.locationGuidance = random.pick(shopGuidance[region.language]);
  return document;
}

const pudoIdOf = (random: Random) => `pp_${random.chars(14, 'abcdefghjkmnpqrstuvwxyz23456789')}`;

const skip = (random: Random, count: number) => {
  for (let i = 0; i < count; i++) random.next();
};

/**
 * Draws what describePoint draws, building nothing but the point's id: the values are only
 * counted, except the two that decide how many more follow.
 */
function skipDescription(type: PickupPointType, countryCode: string, random: Random): string {
  // Postal code (with two letters in NL), street, house number, family and given name, shop name.
  skip(random, 1 + (countryCode === 'NL' ? 2 : 0) + 4 + (type === 'SERVICE_POINT' ? 1 : 0));
  const pudoId = pudoIdOf(random);
  // Opening hours: lockers and mailboxes one (which table); post offices Sunday and Monday;
  // shops also opening, closing time and lunch break. Then the facilities, the contact.
  const hours = type === 'PARCEL_LOCKER' || type === 'MAILBOX' ? 1 : type === 'POST_OFFICE' ? 2 : 5;
  const facilities = type === 'SERVICE_POINT' ? 4 : 3;
  const contact = type === 'SERVICE_POINT' || type === 'POST_OFFICE' ? 3 : 0;
  skip(random, hours + facilities + contact);
  if (type === 'PARCEL_LOCKER') skip(random, 1);
  else if (type !== 'MAILBOX' && random.chance(0.6)) skip(random, 1);
  return pudoId;
}

export interface DirectoryOptions {
  /** Total number of points, spread over NL (40%), BE (20%) and DE (40%) by town size. */
  size: number;
  random: Random;
  geocoder: Geocoder;
}

export function createPickupDirectory({ size, random, geocoder }: DirectoryOptions): PickupDirectory {
  const points: DirectoryPoint[] = [];
  const serials = new Map<string, number>();
  const share: Record<string, number> = { NL: 0.4, BE: 0.2, DE: 0.4 };

  // Every start of a sandbox builds the network, yet searches return a few points and most are
  // never shown. Only what a search needs (type, carrier, place, id) is built here; the rest of a
  // point's document is drawn when it is first returned, from where the generator stood for it.
  for (const countryCode of pickupCountries) {
    const regions = geocoder.regions(countryCode);
    const weight = (region: Region) => region.radiusKm ** 2;
    const totalWeight = regions.reduce((sum, region) => sum + weight(region), 0);
    const countryTotal = Math.round(size * (share[countryCode] ?? 0));
    for (const region of regions) {
      const count = Math.max(1, Math.round((countryTotal * weight(region)) / totalWeight));
      for (let i = 0; i < count; i++) {
        const type = pickType(random);
        const carrier = carrierFor(countryCode, type, random);
        const serial = serials.get(carrier) ?? 0;
        serials.set(carrier, serial + 1);
        const geo = offset(region, Math.sqrt(random.next()) * region.radiusKm, random.next() * 2 * Math.PI);
        const position = random.position();
        const pudoId = skipDescription(type, countryCode, random);
        let document: PickupPointDocument | undefined;
        points.push({
          pudoId,
          type,
          carrier,
          countryCode,
          geo,
          get document() {
            document ??= describePoint({ type, carrier, serial, geo, region }, resumeRandom(position));
            return document;
          },
        });
      }
    }
  }

  const index = new Map(points.map((point) => [point.pudoId, point]));

  const nearby = (query: PickupSearch): NearbyPoints => {
    let origin: LatLng | undefined;
    let country: string | undefined;
    if (query.lat !== undefined && query.lng !== undefined) {
      origin = { lat: query.lat, lng: query.lng };
    } else if (query.countryCode && query.postalCode) {
      country = query.countryCode.toUpperCase();
      const located = geocoder.locatePostalCode(country, query.postalCode);
      if (located) {
        origin = query.street
          ? offset(located, hashUnit(`street/${query.street.toLowerCase()}`) * 0.4, hashUnit(`bearing/${query.street}`) * 2 * Math.PI)
          : located;
      }
    }
    // A failed lookup gives an empty list, not an error (spec).
    if (!origin) return { points: [], totalFound: 0 };
    const allowed = query.types?.length ? new Set(query.types.flatMap((filter) => pickupTypeFilterMatches[filter])) : undefined;
    const radiusM = (query.maxDistanceKm ?? pickupDefaults.maxDistanceKm) * 1000;
    // A point further north or south than the radius is further away than it whatever its
    // longitude: skipped without the great-circle formula (a metre of slack for rounding).
    const latitudeSpan = (radiusM + 1) / metresPerDegreeLatitude;
    const near: { point: DirectoryPoint; distance: number }[] = [];
    for (const point of points) {
      if (Math.abs(point.geo.lat - origin.lat) > latitudeSpan) continue;
      if (country && point.countryCode !== country) continue;
      if (allowed && !allowed.has(point.type)) continue;
      const distance = distanceMeters(origin, point.geo);
      if (distance <= radiusM) near.push({ point, distance });
    }
    near.sort((a, b) => a.distance - b.distance || a.point.pudoId.localeCompare(b.point.pudoId));
    return { points: near.slice(0, query.maxResults ?? pickupDefaults.maxResults), totalFound: near.length };
  };

  const search = (query: PickupSearch): PickupSearchResult => {
    const found = nearby(query);
    return {
      totalFound: found.totalFound,
      points: found.points.map(({ point, distance }) => ({ ...point.document, distanceMeters: Math.round(distance) })),
    };
  };

  return { size: points.length, byPudoId: (id) => index.get(id), search, nearby, all: () => points };
}
