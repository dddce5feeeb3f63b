/**
 * The deterministic seed of one environment: three companies with their locations, coverage and
 * keys, a revoked key, and "today's" orders grouped in bundles (multi-parcel shipments to one
 * recipient), all drawn from a seeded generator and dated relative to the day the sandbox starts.
 */
import type { OrderStatus } from '../../shared/api/schemas';
import type { Geocoder } from '../geo/geocoder';
import { familyNames, givenNames, streets } from '../geo/names';
import { normalisePostalCode } from '../geo/postal-codes';
import type { Region } from '../geo/regions';
import type { PickupDirectory } from '../pickup/directory';
import { createRandom, type Random } from '../random';
import { homeCarrier } from './carriers';
import { startOfLocalDay } from './dates';
import { addOrder, createBundle } from './orders';
import type { ApiKeyRecord, Company, DeliveryArea, EnvironmentName, EnvironmentState, Location, PostalAddress } from './types';

export interface SeedOptions {
  seed: string;
  /** Number of today's orders per environment. */
  orders: number;
  /** The moment "now" of the seed: orders are dated earlier today. */
  now: number;
  /** Base of tracking URLs; the barcode is appended. */
  trackingBase: string;
  /** Print size every company starts with. */
  defaultPrintSize: string;
}

const all = { signature: true, notAtNeighbour: true, pickupPoint: true };
const digits = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

interface LocationPlan {
  offset: number;
  name: string;
  address: PostalAddress;
  areas: DeliveryArea[];
}

interface CompanyPlan {
  id: string;
  name: string;
  refPrefix: string;
  products: string[];
  /** Share of today's orders. */
  share: number;
  locations: LocationPlan[];
}

const companyPlans: CompanyPlan[] = [
  {
    id: 'noordwind',
    name: 'Noordwind Webwinkel B.V.',
    refPrefix: 'NW-',
    products: ['Keukenmachine', 'Bureaulamp', 'Koffiebonen 1 kg', 'Wollen deken', 'Hardloopschoenen', 'Boekenpakket', 'Speelgoedset', 'Plantenbak', 'Theeservies', 'Rugzak'],
    share: 0.55,
    locations: [
      {
        offset: 1,
        name: 'Magazijn Amsterdam-Westpoort',
        address: { street: 'Australiëhavenweg', houseNumber: '100', suffix: '', postalCode: '1045BD', city: 'Amsterdam', countryCode: 'NL' },
        areas: [
          { countryCode: 'NL', entries: ['1', '2', '3'], capabilities: all, pickupCarriers: ['NordPost', 'EuroLocker'] },
          { countryCode: 'NL', entries: ['4', '5', '6', '7'], capabilities: { signature: true, notAtNeighbour: false, pickupPoint: true }, pickupCarriers: ['NordPost'] },
          { countryCode: 'NL', entries: ['8011AB', '8011CW', '8011PK'], capabilities: { signature: true, notAtNeighbour: false, pickupPoint: false }, pickupCarriers: [] },
          { countryCode: 'BE', entries: ['2', '9'], capabilities: { signature: true, notAtNeighbour: true, pickupPoint: false }, pickupCarriers: [] },
        ],
      },
      {
        offset: 2,
        name: 'Magazijn Venlo',
        address: { street: 'Celsiusweg', houseNumber: '41', suffix: '', postalCode: '5928PR', city: 'Venlo', countryCode: 'NL' },
        areas: [
          { countryCode: 'NL', entries: ['5', '6'], capabilities: all, pickupCarriers: ['NordPost'] },
          { countryCode: 'DE', entries: ['40', '41', '44', '45', '46', '47', '50', '51', '52', '53'], capabilities: all, pickupCarriers: ['PaketDirekt', 'EuroLocker'] },
          { countryCode: 'BE', entries: ['35', '36', '3000', '3001', '3010'], capabilities: { signature: true, notAtNeighbour: false, pickupPoint: true }, pickupCarriers: ['Belgo Parcel'] },
        ],
      },
    ],
  },
  {
    id: 'devries',
    name: 'Kaasmakerij De Vries',
    refPrefix: 'KDV',
    products: ['Goudse kaas jong belegen 1 kg', 'Kaasplank cadeau', 'Oude kaas 500 g', 'Kaaspakket Deluxe', 'Geitenkaas met honing', 'Komijnekaas 750 g'],
    share: 0.25,
    locations: [
      {
        offset: 1,
        name: 'Kaaspakhuis Gouda',
        address: { street: 'Goudkade', houseNumber: '16', suffix: '', postalCode: '2802AA', city: 'Gouda', countryCode: 'NL' },
        // Pickup point delivery is switched off for this location: every pudoId order is refused (406).
        areas: [{ countryCode: 'NL', entries: digits(1, 9), capabilities: { signature: true, notAtNeighbour: true, pickupPoint: false }, pickupCarriers: [] }],
      },
    ],
  },
  {
    id: 'rijnland',
    name: 'Rijnland Fietsonderdelen',
    refPrefix: 'RF',
    products: ['Fietsband 28 inch', 'Kettingset', 'Fietsverlichting', 'Zadel comfort', 'Remblokjes set', 'Fietstas dubbel', 'Pomp met manometer'],
    share: 0.2,
    locations: [
      {
        offset: 1,
        name: 'Werkplaats Arnhem',
        address: { street: 'Westervoortsedijk', houseNumber: '73', suffix: 'K', postalCode: '6827AV', city: 'Arnhem', countryCode: 'NL' },
        areas: [
          { countryCode: 'NL', entries: ['6', '7', '8', '9'], capabilities: all, pickupCarriers: ['NordPost', 'EuroLocker'] },
          { countryCode: 'DE', entries: ['4', '5'], capabilities: { signature: true, notAtNeighbour: false, pickupPoint: true }, pickupCarriers: ['PaketDirekt'] },
        ],
      },
    ],
  },
];

