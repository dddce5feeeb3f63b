/** The sandbox's state of one environment: companies, locations, keys, orders, bundles, webhooks. */
import type { OrderStatus, Orientation } from '../../shared/api/schemas';
import type { Random } from '../random';

export const environmentNames = ['test', 'live'] as const;
export type EnvironmentName = (typeof environmentNames)[number];

export interface Capabilities {
  signature: boolean;
  notAtNeighbour: boolean;
  pickupPoint: boolean;
}

/** Part of a location's coverage: postal code prefixes or full codes of one country sharing capabilities. */
export interface DeliveryArea {
  countryCode: string;
  /** Numeric prefixes ("10") or full normalised postal codes ("8011AB"). */
  entries: string[];
  capabilities: Capabilities;
  /** Carriers whose pickup points can receive orders from this area. */
  pickupCarriers: string[];
}

export interface PostalAddress {
  street: string;
  houseNumber: string;
  suffix: string;
  postalCode: string;
  city: string;
  countryCode: string;
}

export interface Location {
  id: number;
  companyId: string;
  name: string;
  address: PostalAddress;
  areas: DeliveryArea[];
}

export interface CompanySettings {
  orientation: Orientation;
  printSize: string;
}

export interface Company {
  id: string;
  name: string;
  /** Prefix of this company's seeded order references. */
  refPrefix: string;
  settings: CompanySettings;
  locationIds: number[];
}

export interface ApiKeyRecord {
  key: string;
  companyIds: string[];
  revoked: boolean;
  issuedAt: string;
}

export interface Dimensions {
  length: number;
  width: number;
  height: number;
}

export interface Order {
  id: number;
  orderId: string;
  orderRef: string;
  status: OrderStatus;
  name: string;
  barcode: string;
  pudoId: string | undefined;
  /** The carrier that delivers the parcel (the pickup point's carrier for pickup point orders). */
  carrier: string;
  trackingUrl: string;
  deliveryName: string;
  deliveryEmail: string;
  deliveryPhone: string;
  deliveryNote: string;
  address: PostalAddress;
  /** Formatted single line, e.g. "Kerkstraat 12 A, 1018 PN Amsterdam, NL". */
  addressLine: string;
  isBusiness: boolean;
  mailbox: boolean;
  dimensions: Dimensions | undefined;
  weight: number | undefined;
  signature: boolean;
  notAtNeighbour: boolean;
  /** "HH:MM - HH:MM" */
  deliveryEta: string;
  deliveryEtaDate: string;
  deliveryDate: string;
  locationId: number;
  companyId: string;
  createdAt: number;
  updatedAt: number;
  labelReadyAt: number;
  bundle: { id: number; bundleId: string };
  /** Courier delivery attempts made so far. */
  attempt: number;
  sortedAt: number | undefined;
  completedAt: number | undefined;
  signee: string | undefined;
  riderNote: string | undefined;
  neighbourAddress: string | undefined;
  /** True for orders of the seed (listed by the control API as today's orders). */
  seeded: boolean;
}

export interface Bundle {
  id: number;
  bundleId: string;
  companyId: string;
  locationId: number;
  orderIds: string[];
  createdAt: number;
}

export interface WebhookRegistration {
  id: string;
  companyId: string;
  /** Statuses this URL receives; undefined for all of them. */
  statuses: OrderStatus[] | undefined;
  url: string;
}

export interface EnvironmentState {
  name: EnvironmentName;
  companies: Map<string, Company>;
  locations: Map<number, Location>;
  keys: Map<string, ApiKeyRecord>;
  orders: Map<string, Order>;
  bundles: Map<string, Bundle>;
  webhooks: WebhookRegistration[];
  /** The key listed as revoked in the description. */
  revokedKey: string;
  /** Ids, barcodes and keys of orders and bundles created at run time come from here. */
  random: Random;
  nextOrderNumber: number;
  nextBundleNumber: number;
}
