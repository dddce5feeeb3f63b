/** Creating orders and bundles in an environment (shared by the seed and POST /orders). */
import { displayPostalCode } from '../geo/postal-codes';
import { hash32 } from '../random';
import { nextDeliveryDay } from './dates';
import type { Bundle, Company, Dimensions, EnvironmentState, Location, Order, PostalAddress } from './types';

const etaWindows = ['09:00 - 11:00', '10:00 - 12:00', '12:00 - 14:00', '14:00 - 16:00', '16:00 - 18:00', '18:00 - 20:00', '20:00 - 22:00'];
const hexDigits = '0123456789abcdef';
const bundleAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Numeric ids of the two environments live in different ranges, so a mix-up shows. */
const idBase = { test: { order: 100_000, bundle: 7_000 }, live: { order: 500_000, bundle: 9_000 } } as const;
const barcodePrefix = { test: 'DT', live: 'DL' } as const;

export function formatAddressLine(address: PostalAddress): string {
  const house = address.suffix ? `${address.houseNumber} ${address.suffix}` : address.houseNumber;
  const postal = displayPostalCode(address.countryCode, address.postalCode);
  return `${address.street} ${house}, ${postal} ${address.city}`.replace(/\s+,/g, ',').trim() + `, ${address.countryCode}`;
}

function luhnDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

export function createBundle(env: EnvironmentState, company: Company, location: Location, createdAt: number): Bundle {
  env.nextBundleNumber += 1;
  const bundle: Bundle = {
    id: idBase[env.name].bundle + env.nextBundleNumber,
    bundleId: `BND-${env.random.chars(8, bundleAlphabet)}`,
    companyId: company.id,
    locationId: location.id,
    orderIds: [],
    createdAt,
  };
  env.bundles.set(bundle.bundleId, bundle);
  return bundle;
}

export interface NewOrder {
  company: Company;
  location: Location;
  bundle: Bundle;
  orderRef: string;
  name: string;
  deliveryName: string;
  deliveryEmail: string;
  deliveryPhone: string;
  deliveryNote: string;
  address: PostalAddress;
  pudoId: string | undefined;
  carrier: string;
  isBusiness: boolean;
  mailbox: boolean;
  dimensions: Dimensions | undefined;
  weight: number | undefined;
  signature: boolean;
  notAtNeighbour: boolean;
  deliveryDate: string | undefined;
  createdAt: number;
  labelReadyAt: number;
  seeded: boolean;
  trackingBase: string;
}

export function addOrder(env: EnvironmentState, input: NewOrder): Order {
  env.nextOrderNumber += 1;
  const random = env.random;
  const uuid = [8, 4, 4, 4, 12].map((n) => random.chars(n, hexDigits));
  uuid[2] = `4${uuid[2]!.slice(1)}`;
  uuid[3] = `${random.pick(['8', '9', 'a', 'b'])}${uuid[3]!.slice(1)}`;
  const orderId = uuid.join('-');
  const digits = String(random.int(100_000, 999_999)) + String(random.int(100_000, 999_999));
  const barcode = `${barcodePrefix[env.name]}${digits}${luhnDigit(digits)}`;
  const deliveryDate = input.deliveryDate ?? nextDeliveryDay(input.createdAt);
  const order: Order = {
    id: idBase[env.name].order + env.nextOrderNumber,
    orderId,
    orderRef: input.orderRef,
    status: 'draft',
    name: input.name,
    barcode,
    pudoId: input.pudoId,
    carrier: input.carrier,
    trackingUrl: `${input.trackingBase}/${barcode}`,
    deliveryName: input.deliveryName,
    deliveryEmail: input.deliveryEmail,
    deliveryPhone: input.deliveryPhone,
    deliveryNote: input.deliveryNote,
    address: input.address,
    addressLine: formatAddressLine(input.address),
    isBusiness: input.isBusiness,
    mailbox: input.mailbox,
    dimensions: input.dimensions,
    weight: input.weight,
    signature: input.signature,
    notAtNeighbour: input.notAtNeighbour,
    deliveryEta: etaWindows[hash32(orderId) % etaWindows.length]!,
    deliveryEtaDate: deliveryDate,
    deliveryDate,
    locationId: input.location.id,
    companyId: input.company.id,
    createdAt: input.createdAt,
    updatedAt: input.createdAt,
    labelReadyAt: input.labelReadyAt,
    bundle: { id: input.bundle.id, bundleId: input.bundle.bundleId },
    attempt: 0,
    sortedAt: undefined,
    completedAt: undefined,
    signee: undefined,
    riderNote: undefined,
    neighbourAddress: undefined,
    seeded: input.seeded,
  };
  env.orders.set(orderId, order);
  input.bundle.orderIds.push(orderId);
  return order;
}
