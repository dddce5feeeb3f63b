/**
 * Applies order status events (from the webhook receiver) to the order index, after the HTTP
 * answer has gone: events wait in a bounded queue and are written in batches, one transaction
 * each. An event seen before (same order id and status) is dropped; a move backwards or out of a
 * terminal status is recorded but does not change the order (status-progress.ts).
 *
 * What the station knows is not rewritten by a webhook it cannot verify beyond the path secret
 * (the spec offers nothing stronger): an event that would change a known identifier, or that
 * contradicts a terminal status, is not applied but recorded as a conflict for a lead; an event
 * dated in the future beyond the clock skew is refused (the receiver answers 422) and recorded;
 * a webhook that closes an order before it left the station (cancelled while draft or expected)
 * is applied and recorded, so a forged cancellation can never block an order unseen. Conflicts
 * are listed by webhooks.conflicts and announced as a webhooks.conflict event
 * (webhook-conflicts.ts).
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
import type { IndexedOrder, OrderIndex } from './order-index';
import { isTerminalStatus } from './status-progress';
import type { WebhookConflicts } from './webhook-conflicts';

export interface StatusEventCounters {
  queued: number;
  duplicates: number;
  applied: number;
  same: number;
  ignoredBackward: number;
  ignoredTerminal: number;
  failed: number;
  /** Events set before a lead (not applied, or a cancellation applied before the parcel left). */
  conflicts: number;
  /** Events refused for a time in the future beyond the clock skew. */
  future: number;
}

/** What became of an event the receiver handed over. */
export type EnqueueOutcome = 'queued' | 'busy' | 'future';

export interface StatusEventProcessor {
  /** `busy` when the queue is full (the sender should try again later); `future` when refused for its date. */
  enqueue(environment: Environment, payload: WebhookPayload): EnqueueOutcome;
  /** Resolves once every event queued so far has been written. */
  drained(): Promise<void>;
  queueLength(): number;
  counters(): StatusEventCounters;
}

export interface StatusEventProcessorDeps {
  db: StationDatabase;
  index: OrderIndex;
  logger: Logger;
  conflicts: WebhookConflicts;
  clock?: () => Date;
  /** How far in the future an event's updatedAt may be (the service's clock may run ahead). */
  clockSkewMs?: number;
  maxQueue?: number;
  batchSize?: number;
  /** Told of every event weighed against the index (not duplicates, clashes or future ones), inside its transaction. */
  onEvent?(event: WeighedStatusEvent): void;
}

export interface WeighedStatusEvent {
  environment: Environment;
  orderId: string;
  payload: WebhookPayload;
  decision: 'applied' | 'same' | 'ignored-backward' | 'ignored-terminal';
  /** The order as the station knew it before the event. */
  known: IndexedOrder | null;
  receivedAt: string;
}

/** Statuses an order has before a carrier scanned it: it is still at (or on its way from) the bench. */
const notYetShipped = new Set<string | null>([null, 'draft', 'expected']);