/** Location ids per environment: test and live never share one. */
const locationIdBase: Record<EnvironmentName, number[]> = { test: [1100, 1200, 1300], live: [8100, 8200, 8300] };
const keyAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const keyFormats: Record<EnvironmentName, RegExp> = { test: /^sk_test_[A-Za-z0-9]{32}$/, live: /^sk_live_[A-Za-z0-9]{32}$/ };

/** The shape of a well-formed key of an environment; anything else is "malformed" (401). */
export function apiKeyFormat(environment: EnvironmentName): RegExp {
  return keyFormats[environment];
}

export function newApiKey(environment: EnvironmentName, random: Random): string {
  return `sk_${environment}_${random.chars(32, keyAlphabet)}`;
}

const fullLength: Record<string, number> = { NL: 4, BE: 4, DE: 5 };

/** A real-looking address inside one entry of a delivery area. */
function addressInArea(area: DeliveryArea, geocoder: Geocoder, random: Random): { address: PostalAddress; region: Region } | undefined {
  const entry = random.pick(area.entries);
  const country = area.countryCode;
  const length = fullLength[country] ?? 4;
  const regions = geocoder.regions(country);
  let code: string;
  let region: Region | undefined;
  if (/^\d+$/.test(entry) && entry.length < length + (country === 'NL' ? 1 : 0)) {
    const scale = 10 ** Math.max(0, length - entry.length);
    const from = Number(entry) * scale;
    const to = from + scale - 1;
    const inside = regions.filter((r) => r.to >= from && r.from <= to);
    if (inside.length === 0) return undefined;
    region = random.pick(inside);
    const number = random.int(Math.max(from, region.from), Math.min(to, region.to));
    code = String(number).padStart(length, '0') + (country === 'NL' ? random.chars(2, 'ABCDEGHJKLMNPRTVWXZ') : '');
  } else {
    code = normalisePostalCode(entry);
    region = geocoder.locatePostalCode(country, code)?.region;
    if (!region) return undefined;
  }
  const suffixRoll = random.next();
  return {
    region,
    address: {
      street: random.pick(streets[region.language]),
      houseNumber: String(random.int(1, 240)),
      suffix: suffixRoll < 0.08 ? random.pick(['A', 'B', 'C']) : suffixRoll < 0.11 ? random.pick(['1', '2', 'bis']) : '',
      postalCode: code,
      city: region.city,
      countryCode: country,
    },
  };
}

