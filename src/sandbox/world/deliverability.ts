/**
 * Whether a location can deliver to an address or postal code: coverage, capabilities and the
 * size and weight ceilings the sandbox chose (the spec shows none; see docs/sandbox.md).
 */
import type { AddressResolution } from '../geo/geocoder';
import { normalisePostalCode } from '../geo/postal-codes';
import type { Capabilities, DeliveryArea, Dimensions, Location } from './types';

export const deliveryReasons = {
  outOfArea: 'OUT_OF_AREA',
  addressNotFound: 'ADDRESS_NOT_FOUND',
  postalCodeNotFound: 'POSTAL_CODE_NOT_FOUND',
  dimensionsExceeded: 'DIMENSIONS_EXCEEDED',
  weightExceeded: 'WEIGHT_EXCEEDED',
  capabilityUnavailable: 'CAPABILITY_UNAVAILABLE',
} as const;

export const parcelCeilings = { lengthMm: 1200, widthMm: 800, heightMm: 800, weightG: 31_500 } as const;

export interface Requested {
  dimensions?: Dimensions | undefined;
  weight?: number | undefined;
  signature?: boolean | undefined;
  notAtNeighbour?: boolean | undefined;
  pickupPoint?: boolean | undefined;
}

export type Verdict =
  | { deliverable: true; area: DeliveryArea }
  | { deliverable: false; reason: string; missingCapabilities: Capabilities; area: DeliveryArea | undefined };

const matchesEntry = (postalCode: string, entry: string) => (/^\d+$/.test(entry) ? postalCode.startsWith(entry) : postalCode === entry);

/** The location's delivery area holding the postal code, if any (the first listed wins). */
export function findArea(location: Location, countryCode: string, postalCode: string): DeliveryArea | undefined {
  const code = normalisePostalCode(postalCode);
  const country = countryCode.toUpperCase();
  return location.areas.find((area) => area.countryCode === country && area.entries.some((entry) => matchesEntry(code, entry)));
}

function missing(requested: Requested, area: DeliveryArea | undefined): Capabilities {
  const lacks = (key: keyof Capabilities) => requested[key] === true && !(area?.capabilities[key] ?? false);
  // Pickup point delivery also needs a pickup point carrier serving the area.
  const pickup = requested.pickupPoint === true && !(area?.capabilities.pickupPoint && area.pickupCarriers.length > 0);
  return { signature: lacks('signature'), notAtNeighbour: lacks('notAtNeighbour'), pickupPoint: pickup };
}

/** The verdict for a postal code that was found (or not) in the location's coverage. */
export function judge(location: Location, countryCode: string, postalCode: string, located: boolean, requested: Requested, notFoundReason: string): Verdict {
  const area = located ? findArea(location, countryCode, postalCode) : undefined;
  const refuse = (reason: string): Verdict => ({ deliverable: false, reason, missingCapabilities: missing(requested, area), area });
  if (!located) return refuse(notFoundReason);
  if (!area) return refuse(deliveryReasons.outOfArea);
  const d = requested.dimensions;
  if (d && (d.length > parcelCeilings.lengthMm || d.width > parcelCeilings.widthMm || d.height > parcelCeilings.heightMm)) {
    return refuse(deliveryReasons.dimensionsExceeded);
  }
  if (requested.weight !== undefined && requested.weight > parcelCeilings.weightG) return refuse(deliveryReasons.weightExceeded);
  const lacking = missing(requested, area);
  if (lacking.signature || lacking.notAtNeighbour || lacking.pickupPoint) return refuse(deliveryReasons.capabilityUnavailable);
  return { deliverable: true, area };
}

export function judgeAddress(location: Location, resolution: AddressResolution, requested: Requested): Verdict {
  const { resolvedAddress } = resolution;
  return judge(location, resolvedAddress.countryCode, resolvedAddress.postalCode, resolution.located, requested, deliveryReasons.addressNotFound);
}

/** The coverage list of a location: entries per country, countries without coverage omitted. */
export function coverageOf(location: Location): Record<string, string[]> {
  const coverage: Record<string, string[]> = {};
  for (const area of location.areas) {
    if (area.entries.length === 0) continue;
    const list = (coverage[area.countryCode] ??= []);
    for (const entry of area.entries) if (!list.includes(entry)) list.push(entry);
  }
  return coverage;
}
