/**
 * An order's status timeline, as the service's webhooks told it: one row per status event the
 * station weighed (duplicates are dropped before, see orders/status-events.ts), with the
 * previous status, attempt and what the station made of it. Read oldest first by the service's
 * time, so events that arrived out of order still read in the order they happened. The latest
 * tracking link, weight and pickup location seen are kept for the screen and the handover list.
 */
import { z } from 'zod';
import { OrderStatusSchema } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import type { StoreEngine, StoreTransaction } from '../store';
import type { WeighedStatusEvent } from '../orders/status-events';

const TimelineRowSchema = z.object({
  status: OrderStatusSchema,
  previousStatus: OrderStatusSchema.nullable(),
  attempt: z.number().int().nullable(),
  at: z.string(),
  receivedAt: z.string(),
  outcome: z.string(),
});
export type TimelineRow = z.infer<typeof TimelineRowSchema>;

const FactsRowSchema = z.object({ trackingUrl: z.string().nullable(), weightGrams: z.number().nullable(), locationId: z.number().nullable() });
export type ParcelFacts = z.infer<typeof FactsRowSchema>;

export interface StatusTimeline {
  /** Inside the intake transaction that weighed the event; a re-delivery adds nothing (primary key, DO NOTHING). */
  record(tx: StoreTransaction, event: WeighedStatusEvent): Promise<void>;
  of(environment: Environment, orderId: string): Promise<TimelineRow[]>;
  /** The latest non-null tracking link, weight and location any event carried. */
  facts(environment: Environment, orderId: string): Promise<ParcelFacts>;
}

export function createStatusTimeline(engine: StoreEngine): StatusTimeline {
  const latest = (column: string) =>
    `(SELECT ${column} FROM order_status_timeline WHERE environment = $1 AND order_id = $2 AND ${column} IS NOT NULL ORDER BY event_updated_at DESC LIMIT 1)`;
  return {
    async record(tx, { environment, orderId, payload, decision, receivedAt }) {
      const whole = (value: number | null | undefined) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null);
      await tx.execute(
        `INSERT INTO order_status_timeline
           (environment, order_id, status, previous_status, attempt, event_updated_at, received_at, outcome, tracking_url, weight_grams, location_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (environment, order_id, status, event_updated_at) DO NOTHING`,
        [
          environment,
          orderId,
          payload.status,
          payload.previousStatus,
          whole(payload.attempt),
          payload.updatedAt,
          receivedAt,
          decision,
          typeof payload.trackingUrl === 'string' && /^https?:\/\//i.test(payload.trackingUrl) ? payload.trackingUrl.slice(0, 2000) : null,
          whole(payload.weight),
          whole(payload.locationId),
        ],
      );
    },
    async of(environment, orderId) {
      const rows = await engine.query(
        `SELECT status, previous_status AS "previousStatus", attempt, event_updated_at AS at, received_at AS "receivedAt", outcome
         FROM order_status_timeline WHERE environment = $1 AND order_id = $2 ORDER BY event_updated_at, received_at`,
        [environment, orderId],
      );
      return rows.map((row) => TimelineRowSchema.parse(row));
    },
    async facts(environment, orderId) {
      const [row] = await engine.query(`SELECT ${latest('tracking_url')} AS "trackingUrl", ${latest('weight_grams')} AS "weightGrams", ${latest('location_id')} AS "locationId"`, [
        environment,
        orderId,
      ]);
      return FactsRowSchema.parse(row);
    },
  };
}
