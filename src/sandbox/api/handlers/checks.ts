/** POST /orders/check/{locationId} and POST /orders/check/postal-code/{locationId}. */
import { AddressCheckRequestSchema, PostalCodeCheckRequestSchema } from '../../../shared/api/schemas';
import { validate } from '../../http/validation';
import { deliveryReasons, judge, judgeAddress } from '../../world/deliverability';
import { authorizeLocation, type ApiAnswer, type ApiContext } from '../context';

export function checkAddress(ctx: ApiContext): ApiAnswer {
  const location = authorizeLocation(ctx, ctx.params.locationId!);
  const request = validate(AddressCheckRequestSchema, ctx.body);
  const resolution = ctx.world.geocoder.resolveAddress(request.deliveryAddress);
  const verdict = judgeAddress(location, resolution, request);
  if (verdict.deliverable) return { status: 200, body: { deliverable: true, resolvedAddress: resolution.resolvedAddress } };
  return {
    status: 200,
    body: { deliverable: false, resolvedAddress: resolution.resolvedAddress, reason: verdict.reason, missingCapabilities: verdict.missingCapabilities },
  };
}

export function checkPostalCode(ctx: ApiContext): ApiAnswer {
  const location = authorizeLocation(ctx, ctx.params.locationId!);
  const request = validate(PostalCodeCheckRequestSchema, ctx.body);
  const country = request.countryCode.toUpperCase();
  const located = ctx.world.geocoder.locatePostalCode(country, request.postalCode) !== undefined;
  const verdict = judge(location, country, request.postalCode, located, request, deliveryReasons.postalCodeNotFound);
  if (verdict.deliverable) return { status: 200, body: { deliverable: true } };
  const { signature, notAtNeighbour } = verdict.missingCapabilities;
  return { status: 200, body: { deliverable: false, reason: verdict.reason, missingCapabilities: { signature, notAtNeighbour } } };
}
