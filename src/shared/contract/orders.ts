import { z } from 'zod';
import { OrderStatusSchema } from '../api/schemas';
import { EnvironmentSchema } from './app';
import { defineCall } from './define';

export const IndexedOrderSchema = z.object({
  environment: EnvironmentSchema,
  orderId: z.string(),
  orderRef: z.string().nullable(),
  barcode: z.string().nullable(),
  bundleId: z.string().nullable(),
  recipient: z.string().nullable(),
  /** The last status the station heard of; null when it never heard one. */
  status: OrderStatusSchema.nullable(),
  statusUpdatedAt: z.string().nullable(),
  /** How the station first learnt of the order. */
  source: z.enum(['created', 'import', 'webhook', 'lookup', 'api']),
});
export type IndexedOrderData = z.infer<typeof IndexedOrderSchema>;

export const PrintabilitySchema = z.object({
  allowed: z.boolean(),
  /** Why not, in words for the packer; null when printing may go ahead. */
  message: z.string().nullable(),
});

export const OrderLookupResultSchema = z.object({
  order: IndexedOrderSchema,
  /** What the scan matched: fields of the indexed order, or 'service' when the Delivery API confirmed it as an order id. */
  matchedBy: z.array(z.enum(['orderRef', 'barcode', 'orderId', 'service'])).min(1),
  printable: PrintabilitySchema,
});
export type OrderLookupResult = z.infer<typeof OrderLookupResultSchema>;

export const ordersCalls = {
  /**
   * Resolves a scan (order ref, parcel barcode or order id) in the current environment. Errors:
   * SCAN_INVALID, SCAN_AMBIGUOUS (details list the candidates), ORDER_NOT_FOUND, and the API's
   * codes when the direct try could not be made.
   */
  'orders.lookup': defineCall(
    z.object({ scan: z.string().max(4096), remote: z.boolean().optional() }).strict(),
    OrderLookupResultSchema,
  ),
  /** How many orders the index holds for the current environment. */
  'orders.count': defineCall(z.object({}).strict(), z.object({ environment: EnvironmentSchema, orders: z.number().int().nonnegative() })),
};