export function createStatusEventProcessor(deps: StatusEventProcessorDeps): StatusEventProcessor {
  const clock = deps.clock ?? (() => new Date());
  const maxQueue = deps.maxQueue ?? 50_000;
  const clockSkewMs = deps.clockSkewMs ?? 5 * 60_000;
  const batchSize = deps.batchSize ?? 500;
  const seen = deps.db.prepare('SELECT 1 FROM webhook_events WHERE environment = ? AND order_id = ? AND status = ? AND event_updated_at = ?').raw(true);
  const remember = deps.db.prepare(
    `INSERT INTO webhook_events (environment, order_id, status, event_updated_at, previous_status, outcome, received_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const counters: StatusEventCounters = { queued: 0, duplicates: 0, applied: 0, same: 0, ignoredBackward: 0, ignoredTerminal: 0, failed: 0, conflicts: 0, future: 0 };
  let queue: { environment: Environment; payload: WebhookPayload; receivedAt: string; future: boolean }[] = [];
  let scheduled = false;
  let waiters: (() => void)[] = [];

  const applyOne = (environment: Environment, payload: WebhookPayload, receivedAt: string, future: boolean) => {
    const orderId = normalizeIdentifier(payload.orderId);
    if (orderId === null) {
      counters.failed += 1;
      deps.logger.warn('webhook event without a usable order id was dropped', { environment });
      return;
    }
    const known = deps.index.get(environment, orderId);
    const record = (kind: 'identifier' | 'status' | 'future' | 'terminal', applied: boolean, message: string) => {
      if (deps.conflicts.record({ environment, orderId, kind, known, payload, applied, message, receivedAt })) counters.conflicts += 1;
    };
    if (future) {
      // Not remembered as seen: once the clocks agree, the service's next delivery is applied.
      record('future', false, `The event is dated ${payload.updatedAt}, later than this station's clock (${receivedAt}) by more than ${Math.round(clockSkewMs / 60_000)} minutes; it was refused.`);
      return;
    }
    if (seen.all(environment, orderId, payload.status, payload.updatedAt).length > 0) {
      counters.duplicates += 1;
      return;
    }
    const facts = {
      orderId,
      orderRef: payload.orderRef,
      barcode: payload.barcode,
      bundleId: payload.orderBundle?.bundleId ?? null,
      recipient: payload.deliveryName,
      status: payload.status,
      previousStatus: payload.previousStatus,
      statusUpdatedAt: payload.updatedAt,
    };
    const clashes = deps.index.identifierClash(environment, facts);
    if (clashes.length > 0) {
      record('identifier', false, `Not applied: ${clashes.join('; ')}. Identifiers the station knows never change by webhook.`);
      return;
    }
    const outcome = deps.index.upsert(environment, facts, 'webhook');
    const decision = outcome.status ?? 'applied';
    remember.run(environment, orderId, payload.status, payload.updatedAt, payload.previousStatus, decision, receivedAt);
    if (decision === 'applied') counters.applied += 1;
    else if (decision === 'same') counters.same += 1;
    else if (decision === 'ignored-backward') counters.ignoredBackward += 1;
    else counters.ignoredTerminal += 1;
    deps.onEvent?.({ environment, orderId, payload, decision, known, receivedAt });

    if (decision === 'ignored-terminal' && known?.status && !isBefore(payload.updatedAt, known.statusUpdatedAt)) {
      // Not an old event arriving late: news after the order was closed contradicts what the station knows.
      record('status', false, `Not applied: the order is ${known.status}${known.statusUpdatedAt ? ` (since ${known.statusUpdatedAt})` : ''}, a status that never changes, yet this event says ${payload.status} at ${payload.updatedAt}.`);
    } else if (decision === 'applied' && isTerminalStatus(payload.status) && notYetShipped.has(known?.status ?? null)) {
      record('terminal', true, `A webhook made the order ${payload.status} before it left the station (it was ${known?.status ?? 'not yet known'}); it can no longer be printed. If the parcel is in hand and should ship, a lead can reverse this.`);
    }
  };

  const drain = () => {
    scheduled = false;
    const batch = queue.slice(0, batchSize);
    queue = queue.slice(batch.length);
    try {
      deps.db.transaction(() => {
        for (const event of batch) applyOne(event.environment, event.payload, event.receivedAt, event.future);
      })();
    } catch (error) {
      // One event that cannot be written must not hold up the rest: retry the batch one by one.
      deps.logger.error('webhook batch could not be written; retrying event by event', { error: describe(error), events: batch.length });
      for (const event of batch) {
        try {
          deps.db.transaction(() => applyOne(event.environment, event.payload, event.receivedAt, event.future))();
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
      if (queue.length >= maxQueue) return 'busy';
      const now = clock();
      const future = Date.parse(payload.updatedAt) > now.getTime() + clockSkewMs;
      queue.push({ environment, payload, receivedAt: now.toISOString(), future });
      if (future) counters.future += 1;
      else counters.queued += 1;
      schedule();
      return future ? 'future' : 'queued';
    },
    drained() {
      if (queue.length === 0 && !scheduled) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    queueLength: () => queue.length,
    counters: () => ({ ...counters }),
  };
}

/** True when time a is known to be before time b. */
function isBefore(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  const left = Date.parse(a);
  const right = Date.parse(b);
  return !Number.isNaN(left) && !Number.isNaN(right) && left < right;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}
