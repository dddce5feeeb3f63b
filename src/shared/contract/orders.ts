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
  /** Who had the service cancel the order from this station, when and why; absent or null otherwise. */
  voided: z.object({ at: z.string(), by: z.string(), reason: z.string() }).nullable().optional(),
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

export const BundleSummarySchema = z.object({
  bundleId: z.string(),
  /** Orders (one label each) of the bundle the index knows. */
  parcels: z.number().int().nonnegative(),
  /** How many of those orders have a printed label in the journal. */
  printed: z.number().int().nonnegative(),
  orderRefs: z.array(z.string()),
  /** Orders cancelled or otherwise finished at the service with no label printed: not to print, shown apart. */
  leftOut: z.number().int().nonnegative().optional(),
});
export type BundleSummaryData = z.infer<typeof BundleSummarySchema>;

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
  /**
   * Orders of the current environment to try a first scan with: drafts (a scan prints them at
   * once) with no label of them printed yet. The latest learnt first.
   */
  'orders.samples': defineCall(
    z.object({ limit: z.number().int().min(1).max(20).optional() }).strict(),
    z.object({ orders: z.array(IndexedOrderSchema) }),
  ),
  /**
   * The day's bundles from the order index of the current environment (see docs/core.md for which
   * orders belong to a day), with their parcel counts and how many of their labels are printed.
   * `day` defaults to today (local time); `unprintedOnly` (default true) leaves out bundles whose
   * every label is printed.
   */
  'orders.bundles': defineCall(
    z
      .object({
        day: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is YYYY-MM-DD')
          .optional(),
        unprintedOnly: z.boolean().optional(),
      })
      .strict(),
    z.object({ bundles: z.array(BundleSummarySchema) }),
  ),
};
