/**
 * Applies order status events (from the webhook receiver) to the order index through the store
 * engine (a bench's SQLite file, or a warehouse's shared PostgreSQL store): events wait in a
 * bounded queue and are written in batches, one transaction each, and the receiver answers the
 * service once its event's transaction committed. An event seen before (same order id and status) is dropped; a move backwards or out of a
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
 * Exactly once by the database, not by timing: each event's key is inserted into webhook_events
 * with ON CONFLICT DO NOTHING before anything else is written, and the order's row is locked
 * (queryForUpdate) before it is weighed; a duplicate, even one taken by a second receiver at the
 * same moment, finds the key taken and changes nothing.
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
import type { StoreEngine, StoreTransaction } from '../store';
import { decideStatus, isTerminalStatus } from './status-progress';
import type { WebhookConflicts } from './webhook-conflicts';
import { identifierClash, lockOrder, upsertOrder, type IndexedOrder } from './order-index';
import { errorText } from '../../shared/error-text';

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

export interface Enqueued {
  outcome: EnqueueOutcome;
  /**
   * Resolves once the event's transaction committed (or it was found a duplicate, or refused for
   * its date and recorded); rejects when the store could not take it. The receiver answers the
   * service only then, so an event is never acknowledged before it is in the store: a receiver
   * killed, or a store out of reach, gets no 2xx and the service sends the event again.
   */
  written: Promise<void>;
}

export interface StatusEventProcessor {
  /** `busy` when the queue is full (the sender should try again later); `future` when refused for its date. */
  enqueue(environment: Environment, payload: WebhookPayload): Enqueued;
  /** Resolves once every event queued so far has been written. */
  drained(): Promise<void>;
  queueLength(): number;
  counters(): StatusEventCounters;
}

