/**
 * The supervisor's side of the bench: cancelling (voiding) an order through the service, the
 * "pull this parcel" notices a late webhook raises, an order's status timeline, and the day's
 * handover list for the courier's driver.
 */
import { z } from 'zod';
import { OrderStatusSchema } from '../api/schemas';
import { EnvironmentSchema } from './app';
import { defineCall, defineEvent } from './define';
import { IndexedOrderSchema } from './orders';

const required = (field: string) => z.string().trim().min(1, `${field} is required`).max(500);

/** Who cancels and why, kept with the order and its labels. In live, `confirm` must be the word LIVE. */
const CancelRequestSchema = z
  .object({
    scan: z.string().min(1).max(4096),
    reason: required('reason'),
    operator: required('operator'),
    confirm: z.string().max(20).optional(),
  })
  .strict();

export const CancelOutcomeSchema = z.object({
  orderId: z.string(),
  orderRef: z.string().nullable(),
  /** cancelled: the service cancelled it now; already: it was cancelled from this station before; refused: the service did not cancel it. */
  outcome: z.enum(['cancelled', 'already', 'refused']),
  /** The order's last known status after the attempt. */
  status: OrderStatusSchema.nullable(),
  /** For a refusal, the service's own words. */
  message: z.string().nullable(),
  /** How many of the order's labels in the journal are now marked voided. */
  labelsVoided: z.number().int().nonnegative(),
});
export type CancelOutcomeData = z.infer<typeof CancelOutcomeSchema>;

export const pullStatuses = ['cancelled', 'rejected', 'address_not_found', 'error'] as const;

export const PullNoticeSchema = z.object({
  id: z.number().int(),
  environment: EnvironmentSchema,
  orderId: z.string(),
  orderRef: z.string().nullable(),
  barcode: z.string().nullable(),
  status: z.enum(pullStatuses),
  /** The station (bench) that printed the label. */
  bench: z.string(),
  printedAt: z.string().nullable(),
  /** When the service says the order entered the status. */
  statusAt: z.string(),
  raisedAt: z.string(),
  /** What the packer or lead should do, in English (the screen shows its own translation by status). */
  action: z.string(),
  acknowledged: z.object({ by: z.string(), at: z.string() }).nullable(),
});
export type PullNoticeData = z.infer<typeof PullNoticeSchema>;

export const TimelineEntrySchema = z.object({
  status: OrderStatusSchema,
  previousStatus: OrderStatusSchema.nullable(),
  attempt: z.number().int().nullable(),
  /** The service's time of the change. */
  at: z.string(),
  receivedAt: z.string(),
  /** What the station made of it: applied, same, ignored-backward (arrived out of order), ignored-terminal. */
  outcome: z.string(),
});

export const OrderWhereaboutsSchema = z.object({
  order: IndexedOrderSchema,
  /** Oldest first, by the service's time (webhooks may arrive out of order). */
  timeline: z.array(TimelineEntrySchema),
  trackingUrl: z.string().nullable(),
  /** here: this station has a label that may have printed; elsewhere: the service says expected (label printed) but not here; not-yet: neither. */
  printed: z.enum(['here', 'elsewhere', 'not-yet']),
  printedAt: z.string().nullable(),
  notices: z.array(PullNoticeSchema),
  /** The order's labels in this station's journal, newest first, with their void marks. */
  labels: z.array(
    z.object({
      id: z.number().int(),
      state: z.string(),
      printerId: z.string(),
      operator: z.string(),
      queuedAt: z.string(),
      printedAt: z.string().nullable(),
      voidedAt: z.string().nullable(),
      voidedBy: z.string().nullable(),
      voidReason: z.string().nullable(),
    }),
  ),
});
export type OrderWhereaboutsData = z.infer<typeof OrderWhereaboutsSchema>;

export const HandoverParcelSchema = z.object({
  orderId: z.string(),
  orderRef: z.string().nullable(),
  barcode: z.string().nullable(),
  bundleId: z.string().nullable(),
  weightGrams: z.number().nullable(),
  printedAt: z.string(),
  locationId: z.number().nullable(),
  /** The printer may have put its label out twice (a fault cut it short; ^JZ reprinted it): check the parcel carries one. */
  secondCopy: z.enum(['certain', 'possible']).nullable().default(null),
});

export const HandoverSchema = z.object({
  day: z.string(),
  environment: EnvironmentSchema,
  bench: z.string(),
  location: z.number().nullable(),
  bundles: z.array(z.object({ bundleId: z.string().nullable(), parcels: z.array(HandoverParcelSchema), weightGrams: z.number().nullable() })),
  parcels: z.number().int(),
  weightGrams: z.number().nullable(),
  /** Printed today but voided or to be pulled: not for the driver. */
  setApart: z.array(HandoverParcelSchema.extend({ kind: z.enum(['voided', 'pull', 'closed']), why: z.string() })),
  /** Parcels with an open pull-this-parcel notice among them: the day summary's line. */
  toPull: z.number().int(),
  /** Parcels of the day whose label the printer put out twice, or may have (a fault cut it short and it was printed again). */
  secondCopies: z.object({ certain: z.number().int(), possible: z.number().int() }).default({ certain: 0, possible: 0 }),
  /** The PDF kept in the data folder. */
  pdfPath: z.string().nullable(),
  /** Where it was printed, when asked. */
  printed: z.object({ printer: z.string(), format: z.enum(['zpl', 'pdf']), bytes: z.number().int() }).nullable().optional(),
});
export type HandoverData = z.infer<typeof HandoverSchema>;

export const supervisionCalls = {
  /**
   * Has the service cancel the scanned order (PATCH /orders/cancel/{orderId}) and, once it has,
   * marks the order cancelled and its labels voided. Errors: CANCEL_REFUSED (the service's words;
   * details carry `status: <last known>`), CONFIRMATION_REQUIRED (live without `confirm: "LIVE"`),
   * the lookup's scan errors.
   */
  'supervision.cancel': defineCall(CancelRequestSchema, CancelOutcomeSchema),
  /** Cancels every order of the scanned order's bundle (or of `scan` as a bundle id), one by one: each order's result. */
  'supervision.cancelBundle': defineCall(CancelRequestSchema, z.object({ bundleId: z.string(), results: z.array(CancelOutcomeSchema) })),
  /** Pull-this-parcel notices of the current environment, newest first; open ones only unless asked. */
  'supervision.notices': defineCall(
    z.object({ includeAcknowledged: z.boolean().default(false), limit: z.number().int().min(1).max(500).default(100) }).strict(),
    z.array(PullNoticeSchema),
  ),
  'supervision.acknowledge': defineCall(z.object({ id: z.number().int().min(1), by: required('by') }).strict(), PullNoticeSchema),
  /** Where the scanned order is: its status timeline, tracking link, and whether its label printed here. */
  'supervision.whereabouts': defineCall(z.object({ scan: z.string().min(1).max(4096) }).strict(), OrderWhereaboutsSchema),
  /** The day's handover list (and its PDF, kept in the data folder). `day` defaults to today, local time. */
  'supervision.dayClose': defineCall(
    z
      .object({
        day: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is YYYY-MM-DD')
          .optional(),
        location: z.number().int().optional(),
        pdf: z.boolean().default(true),
        /** Also print it: on a PDF printer as the A4 PDF, on a Zebra as long labels. A printer id or name. */
        printer: z.string().min(1).max(200).optional(),
      })
      .strict(),
    HandoverSchema,
  ),
};

export const supervisionEvents = {
  /** A webhook closed an order whose label this station printed: pull the parcel. */
  'supervision.notice': defineEvent(PullNoticeSchema),
};