const ascii = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '');

export interface SeedContext {
  geocoder: Geocoder;
  directory: PickupDirectory;
}

/** Who works in an environment: its companies, their locations and keys, and the revoked key. */
export type EnvironmentAccounts = Pick<EnvironmentState, 'name' | 'companies' | 'locations' | 'keys' | 'revokedKey'>;

/** The companies, locations and keys of an environment, without its orders (seedEnvironment adds those). */
export function seedAccounts(name: EnvironmentName, options: Pick<SeedOptions, 'seed' | 'now' | 'defaultPrintSize'>): EnvironmentAccounts {
  const keyRandom = createRandom(`${options.seed}/${name}`).fork('keys');
  const accounts: EnvironmentAccounts = { name, companies: new Map(), locations: new Map(), keys: new Map(), revokedKey: '' };
  const issuedAt = new Date(startOfLocalDay(options.now) - 30 * 86_400_000).toISOString();
  companyPlans.forEach((plan, index) => {
    const base = locationIdBase[name][index]!;
    const company: Company = {
      id: plan.id,
      name: plan.name,
      refPrefix: plan.refPrefix,
      settings: { orientation: 'landscape', printSize: options.defaultPrintSize },
      locationIds: plan.locations.map((location) => base + location.offset),
    };
    accounts.companies.set(company.id, company);
    for (const locationPlan of plan.locations) {
      const location: Location = { id: base + locationPlan.offset, companyId: company.id, name: locationPlan.name, address: locationPlan.address, areas: locationPlan.areas };
      accounts.locations.set(location.id, location);
    }
    const key: ApiKeyRecord = { key: newApiKey(name, keyRandom), companyIds: [company.id], revoked: false, issuedAt };
    accounts.keys.set(key.key, key);
  });
  // Kaasmakerij De Vries prints portrait by default, so the ORIENTATION setting matters out of the box.
  accounts.companies.get('devries')!.settings.orientation = 'portrait';
  const revoked: ApiKeyRecord = { key: newApiKey(name, keyRandom), companyIds: ['noordwind'], revoked: true, issuedAt };
  accounts.keys.set(revoked.key, revoked);
  accounts.revokedKey = revoked.key;
  return accounts;
}

/**
 * The whole environment: its accounts (the same maps as `accounts`, when given) and today's
 * orders. Accounts and orders come from generators of their own, so either may be made first.
 */
export function seedEnvironment(name: EnvironmentName, options: SeedOptions, context: SeedContext, accounts: EnvironmentAccounts = seedAccounts(name, options)): EnvironmentState {
  const root = createRandom(`${options.seed}/${name}`);
  const env: EnvironmentState = {
    ...accounts,
    orders: new Map(),
    bundles: new Map(),
    webhooks: [],
    random: root.fork('runtime'),
    nextOrderNumber: 0,
    nextBundleNumber: 0,
  };
  seedOrders(env, options, context, root.fork('orders'));
  return env;
}