export interface StatusEventProcessorDeps {
  engine: StoreEngine;
  logger: Logger;
  conflicts: WebhookConflicts;
  clock?: () => Date;
  /** How far in the future an event's updatedAt may be (the service's clock may run ahead). */
  clockSkewMs?: number;
  maxQueue?: number;
  batchSize?: number;
  /**
   * Told of every event weighed against the index (not duplicates, clashes or future ones), inside
   * its transaction; `afterCommit` work runs once it committed, before the service is answered.
   */
  onEvent?(tx: StoreTransaction, event: WeighedStatusEvent, afterCommit: (work: () => Promise<void>) => void): Promise<void>;
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

/** Benches hear each order whose status row changed (payload: environment and order ids), once the intake commits. */
export const orderStatusChannel = 'order_status';

/** Statuses an order has before a carrier scanned it: it is still at (or on its way from) the bench. */
const notYetShipped = new Set<string | null>([null, 'draft', 'expected']);

type Counted = Exclude<keyof StatusEventCounters, 'queued' | 'future'>;

interface QueuedEvent {
  environment: Environment;
  payload: WebhookPayload;
  receivedAt: string;
  future: boolean;
  settle: { resolve(): void; reject(error: unknown): void };
}

export function createStatusEventProcessor(deps: StatusEventProcessorDeps): StatusEventProcessor {
  const clock = deps.clock ?? (() => new Date());
  const maxQueue = deps.maxQueue ?? 50_000;
  const clockSkewMs = deps.clockSkewMs ?? 5 * 60_000;
  const batchSize = deps.batchSize ?? 500;
  const counters: StatusEventCounters = { queued: 0, duplicates: 0, applied: 0, same: 0, ignoredBackward: 0, ignoredTerminal: 0, failed: 0, conflicts: 0, future: 0 };
  let queue: QueuedEvent[] = [];
  let scheduled = false;
  let writing = false;
  let waiters: (() => void)[] = [];

  /** Weighs one event inside `tx`; answers what to count once the transaction commits. */
  const applyOne = async (
    tx: StoreTransaction,
    { environment, payload, receivedAt, future }: QueuedEvent,
    changed: Map<Environment, Set<string>>,
    afterCommit: (work: () => Promise<void>) => void,
  ): Promise<Counted[]> => {
    const orderId = normalizeIdentifier(payload.orderId);
    if (orderId === null) {
      deps.logger.warn('webhook event without a usable order id was dropped', { environment });
      return ['failed'];
    }
    const counted: Counted[] = [];
    // The order's row, locked: a second receiver weighing an event of the same order waits for this one.
    const known = await lockOrder(tx, environment, orderId);
    const record = async (kind: 'identifier' | 'status' | 'future' | 'terminal', applied: boolean, message: string) => {
      const id = await deps.conflicts.record(tx, { environment, orderId, kind, known, payload, applied, message, receivedAt });
      if (id === null) return;
      counted.push('conflicts');
      // This process's own screen hears it now; other benches by notification.
      afterCommit(() => deps.conflicts.announce(environment, id));
    };
    if (future) {
      // Not remembered as seen: once the clocks agree, the service's next delivery is applied.
      await record('future', false, `The event is dated ${payload.updatedAt}, later than this station's clock (${receivedAt}) by more than ${Math.round(clockSkewMs / 60_000)} minutes; it was refused.`);
      return counted;
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
    const clashes = await identifierClash(tx, deps.engine.dialect, environment, known, facts);
    if (clashes.length > 0) {
      await record('identifier', false, `Not applied: ${clashes.join('; ')}. Identifiers the station knows never change by webhook.`);
      return counted;
    }
    const decision = known ? decideStatus({ status: known.status, updatedAt: known.statusUpdatedAt }, { status: payload.status, previousStatus: payload.previousStatus, updatedAt: payload.updatedAt }) : 'applied';
    // Exactly once: the event's key is claimed first. A re-delivery (or the same event taken by
    // another receiver at the same moment) finds it taken and changes nothing.
    const claimed = await tx.execute(
      `INSERT INTO webhook_events (environment, order_id, status, event_updated_at, previous_status, outcome, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (environment, order_id, status, event_updated_at) DO NOTHING`,
      [environment, orderId, payload.status, payload.updatedAt, payload.previousStatus, decision, receivedAt],
    );
    if (claimed.changes === 0) return ['duplicates'];
    await upsertOrder(tx, environment, known, facts, 'webhook', receivedAt);
    let orders = changed.get(environment);
    if (!orders) changed.set(environment, (orders = new Set()));
    orders.add(orderId);
    counted.push(decision === 'applied' ? 'applied' : decision === 'same' ? 'same' : decision === 'ignored-backward' ? 'ignoredBackward' : 'ignoredTerminal');
    await deps.onEvent?.(tx, { environment, orderId, payload, decision, known, receivedAt }, afterCommit);

    if (decision === 'ignored-terminal' && known?.status && !isBefore(payload.updatedAt, known.statusUpdatedAt)) {
      // Not an old event arriving late: news after the order was closed contradicts what the station knows.
      await record('status', false, `Not applied: the order is ${known.status}${known.statusUpdatedAt ? ` (since ${known.statusUpdatedAt})` : ''}, a status that never changes, yet this event says ${payload.status} at ${payload.updatedAt}.`);
    } else if (decision === 'applied' && isTerminalStatus(payload.status) && notYetShipped.has(known?.status ?? null)) {
      await record('terminal', true, `A webhook made the order ${payload.status} before it left the station (it was ${known?.status ?? 'not yet known'}); it can no longer be printed. If the parcel is in hand and should ship, a lead can reverse this.`);
    }
    return counted;
  };

  /** One transaction for the events; the counters move only once it committed. */
  const write = async (events: QueuedEvent[]): Promise<void> => {
    let later: (() => Promise<void>)[] = [];
    const counted = await deps.engine.transaction(async (tx) => {
      later = [];
      const changed = new Map<Environment, Set<string>>();
      const all: Counted[] = [];
      for (const event of events) all.push(...(await applyOne(tx, event, changed, (work) => later.push(work))));
      for (const [environment, orders] of changed) await tx.notify(orderStatusChannel, JSON.stringify({ environment, ids: [...orders].slice(0, 500) }));
      return all;
    });
    for (const name of counted) counters[name] += 1;
    for (const work of later) {
      // Announcing is a courtesy to this process's screen: the rows are committed whatever it does.
      await work().catch((error: unknown) => deps.logger.warn('a webhook outcome could not be announced', { error: describe(error) }));
    }
  };

  const drain = async () => {
    writing = true;
    const batch = queue.slice(0, batchSize);
    queue = queue.slice(batch.length);
    try {
      await write(batch);
      for (const event of batch) event.settle.resolve();
    } catch (error) {
      // One event that cannot be written must not hold up the rest: retry the batch one by one.
      deps.logger.error('webhook batch could not be written; retrying event by event', { error: describe(error), events: batch.length });
      for (const event of batch) {
        try {
          await write([event]);
          event.settle.resolve();
        } catch (inner) {
          counters.failed += 1;
          deps.logger.error('webhook event could not be written', { environment: event.environment, status: event.payload.status, error: describe(inner) });
          event.settle.reject(inner);
        }
      }
    }
    writing = false;
    scheduled = false;
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
    setImmediate(() => void drain());
  };

  return {
    enqueue(environment, payload) {
      if (queue.length >= maxQueue) return { outcome: 'busy', written: Promise.resolve() };
      const now = clock();
      const future = Date.parse(payload.updatedAt) > now.getTime() + clockSkewMs;
      let settle!: QueuedEvent['settle'];
      const written = new Promise<void>((resolve, reject) => {
        settle = { resolve, reject };
      });
      // Whoever does not wait for the write (a caller that only enqueues) must not see an unhandled rejection.
      written.catch(() => undefined);
      queue.push({ environment, payload, receivedAt: now.toISOString(), future, settle });
      if (future) counters.future += 1;
      else counters.queued += 1;
      schedule();
      return { outcome: future ? 'future' : 'queued', written };
    },
    drained() {
      if (queue.length === 0 && !scheduled && !writing) return Promise.resolve();
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
  return errorText(error).slice(0, 200);
}
