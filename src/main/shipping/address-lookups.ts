/**
 * The read-only calls of shipping: the address check, the postal-code check, the coverage list and
 * the pickup-point search. The postal-code check is asked as a packer types, so its answers are
 * kept a few minutes; the coverage list is kept with the time it was fetched (its age is shown,
 * and it is fetched again after a while: the spec says coverage changes and is never the final
 * answer, the address check is).
 */
import type { AddressCheckResponse, Coverage, PickupPointSearchResponse, PostalCodeCheckResponse } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import type { AddressCheckInput, DeliveryClient, PickupPointSearchInput, PostalCodeCheckInput } from '../api';

export interface AddressLookupsDeps {
  clientFor(environment: Environment): Promise<DeliveryClient>;
  clock?: () => number;
  /** How long a postal-code answer is reused. Default 10 minutes. */
  postalCodeTtlMs?: number;
  /** After this a coverage list is fetched again. Default 1 hour. */
  coverageTtlMs?: number;
}

export interface CoverageAnswer {
  coverage: Coverage;
  fetchedAt: string;
  ageSeconds: number;
}

const maxCachedAnswers = 2_000;

export class AddressLookups {
  private readonly clock: () => number;
  private readonly postalCodes = new Map<string, { at: number; answer: PostalCodeCheckResponse }>();
  private readonly coverages = new Map<string, { at: number; coverage: Coverage }>();

  constructor(private readonly deps: AddressLookupsDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  async checkAddress(environment: Environment, locationId: string, request: AddressCheckInput): Promise<AddressCheckResponse> {
    return (await this.deps.clientFor(environment)).checkAddress(locationId, request);
  }

  async checkPostalCode(environment: Environment, locationId: string, request: PostalCodeCheckInput): Promise<PostalCodeCheckResponse & { cached: boolean }> {
    // Case and whitespace are ignored by the service (spec), so they are by the cache too.
    const key = JSON.stringify([environment, locationId, { ...request, postalCode: request.postalCode.replace(/\s+/g, '').toUpperCase(), countryCode: request.countryCode.toUpperCase() }]);
    const now = this.clock();
    const cached = this.postalCodes.get(key);
    if (cached && now - cached.at < (this.deps.postalCodeTtlMs ?? 600_000)) return { ...cached.answer, cached: true };
    const answer = await (await this.deps.clientFor(environment)).checkPostalCode(locationId, request);
    if (this.postalCodes.size >= maxCachedAnswers) this.postalCodes.delete(this.postalCodes.keys().next().value!);
    this.postalCodes.set(key, { at: now, answer });
    return { ...answer, cached: false };
  }

  async coverage(environment: Environment, locationId: string, options: { refresh?: boolean } = {}): Promise<CoverageAnswer> {
    const key = `${environment}/${locationId}`;
    let entry = this.coverages.get(key);
    if (!entry || options.refresh || this.clock() - entry.at >= (this.deps.coverageTtlMs ?? 3_600_000)) {
      const coverage = await (await this.deps.clientFor(environment)).coverage(locationId);
      entry = { at: this.clock(), coverage };
      this.coverages.set(key, entry);
    }
    return { coverage: entry.coverage, fetchedAt: new Date(entry.at).toISOString(), ageSeconds: Math.floor((this.clock() - entry.at) / 1000) };
  }

  async pickupPoints(environment: Environment, query: PickupPointSearchInput): Promise<PickupPointSearchResponse> {
    const answer = await (await this.deps.clientFor(environment)).searchPickupPoints(query);
    // The spec promises nearest first; sorting again costs nothing and keeps the list honest.
    return { ...answer, points: [...answer.points].sort((a, b) => (a.distanceMeters ?? 0) - (b.distanceMeters ?? 0)) };
  }
}
