import { z } from 'zod';
import { OrderStatusSchema } from '../api/schemas';
import { EnvironmentSchema } from './app';
import { defineCall, defineEvent } from './define';

export const WebhookReceiverStatusSchema = z.object({
  running: z.boolean(),
  /** Whether it should run: remembered across restarts, off until switched on. */
  enabled: z.boolean(),
  host: z.string(),
  port: z.number().int(),
  /** The path per environment to register with the service operator (it holds that environment's secret). */
  paths: z.array(z.object({ environment: EnvironmentSchema, path: z.string() })),
  requests: z.object({ accepted: z.number().int(), rejected: z.number().int() }),
  events: z.object({
    queued: z.number().int(),
    duplicates: z.number().int(),
    applied: z.number().int(),
    same: z.number().int(),
    ignoredBackward: z.number().int(),
    ignoredTerminal: z.number().int(),
    failed: z.number().int(),
    waiting: z.number().int(),
    /** Events recorded for a lead (webhooks.conflicts): identifiers that would change, contradicted statuses, webhook cancellations. */
    conflicts: z.number().int().optional(),
    /** Events refused because they were dated in the future beyond the allowed clock skew. */
    future: z.number().int().optional(),
  }),
  lastEventAt: z.string().nullable(),
  /** English for logs and the CLI; the screen words `problemCode` with the host and port. */
  problem: z.string().nullable(),
  /** Why the receiver does not listen: the port is taken, or it could not listen for another reason. */
  problemCode: z.enum(['port-in-use', 'cannot-listen']).nullable().optional(),
});

/**
 * Why a webhook event was set before a lead:
 * - identifier: it would change an identifier the station already knows (a barcode, a ref, a
 *   bundle), or claims another order's; not applied, so a scan never resolves to another order;
 * - status: it contradicts a terminal status (cancelled, then a later first scan); not applied;
 * - future: dated in the future beyond the allowed clock skew; refused;
 * - terminal: it closed an order that had not left the station (cancelled while draft or
 *   expected); applied, and listed so a forged cancellation cannot block an order unseen.
 */
export const webhookConflictKinds = ['identifier', 'status', 'future', 'terminal'] as const;

const KnownOrderSchema = z.object({
  orderRef: z.string().nullable(),
  barcode: z.string().nullable(),
  bundleId: z.string().nullable(),
  status: OrderStatusSchema.nullable(),
  statusUpdatedAt: z.string().nullable(),
});

export const WebhookConflictSchema = z.object({
  id: z.number().int(),
  environment: EnvironmentSchema,
  orderId: z.string(),
  kind: z.enum(webhookConflictKinds),
  /** What the station knew of the order when the event came; null when it did not know the order. */
  known: KnownOrderSchema.nullable(),
  /** What the event said. */
  claimed: z.object({
    orderRef: z.string().nullable(),
    barcode: z.string().nullable(),
    bundleId: z.string().nullable(),
    status: OrderStatusSchema,
    previousStatus: OrderStatusSchema.nullable(),
    updatedAt: z.string(),
  }),
  /** Whether the event changed the order (only `terminal` ones do). */
  applied: z.boolean(),
  message: z.string(),
  receivedAt: z.string(),
  settled: z.object({ decision: z.enum(['confirm', 'reverse']), by: z.string(), at: z.string() }).nullable(),
});
export type WebhookConflictData = z.infer<typeof WebhookConflictSchema>;

export const webhooksCalls = {
  'webhooks.status': defineCall(z.object({}).strict(), WebhookReceiverStatusSchema),
  /** Starts the receiver (port and address from settings) and keeps it on across restarts. */
  'webhooks.start': defineCall(z.object({}).strict(), WebhookReceiverStatusSchema),
  'webhooks.stop': defineCall(z.object({}).strict(), WebhookReceiverStatusSchema),
  /** Webhook events set before a lead in the current environment, newest first (unsettled only unless asked). */
  'webhooks.conflicts': defineCall(
    z.object({ limit: z.number().int().min(1).max(500).default(100), includeSettled: z.boolean().default(false) }).strict(),
    z.array(WebhookConflictSchema),
  ),
  /**
   * A lead's decision on one conflict: `confirm` keeps what the station did (the event stays
   * unapplied, or a webhook cancellation stands); `reverse` does the opposite (applies the event's
   * identifiers or status, or puts the order back to what it was before the cancellation).
   */
  'webhooks.settle': defineCall(z.object({ id: z.number().int().min(1), decision: z.enum(['confirm', 'reverse']) }).strict(), WebhookConflictSchema),
};

export const webhooksEvents = {
  /** A webhook event was set before a lead (see webhooks.conflicts). */
  'webhooks.conflict': defineEvent(WebhookConflictSchema),
};
