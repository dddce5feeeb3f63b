/** The public tracking page a trackingUrl points to: plain HTML, throttled per client address. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendRaw } from '../http/respond';
import type { World } from '../world/world';
import { environmentNames } from '../world/types';
import type { RateLimiter } from './rate-limit';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function serveTracking(req: IncomingMessage, res: ServerResponse, world: World, limiter: RateLimiter, segment: string, now: number): void {
  const barcode = decode(segment);
  const decision = limiter.take(req.socket.remoteAddress ?? 'unknown', now);
  const html = (status: number, title: string, text: string, headers: Record<string, string> = {}) =>
    sendRaw(res, status, Buffer.from(`<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></html>`), headers, 'text/html; charset=utf-8');
  if (!decision.allowed) return html(429, 'Too many requests', 'Please wait a moment before refreshing.', { 'retry-after': String(decision.retryAfterSeconds) });
  if (req.method !== 'GET') return html(405, 'Method not allowed', 'Tracking pages can only be read.', { allow: 'GET' });
  for (const name of environmentNames) {
    for (const order of world.env(name).orders.values()) {
      if (barcode !== undefined && order.barcode === barcode) {
        return html(200, `Parcel ${order.barcode}`, `Status: ${order.status.replace(/_/g, ' ')}. Expected ${order.deliveryEtaDate}, ${order.deliveryEta}.`);
      }
    }
  }
  return html(404, 'Parcel not found', 'Check the tracking code and try again.');
}
