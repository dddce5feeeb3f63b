/**
 * The weight this station sent when it created an order (from the shop's export, the spreadsheet
 * upload or the scale at the bench). The service tells an order's weight only in its webhooks,
 * which may not have come by the time the day is closed; the handover list falls back on this.
 */
import { z } from 'zod';
import type { Environment } from '../../shared/contract/app';
import type { StoreEngine } from '../store';

const WeightRowSchema = z.object({ orderId: z.string(), weightGrams: z.coerce.number().int() });

/** Orders per read: a handover's orders, a few hundred at most, stay far below both engines' limits. */
const chunkSize = 500;

export interface CreatedWeights {
  /** Kept once the order exists at the service; a weight that is not a positive number is not kept. */
  record(environment: Environment, orderId: string, grams: number | null | undefined): Promise<void>;
  /** The weights the station created these orders with, by order id (orders created elsewhere are absent). */
  of(environment: Environment, orderIds: readonly string[]): Promise<Map<string, number>>;
}

export function createCreatedWeights(engine: StoreEngine, clock: () => Date = () => new Date()): CreatedWeights {
  return {
    async record(environment, orderId, grams) {
      if (typeof grams !== 'number' || !Number.isFinite(grams) || Math.round(grams) <= 0) return;
      await engine.execute(
        `INSERT INTO created_weights (environment, order_id, weight_grams, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (environment, order_id) DO UPDATE SET weight_grams = excluded.weight_grams`,
        [environment, orderId, Math.round(grams), clock().toISOString()],
      );
    },
    async of(environment, orderIds) {
      const weights = new Map<string, number>();
      const ids = [...new Set(orderIds)];
      for (let start = 0; start < ids.length; start += chunkSize) {
        const chunk = ids.slice(start, start + chunkSize);
        const list = chunk.map((_, index) => `$${index + 2}`).join(', ');
        const rows = await engine.query(`SELECT order_id AS "orderId", weight_grams AS "weightGrams" FROM created_weights WHERE environment = $1 AND order_id IN (${list})`, [
          environment,
          ...chunk,
        ]);
        for (const row of rows) {
          const { orderId, weightGrams } = WeightRowSchema.parse(row);
          weights.set(orderId, weightGrams);
        }
      }
      return weights;
    },
  };
}