function seedOrders(env: EnvironmentState, options: SeedOptions, { geocoder, directory }: SeedContext, random: Random): void {
  const dayStart = startOfLocalDay(options.now);
  // Orders were placed earlier today, never in the future.
  const span = Math.max(60_000, options.now - dayStart - 60_000);
  let remaining = options.orders;
  let orderNumber = 104_200 + random.int(0, 400);
  const plans = companyPlans;
  let bundles = 0;
  while (remaining > 0) {
    const roll = random.next();
    let cumulative = 0;
    // Every company gets a bundle first, so even a small seed has orders of each (403 can be tried).
    const plan = bundles < plans.length ? plans[bundles]! : (plans.find((p) => (cumulative += p.share) > roll) ?? plans[0]!);
    const company = env.companies.get(plan.id)!;
    const location = env.locations.get(random.pick(company.locationIds))!;
    const area = random.pick(location.areas);
    const placed = addressInArea(area, geocoder, random);
    if (!placed) continue;
    bundles += 1;
    const { address, region } = placed;
    const size = Math.min(remaining, random.pick([1, 1, 2, 3, 3, 4, 5, 5, 6, 7, 8, 9, 10]));
    const createdAt = dayStart + Math.floor(random.next() * span);
    const bundle = createBundle(env, company, location, createdAt);
    const given = random.pick(givenNames[region.language]);
    const family = random.pick(familyNames[region.language]);
    const isBusiness = random.chance(0.15);
    const deliveryName = isBusiness ? `${family} ${random.pick(['Installatietechniek', 'Bouw', 'Consultancy', 'Handel', 'GmbH', 'BV'])}` : `${given} ${family}`;
    let pudoId: string | undefined;
    let carrier = homeCarrier(area.countryCode);
    if (area.capabilities.pickupPoint && area.pickupCarriers.length > 0 && random.chance(0.12)) {
      const near = directory.nearby({ countryCode: address.countryCode, postalCode: address.postalCode, maxResults: 25, maxDistanceKm: 15 });
      const point = near.points.map((p) => p.point).find((p) => area.pickupCarriers.includes(p.carrier));
      if (point) {
        pudoId = point.pudoId;
        carrier = point.carrier;
      }
    }
    orderNumber += random.int(1, 9);
    const product = random.pick(plan.products);
    for (let i = 1; i <= size; i++) {
      const length = random.int(150, 800);
      const width = random.int(100, Math.min(length, 500));
      const height = random.int(20, Math.min(width, 400));
      const order = addOrder(env, {
        company,
        location,
        bundle,
        orderRef: size === 1 ? `${plan.refPrefix}${orderNumber}` : `${plan.refPrefix}${orderNumber}-${i}`,
        name: size === 1 ? product : `${product} (${i}/${size})`,
        deliveryName,
        deliveryEmail: `${ascii(given)}.${ascii(family)}@mail.example`,
        deliveryPhone: `${address.countryCode === 'DE' ? '+49 151' : address.countryCode === 'BE' ? '+32 470' : '+31 6'} ${random.int(1_000_000, 9_999_999)}`,
        deliveryNote: random.chance(0.1) ? random.pick(['Graag bij de achterdeur', 'Bel aan bij nummer 2', 'Niet bij de buren', 'Bitte beim Nachbarn abgeben']) : '',
        address,
        pudoId,
        carrier,
        isBusiness,
        mailbox: false,
        dimensions: { length, width, height },
        weight: random.int(200, 12_000),
        signature: area.capabilities.signature && random.chance(0.1),
        notAtNeighbour: area.capabilities.notAtNeighbour && random.chance(0.05),
        deliveryDate: undefined,
        createdAt,
        labelReadyAt: createdAt,
        seeded: true,
        trackingBase: options.trackingBase,
      });
      const fate = random.next();
      const moved: OrderStatus | undefined = fate < 0.04 ? 'cancelled' : fate < 0.1 ? 'expected' : undefined;
      if (moved) {
        order.status = moved;
        order.updatedAt = Math.min(options.now, createdAt + random.int(60_000, 3_600_000));
      }
    }
    remaining -= size;
  }
}

/** Public seed facts for the docs and the description. */
export const seededCompanies = companyPlans.map((plan) => ({ id: plan.id, name: plan.name, locations: plan.locations.map((l) => l.name) }));
