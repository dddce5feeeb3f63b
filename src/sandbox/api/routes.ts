/** The spec's endpoints, and nothing else: any other method or path is a 401 (spec: Authentication 4). */
import type { ApiAnswer, ApiContext } from './context';
import { cancelOrder } from './handlers/cancel';
import { checkAddress, checkPostalCode } from './handlers/checks';
import { coverage } from './handlers/coverage';
import { createOrder } from './handlers/create-order';
import { bundleLabel, orderLabel } from './handlers/labels';
import { searchPickupPoints } from './handlers/pickup-points';

export interface Route {
  method: 'GET' | 'POST' | 'PATCH';
  /** Literal segments, and `:name` for a path parameter. */
  segments: string[];
  /** Whether the request body is read and parsed as JSON. */
  body: boolean;
  handle(ctx: ApiContext): ApiAnswer | Promise<ApiAnswer>;
}

const route = (method: Route['method'], path: string, handle: Route['handle'], body = false): Route => ({
  method,
  segments: path.split('/').filter(Boolean),
  body,
  handle,
});

export const routes: readonly Route[] = [
  route('POST', '/orders/check/postal-code/:locationId', checkPostalCode, true),
  route('POST', '/orders/check/:locationId', checkAddress, true),
  route('GET', '/coverage/postal-codes/:locationId', coverage),
  route('GET', '/pickup-points', searchPickupPoints),
  route('POST', '/orders', createOrder, true),
  route('GET', '/orders/label/bundle/:orderBundleId', bundleLabel),
  route('GET', '/orders/label/:orderId', orderLabel),
  route('PATCH', '/orders/cancel/:orderId', cancelOrder),
];

/** The route and its decoded parameters, or undefined (unknown endpoint, empty or undecodable segment). */
export function matchRoute(method: string, segments: readonly string[]): { route: Route; params: Record<string, string> } | undefined {
  for (const candidate of routes) {
    if (candidate.method !== method || candidate.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let i = 0; i < segments.length; i++) {
      const pattern = candidate.segments[i]!;
      const actual = segments[i]!;
      if (pattern.startsWith(':')) {
        if (actual === '') {
          matched = false;
          break;
        }
        try {
          params[pattern.slice(1)] = decodeURIComponent(actual);
        } catch {
          matched = false;
          break;
        }
      } else if (pattern !== actual) {
        matched = false;
        break;
      }
    }
    if (matched) return { route: candidate, params };
  }
  return undefined;
}
