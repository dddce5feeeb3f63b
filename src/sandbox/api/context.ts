/** What a public API handler gets, and the scoping rules every handler applies (403 / 404). */
import type { IncomingMessage } from 'node:http';
import type { LabelDocuments } from '../label-documents';
import { HttpError } from '../http/errors';
import type { Settings } from '../settings';
import type { ApiKeyRecord, Bundle, EnvironmentState, Location, Order } from '../world/types';
import type { World } from '../world/world';

export interface ApiContext {
  world: World;
  env: EnvironmentState;
  key: ApiKeyRecord;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  settings: Settings;
  labels: LabelDocuments;
  now: number;
  req: IncomingMessage;
}

export interface ApiAnswer {
  status: number;
  body?: unknown;
  /** A body already serialised (cached label documents). */
  raw?: Buffer;
  headers?: Record<string, string>;
}

/** The location, if the key may act on it: unknown and foreign locations alike are 403. */
export function authorizeLocation(ctx: ApiContext, locationId: string): Location {
  if (!/^\d{1,12}$/.test(locationId)) throw new HttpError(400, ['locationId must be a numeric string']);
  const location = ctx.env.locations.get(Number(locationId));
  if (!location || !ctx.key.companyIds.includes(location.companyId)) {
    throw new HttpError(403, `This API key is not allowed to act on location ${locationId}`);
  }
  return location;
}

/** The order, if it exists in this environment (404) and belongs to the key's companies (403). */
export function authorizeOrder(ctx: ApiContext, orderId: string): Order {
  const order = ctx.env.orders.get(orderId);
  if (!order) throw new HttpError(404, `Order ${orderId} not found`);
  if (!ctx.key.companyIds.includes(order.companyId)) throw new HttpError(403, `This API key is not allowed to act on order ${orderId}`);
  return order;
}

export function authorizeBundle(ctx: ApiContext, bundleId: string): Bundle {
  const bundle = ctx.env.bundles.get(bundleId);
  if (!bundle) throw new HttpError(404, `Bundle ${bundleId} not found`);
  if (!ctx.key.companyIds.includes(bundle.companyId)) throw new HttpError(403, `This API key is not allowed to act on bundle ${bundleId}`);
  return bundle;
}
