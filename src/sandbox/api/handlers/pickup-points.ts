/** GET /pickup-points — not scoped to the caller: the same address gives everyone the same points. */
import { PickupPointSearchSchema } from '../../../shared/api/schemas';
import { validate } from '../../http/validation';
import type { ApiAnswer, ApiContext } from '../context';

const numeric = /^-?\d+(\.\d+)?$/;
const textParams = ['countryCode', 'postalCode', 'city', 'street', 'state'] as const;
const numberParams = ['lat', 'lng', 'maxResults', 'maxDistanceKm'] as const;

/** Query strings to typed values; a value that is not a number stays a string so validation names it. */
export function pickupQuery(query: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of textParams) {
    const value = query.get(name);
    if (value !== null) out[name] = value;
  }
  for (const name of numberParams) {
    const value = query.get(name);
    if (value !== null) out[name] = numeric.test(value.trim()) ? Number(value) : value;
  }
  const types = query.getAll('types');
  if (types.length > 0) out.types = types;
  return out;
}

export function searchPickupPoints(ctx: ApiContext): ApiAnswer {
  const search = validate(PickupPointSearchSchema, pickupQuery(ctx.query));
  return { status: 200, body: ctx.world.directory.search(search) };
}
