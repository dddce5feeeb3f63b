/** POST /orders: validation, deliverability, the pudoId rule (406) and bundles. */
import { z } from 'zod';
import { CreateOrderRequestSchema, pickupPointRejectedMessage } from '../../../shared/api/schemas';
import { normalisePostalCode } from '../../geo/postal-codes';
import { HttpError, badRequest } from '../../http/errors';
import { validate } from '../../http/validation';
import { homeCarrier } from '../../world/carriers';
import { judgeAddress } from '../../world/deliverability';
import { addOrder, createBundle } from '../../world/orders';
import type { Bundle } from '../../world/types';
import { orderRecord } from '../../world/views';
import { authorizeLocation, type ApiAnswer, type ApiContext } from '../context';

/** Orders per bundle (the spec shows no ceiling; documented in docs/sandbox.md). */
export const maxBundleSize = 100;

/** The spec's known fields plus the spreadsheet columns a real service accepts on create. */
export const SandboxCreateOrderSchema = CreateOrderRequestSchema.extend({
  deliveryEmail: z.union([z.literal(''), z.email('deliveryEmail must be an email')]).optional(),
  deliveryNote: z.string().max(500).optional(),
  description: z.string().max(500).optional(),
  pickupNote: z.string().max(500).optional(),
  isBusiness: z.boolean().optional(),
}).refine((order) => /^\d{1,12}$/.test(order.locationId.trim()), { message: 'locationId must be a numeric string', path: ['locationId'] });

export function createOrder(ctx: ApiContext): ApiAnswer {
  const request = validate(SandboxCreateOrderSchema, ctx.body);
  const location = authorizeLocation(ctx, request.locationId.trim());
  const company = ctx.env.companies.get(location.companyId)!;
  const resolution = ctx.world.geocoder.resolveAddress(request.deliveryAddress);

  let bundle: Bundle | undefined;
  if (request.orderBundleId !== undefined) {
    bundle = ctx.env.bundles.get(request.orderBundleId);
    if (!bundle) throw badRequest([`orderBundleId ${request.orderBundleId} does not match an existing bundle`]);
    if (!ctx.key.companyIds.includes(bundle.companyId)) throw new HttpError(403, `This API key is not allowed to act on bundle ${request.orderBundleId}`);
    if (bundle.locationId !== location.id) throw badRequest([`orderBundleId ${request.orderBundleId} belongs to location ${bundle.locationId}, not ${location.id}`]);
    if (bundle.orderIds.length >= maxBundleSize) throw badRequest([`bundle ${request.orderBundleId} already holds ${maxBundleSize} orders, the most a bundle may hold`]);
  }

  const requested = { dimensions: request.dimensions, weight: request.weight, signature: request.signature, notAtNeighbour: request.notAtNeighbour };
  let carrier = homeCarrier(resolution.resolvedAddress.countryCode);
  if (request.pudoId !== undefined) {
    const point = ctx.world.directory.byPudoId(request.pudoId);
    if (!point) throw badRequest([`pudoId ${request.pudoId} does not match a known pickup point`]);
    // Rule 2: the address must lie in an area served by the point's carrier with pickup point delivery on.
    const verdict = judgeAddress(location, resolution, {});
    const area = verdict.area;
    if (!verdict.deliverable || !area || !area.capabilities.pickupPoint || !area.pickupCarriers.includes(point.carrier)) {
      throw new HttpError(406, pickupPointRejectedMessage);
    }
    carrier = point.carrier;
  }
  const verdict = judgeAddress(location, resolution, requested);
  if (!verdict.deliverable) {
    const missing = Object.entries(verdict.missingCapabilities)
      .filter(([, lacking]) => lacking)
      .map(([name]) => name);
    const detail = missing.length > 0 ? ` (${missing.join(', ')})` : '';
    throw badRequest([`deliveryAddress is not deliverable from location ${location.id}: ${verdict.reason}${detail}`]);
  }

  const now = ctx.now;
  bundle ??= createBundle(ctx.env, company, location, now);
  const resolved = resolution.resolvedAddress;
  const order = addOrder(ctx.env, {
    company,
    location,
    bundle,
    orderRef: request.orderRef ?? '',
    name: request.name ?? request.description ?? request.orderRef ?? '',
    deliveryName: request.deliveryName.trim(),
    deliveryEmail: request.deliveryEmail ?? '',
    deliveryPhone: request.deliveryPhone ?? '',
    deliveryNote: request.deliveryNote ?? '',
    address: {
      street: resolved.street,
      houseNumber: resolved.houseNumber,
      suffix: resolved.suffix,
      postalCode: normalisePostalCode(resolved.postalCode),
      city: resolved.city,
      countryCode: resolved.countryCode,
    },
    pudoId: request.pudoId,
    carrier,
    isBusiness: request.isBusiness ?? false,
    mailbox: false,
    dimensions: request.dimensions,
    weight: request.weight,
    signature: request.signature ?? false,
    notAtNeighbour: request.notAtNeighbour ?? false,
    deliveryDate: request.deliveryDate,
    createdAt: now,
    labelReadyAt: now + ctx.settings.faults.labelDelayMs,
    seeded: false,
    trackingBase: ctx.world.trackingBase,
  });
  ctx.world.announceCreated(ctx.env, order);
  return { status: 201, body: orderRecord(order) };
}
