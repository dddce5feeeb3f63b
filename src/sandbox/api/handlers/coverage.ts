/** GET /coverage/postal-codes/{locationId} */
import { coverageOf } from '../../world/deliverability';
import { authorizeLocation, type ApiAnswer, type ApiContext } from '../context';

export function coverage(ctx: ApiContext): ApiAnswer {
  const location = authorizeLocation(ctx, ctx.params.locationId!);
  return { status: 200, body: coverageOf(location) };
}
