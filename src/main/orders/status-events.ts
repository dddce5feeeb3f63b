/**
 * Applies order status events (from the webhook receiver) to the order index, after the HTTP
 * answer has gone: events wait in a bounded queue and are written in batches, one transaction
 * each. An event seen before (same order id and status) is dropped; a move backwards or out of a
 * terminal status is recorded but does not change the order (status-progress.ts).
 *
 * Dedupe key: the spec suggests order id + status, but that would drop a status an order really
 * enters twice (out_for_delivery again after awaiting_next_attempt). The key here adds the
 * service's updatedAt of the event, which a re-delivery repeats; a duplicate that somehow
 * carried another time still changes nothing, because the same status is 'same'.
 */
import type { WebhookPayload } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import { normalizeIdentifier } from '../../shared/scan';
import type { Logger } from '../logging/logger';
import type { StationDatabase } from '../store/database';
import type { OrderIndex } from './order-index';

export interface StatusEventCounters {
  queued: number;
  duplicates: number;
  applied: number;
  same: number;
  ignoredBackward: number;
  ignoredTerminal: number;
  failed: number;
}

export interface StatusEventProcessor {
  /** False when the queue is full: the sender should try again later. */
  enqueue(environment: Environment, payload: WebhookPayload): boolean;
  /** Resolves once every event queued so far has been written. */
  drained(): Promise<void>;
  queueLength(): number;
  counters(): StatusEventCounters;
}

export interface StatusEventProcessorDeps {
  db: StationDatabase;
  index: OrderIndex;
  logger: Logger;
  clock?: () => Date;
  maxQueue?: number;
  batchSize?: number;
}

export function createStatusEventProcessor(deps: StatusEventProcessorDeps): StatusEventProcessor {
  const clock = deps.clock ?? (() => new Date());
  const maxQueue = deps.maxQueue ?? 50_000;
  const batchSize = deps.batchSize ?? 500;
  const seen = deps.db.prepare('SELECT 1 FROM webhook_events WHERE environment = ? AND order_id = ? AND status = ? AND event_updated_at = ?').raw(true);
  const remember = deps.db.prepare(
    `INSERT INTO webhook_events (environment, order_id, status, event_updated_at, previous_status, outcome, received_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const counters: StatusEventCounters = { queued: 0, duplicates: 0, applied: 0, same: 0, ignoredBackward: 0, ignoredTerminal: 0, failed: 0 };
  let queue: { environment: Environment; payload: WebhookPayload; receivedAt: string }[] = [];
  let scheduled = false;
  let waiters: (() => void)[] = [];

  const applyOne = (environment: Environment, payload: WebhookPayload, receivedAt: string) => {
    const orderId = normalizeIdentifier(payload.orderId);
    if (orderId === null) {
      counters.failed += 1;
      deps.logger.warn('webhook event without a usable order id was dropped', { environment });
      return;
    }
    if (seen.all(environment, orderId, payload.status, payload.updatedAt).length > 0) {
      counters.duplicates += 1;
      return;
    }
    const outcome = deps.index.upsert(
      environment,
      {
        orderId,
        orderRef: payload.orderRef,
        barcode: payload.barcode,
        bundleId: payload.orderBundle?.bundleId ?? null,
        recipient: payload.deliveryName,
        status: payload.status,
        previousStatus: payload.previousStatus,
        statusUpdatedAt: payload.updatedAt,
      },
      'webhook',
    );
    const decision = outcome.status ?? 'applied';
    remember.run(environment, orderId, payload.status, payload.updatedAt, payload.previousStatus, decision, receivedAt);
    if (decision === 'applied') counters.applied += 1;
    else if (decision === 'same') counters.same += 1;
    else if (decision === 'ignored-backward') counters.ignoredBackward += 1;
    else counters.ignoredTerminal += 1;
  };

  const drain = () => {
    scheduled = false;
    const batch = queue.slice(0, batchSize);
    queue = queue.slice(batch.length);
    try {
      deps.db.transaction(() => {
        for (const event of batch) applyOne(event.environment, event.payload, event.receivedAt);
      })();
    } catch (error) {
      // One event that cannot be written must not hold up the rest: retry the batch one by one.
      deps.logger.error('webhook batch could not be written; retrying event by event', { error: describe(error), events: batch.length });
      for (const event of batch) {
        try {
          deps.db.transaction(() => applyOne(event.environment, event.payload, event.receivedAt))();
        } catch (inner) {
          counters.failed += 1;
          deps.logger.error('webhook event could not be written', { environment: event.environment, status: event.payload.status, error: describe(inner) });
        }
      }
    }
    if (queue.length > 0) schedule();
    else {
      const done = waiters;
      waiters = [];
      for (const resolve of done) resolve();
    }
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(drain);
  };

  return {
    enqueue(environment, payload) {
      if (queue.length >= maxQueue) return false;
      queue.push({ environment, payload, receivedAt: clock().toISOString() });
      counters.queued += 1;
      schedule();
      return true;
    },
    drained() {
      if (queue.length === 0 && !scheduled) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    queueLength: () => queue.length,
    counters: () => ({ ...counters }),
  };
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}
