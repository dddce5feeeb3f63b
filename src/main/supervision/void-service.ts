/**
 * Voiding: a lead has the service cancel an order (PATCH /orders/cancel/{orderId}); only once
 * the service answers with the order cancelled does the station mark the order cancelled in the
 * index (with who, when and why) and its labels voided in the journal. A refusal or any error
 * changes nothing here and comes back with the service's words and the order's last known
 * status. In live, the call needs the word LIVE as its confirmation: a real courier's order.
 */
import { z } from 'zod';
import type { OrderRecord } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import type { CancelOutcomeData } from '../../shared/contract/supervision';
import { StationError } from '../../shared/errors';
import type { DeliveryClient } from '../api';
import type { IndexedOrder, OrderIndex } from '../orders/order-index';
import type { OrderLookup } from '../orders/order-lookup';
import type { StoreEngine } from '../store';

export interface CancelRequest {
  scan: string;
  reason: string;
  operator: string;
  confirm?: string;
}

export interface VoidService {
  /** Cancels one order; throws CANCEL_REFUSED (nothing marked) when the service does not. */
  cancel(environment: Environment, request: CancelRequest): Promise<CancelOutcomeData>;
  /** Cancels every order of a bundle, one by one; a refusal of one does not stop the others. */
  cancelBundle(environment: Environment, request: CancelRequest): Promise<{ bundleId: string; results: CancelOutcomeData[] }>;
}

export interface VoidServiceDeps {
  /** The store holding the order index and the print journal. */
  engine: StoreEngine;
  index: OrderIndex;
  lookup: OrderLookup;
  clientFor(environment: Environment): Promise<DeliveryClient>;
  clock?: () => Date;
}

export function createVoidService(deps: VoidServiceDeps): VoidService {
  const clock = deps.clock ?? (() => new Date());
  const voidLabelsSql =
    'UPDATE print_journal SET voided_at = $1, voided_by = $2, void_reason = $3, updated_at = $1 WHERE environment = $4 AND order_id = $5 AND voided_at IS NULL';
  const CountSchema = z.object({ n: z.number().int() });

  const confirmLive = (environment: Environment, request: CancelRequest) => {
    if (environment === 'live' && request.confirm !== 'LIVE') {
      throw new StationError('CONFIRMATION_REQUIRED', 'This station is on the live environment: cancelling stops a real delivery. Type LIVE to confirm.');
    }
  };

  const cancelOrder = async (environment: Environment, order: IndexedOrder, request: CancelRequest): Promise<CancelOutcomeData> => {
    const labelsVoided = async () =>
      CountSchema.parse((await deps.engine.query('SELECT count(*) AS n FROM print_journal WHERE environment = $1 AND order_id = $2 AND voided_at IS NOT NULL', [environment, order.orderId]))[0]).n;
    if (order.voided) {
      // Its labels too, should they be unvoided (voided by an older version in two steps): voiding them again changes nothing.
      await deps.engine.execute(voidLabelsSql, [order.voided.at, order.voided.by, order.voided.reason, environment, order.orderId]);
      return { orderId: order.orderId, orderRef: order.orderRef, outcome: 'already', status: order.status, message: null, labelsVoided: await labelsVoided() };
    }
    const client = await deps.clientFor(environment);
    let record: OrderRecord;
    try {
      record = await client.cancelOrder(order.orderId);
    } catch (error) {
      if (!(error instanceof StationError)) throw error;
      const serviceWords = error.details && error.details.length > 0 ? error.details.join('; ') : null;
      throw refusal(order, serviceWords ?? error.message, error.code, serviceWords);
    }
    if (record.status !== 'cancelled') {
      throw refusal(order, `the service answered that the order is ${record.status}, not cancelled`, 'VALIDATION');
    }
    const now = clock().toISOString();
    // The order and its labels in one transaction: the journal is in the same store as the index.
    await deps.index.transaction(async (tx) => {
      await deps.index.upsert(environment, { orderId: order.orderId, status: 'cancelled', previousStatus: order.status, statusUpdatedAt: stringField(record, 'updatedAt') }, 'api', tx);
      await tx.execute('UPDATE orders SET voided_at = $1, voided_by = $2, void_reason = $3 WHERE environment = $4 AND order_id = $5 AND voided_at IS NULL', [now, request.operator, request.reason, environment, order.orderId]);
      await tx.execute(voidLabelsSql, [now, request.operator, request.reason, environment, order.orderId]);
    });
    return { orderId: order.orderId, orderRef: order.orderRef, outcome: 'cancelled', status: 'cancelled', message: null, labelsVoided: await labelsVoided() };
  };

  return {
    async cancel(environment, request) {
      confirmLive(environment, request);
      const { order } = await deps.lookup.lookup(environment, request.scan);
      return cancelOrder(environment, order, request);
    },
    async cancelBundle(environment, request) {
      confirmLive(environment, request);
      const bundleId = await bundleOf(environment, request.scan);
      const results: CancelOutcomeData[] = [];
      for (const order of await deps.index.ordersInBundle(environment, bundleId)) {
        try {
          results.push(await cancelOrder(environment, order, request));
        } catch (error) {
          if (!(error instanceof StationError) || error.code !== 'CANCEL_REFUSED') throw error;
          const status = (await deps.index.get(environment, order.orderId))?.status ?? null;
          // The service's own words only (the contract's promise); the station's English stays in the log and the CLI's error.
          const serviceWords = typeof error.facts?.serviceWords === 'string' ? error.facts.serviceWords : null;
          results.push({ orderId: order.orderId, orderRef: order.orderRef, outcome: 'refused', status, message: serviceWords, labelsVoided: 0 });
        }
      }
      return { bundleId, results };
    },
  };

  async function bundleOf(environment: Environment, scan: string): Promise<string> {
    const asBundle = scan.trim();
    if ((await deps.index.ordersInBundle(environment, asBundle)).length > 0) return asBundle;
    const { order } = await deps.lookup.lookup(environment, scan);
    if (!order.bundleId) throw new StationError('INVALID_INPUT', `Order ${order.orderId} belongs to no bundle the station knows; cancel it on its own.`);
    return order.bundleId;
  }
}

/** `serviceWords`: the delivery service's own reason, when it gave one (shown quoted on the screen). */
function refusal(order: IndexedOrder, words: string, cause: string, serviceWords: string | null = null): StationError {
  const name = order.orderRef ? `${order.orderRef} (order ${order.orderId})` : `Order ${order.orderId}`;
  return new StationError('CANCEL_REFUSED', `The service did not cancel ${name}: ${words}`, [
    `status: ${order.status ?? 'unknown'}`,
    `service: ${words}`,
    `cause: ${cause}`,
  ], { facts: { orderRef: order.orderRef ?? order.orderId, orderId: order.orderId, status: order.status ?? null, serviceWords: serviceWords === null ? null : serviceWords.slice(0, 500) } });
}

function stringField(record: OrderRecord, field: string): string | null {
  const value: unknown = (record as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : null;
}
