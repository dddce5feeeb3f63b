/** How an order looks on the wire: the order record and the webhook payload of the spec. */
import type { OrderStatus, WebhookPayload } from '../../shared/api/schemas';
import { localIso } from './dates';
import type { Order } from './types';

export interface OrderRecordView {
  id: number;
  orderId: string;
  orderRef: string;
  status: OrderStatus;
  name: string;
  barcode: string;
  pudoId?: string;
  trackingUrl: string;
  deliveryName: string;
  deliveryEmail: string;
  deliveryAddress: string;
  deliveryEta: string;
  deliveryEtaDate: string;
  deliveryDate: string;
  locationId: number;
  createdAt: string;
  updatedAt: string;
  orderBundle: { id: number; bundleId: string };
}

export function orderRecord(order: Order): OrderRecordView {
  const record: OrderRecordView = {
    id: order.id,
    orderId: order.orderId,
    orderRef: order.orderRef,
    status: order.status,
    name: order.name,
    barcode: order.barcode,
    trackingUrl: order.trackingUrl,
    deliveryName: order.deliveryName,
    deliveryEmail: order.deliveryEmail,
    deliveryAddress: order.addressLine,
    deliveryEta: order.deliveryEta,
    deliveryEtaDate: order.deliveryEtaDate,
    deliveryDate: order.deliveryDate,
    locationId: order.locationId,
    createdAt: new Date(order.createdAt).toISOString(),
    updatedAt: new Date(order.updatedAt).toISOString(),
    orderBundle: { ...order.bundle },
  };
  // pudoId is present only when there is one (spec).
  if (order.pudoId) record.pudoId = order.pudoId;
  return record;
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
const orNull = (text: string | undefined) => (text === undefined || text === '' ? null : text);

/** The fixed webhook payload: exactly the spec's fields, in the spec's order. */
export function webhookPayload(order: Order, previousStatus: OrderStatus | null): WebhookPayload {
  const etaStart = order.deliveryEta.split(' - ')[0] ?? '00:00';
  return {
    id: order.id,
    orderId: order.orderId,
    orderRef: order.orderRef,
    status: order.status,
    previousStatus,
    attempt: order.attempt,
    barcode: order.barcode,
    name: orNull(order.name),
    weight: order.weight ?? null,
    length: order.dimensions?.length ?? null,
    width: order.dimensions?.width ?? null,
    height: order.dimensions?.height ?? null,
    isBusiness: order.isBusiness,
    mailbox: order.mailbox,
    locationId: order.locationId,
    orderBundle: { ...order.bundle },
    deliveryName: orNull(order.deliveryName),
    deliveryEmail: orNull(order.deliveryEmail),
    deliveryPhone: orNull(order.deliveryPhone),
    deliveryAddress: order.addressLine,
    deliveryAddressObject: { ...order.address },
    deliveryNote: orNull(order.deliveryNote),
    deliveryDate: localIso(order.deliveryDate),
    deliveryEta: localIso(order.deliveryEtaDate, etaStart),
    trackingUrl: order.trackingUrl,
    createdAt: new Date(order.createdAt).toISOString(),
    updatedAt: new Date(order.updatedAt).toISOString(),
    sortedAt: iso(order.sortedAt),
    completedAt: iso(order.completedAt),
    signee: orNull(order.signee),
    signatureImage: order.signee ? signatureImage : null,
    riderNote: orNull(order.riderNote),
    pods: order.status === 'completed' ? [`${order.trackingUrl}/pod/1.jpg`] : [],
    neighbourAddress: orNull(order.neighbourAddress),
  };
}

// A 1×1 transparent PNG: the sandbox has no real signature pad.
const signatureImage = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
