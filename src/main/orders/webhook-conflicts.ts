/**
 * Webhook events set before a lead (see status-events.ts for when): kept as evidence with what
 * the station knew and what the event said, announced as a `webhooks.conflict` event, listed by
 * `webhooks.conflicts`, and settled by a lead: `confirm` keeps what the station did, `reverse`
 * does the opposite (applies a withheld event, or puts a cancelled order back as it was).
 */
import { z } from 'zod';
import type { WebhookPayload } from '../../shared/api/schemas';
import { EnvironmentSchema, type Environment } from '../../shared/contract/app';
import { WebhookConflictSchema, type WebhookConflictData } from '../../shared/contract/webhooks';
import { StationError } from '../../shared/errors';
import { normalizeIdentifier } from '../../shared/scan';
import type { EventBus } from '../contract/event-bus';
import type { Logger } from '../logging/logger';
import type { Row, StoreEngine, StoreSession, StoreTransaction, Subscription } from '../store';
import { correctOrder, upsertOrder, type IndexedOrder } from './order-index';
import { errorText } from '../../shared/error-text';

export type ConflictKind = WebhookConflictData['kind'];

export interface ConflictReport {
  environment: Environment;
  orderId: string;
  kind: ConflictKind;
  known: IndexedOrder | null;
  payload: WebhookPayload;
  applied: boolean;
  message: string;
  receivedAt: string;
}

export interface WebhookConflicts {
  /**
   * Records one inside the intake transaction: its id, or null when this event was recorded before (a
   * re-delivery: the unique key, ON CONFLICT DO NOTHING). Benches hear of it once it commits
   * (channel webhook_conflicts, payload the new id).
   */
  record(tx: StoreTransaction, report: ConflictReport): Promise<number | null>;
  /** Announces one recorded conflict on the event bus (webhooks.conflict), once per process. */
  announce(environment: Environment, id: number): Promise<void>;
  list(environment: Environment, options: { limit: number; includeSettled: boolean }): Promise<WebhookConflictData[]>;
  settle(environment: Environment, id: number, decision: 'confirm' | 'reverse', by: string): Promise<WebhookConflictData>;
  /** Announces on the event bus each conflict recorded (by this process or the warehouse's receiver) from now on. */
  follow(): Promise<Subscription>;
}

export interface WebhookConflictsDeps {
  engine: StoreEngine;
  events: EventBus;
  logger: Logger;
  clock?: () => Date;
}

export const conflictsChannel = 'webhook_conflicts';

interface ConflictRecord extends Row {
  id: number;
  environment: string;
  order_id: string;
  kind: string;
  known: string | null;
  claimed: string;
  applied: number;
  message: string;
  received_at: string;
  settled_decision: string | null;
  settled_by: string | null;
  settled_at: string | null;
}
const columns = 'id, environment, order_id, kind, known, claimed, applied, message, received_at, settled_decision, settled_by, settled_at';

export function createWebhookConflicts(deps: WebhookConflictsDeps): WebhookConflicts {
  const clock = deps.clock ?? (() => new Date());
  const { engine } = deps;

  // Ids announced by this process: the writer announces its own at once, the notification comes after.
  const announced = new Set<number>();
  const read = async (session: StoreSession, environment: Environment, id: number): Promise<WebhookConflictData | null> => {
    const [row] = await session.query<ConflictRecord>(`SELECT ${columns} FROM webhook_conflicts WHERE id = $1 AND environment = $2`, [id, environment]);
    return row ? toConflict(row) : null;
  };

  const announce = async (environment: Environment, id: number): Promise<void> => {
    if (announced.has(id)) return;
    const conflict = await read(engine, environment, id);
    if (!conflict || announced.has(id)) return;
    remember(announced, id);
    deps.events.emit('webhooks.conflict', conflict);
  };

  return {
    async record(tx, report) {
      const { payload } = report;
      const known = report.known
        ? { orderRef: report.known.orderRef, barcode: report.known.barcode, bundleId: report.known.bundleId, status: report.known.status, statusUpdatedAt: report.known.statusUpdatedAt }
        : null;
      // What the event claimed, cut to size: the payload's fields are the service's and free text.
      const claimed = {
        orderRef: normalizeIdentifier(payload.orderRef),
        barcode: normalizeIdentifier(payload.barcode),
        bundleId: normalizeIdentifier(payload.orderBundle?.bundleId ?? null),
        status: payload.status,
        previousStatus: payload.previousStatus,
        updatedAt: payload.updatedAt,
      };
      const inserted = await tx.query<{ id: number }>(
        `INSERT INTO webhook_conflicts (environment, order_id, kind, status, event_updated_at, known, claimed, applied, message, received_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (environment, order_id, status, event_updated_at, kind) DO NOTHING RETURNING id`,
        [
          report.environment,
          report.orderId,
          report.kind,
          payload.status,
          payload.updatedAt,
          known ? JSON.stringify(known) : null,
          JSON.stringify(claimed),
          report.applied ? 1 : 0,
          report.message.slice(0, 1000),
          report.receivedAt,
        ],
      );
      const id = inserted[0]?.id;
      if (id === undefined) return null;
      deps.logger.warn('webhook event set before a lead', { environment: report.environment, orderId: report.orderId, kind: report.kind, applied: report.applied });
      await tx.notify(conflictsChannel, JSON.stringify({ environment: report.environment, ids: [Number(id)] }));
      return Number(id);
    },

    announce,

    async list(environment, { limit, includeSettled }) {
      const rows = await engine.query<ConflictRecord>(
        `SELECT ${columns} FROM webhook_conflicts WHERE environment = $1 ${includeSettled ? '' : 'AND settled_decision IS NULL'} ORDER BY id DESC LIMIT $2`,
        [environment, limit],
      );
      return rows.map(toConflict);
    },

    async settle(environment, id, decision, by) {
      const settled = await engine.transaction(async (tx) => {
        const [row] = await tx.queryForUpdate<ConflictRecord>(`SELECT ${columns} FROM webhook_conflicts WHERE id = $1 AND environment = $2`, [id, environment]);
        const conflict = row ? toConflict(row) : null;
        if (!conflict) throw new StationError('NOT_FOUND', `There is no webhook conflict ${id} in the ${environment} environment.`, undefined, { facts: { subject: 'conflict', id } });
        if (conflict.settled) throw new StationError('CONFLICT', `Webhook conflict ${id} was settled already (${conflict.settled.decision} by ${conflict.settled.by || 'someone'} at ${conflict.settled.at}).`, undefined, { facts: { subject: 'conflict-settled', id } });
        const now = clock().toISOString();
        if (decision === 'reverse') await reverse(tx, conflict, now);
        await tx.execute('UPDATE webhook_conflicts SET settled_decision = $1, settled_by = $2, settled_at = $3 WHERE id = $4 AND settled_decision IS NULL', [decision, by, now, id]);
        return read(tx, environment, id);
      });
      if (!settled) throw new StationError('INTERNAL', 'The settled conflict could not be read back.');
      deps.logger.info('webhook conflict settled', { environment, id, orderId: settled.orderId, kind: settled.kind, decision, by });
      return settled;
    },

    follow() {
      return engine.subscribe(conflictsChannel, {
        onMessage: (payload) => {
          const message = ConflictMessageSchema.safeParse(parseJson(payload));
          if (!message.success) return;
          void (async () => {
            for (const id of message.data.ids) await announce(message.data.environment, id);
          })().catch((error: unknown) => deps.logger.warn('a webhook conflict could not be read', { error: errorText(error) }));
        },
        // A conflict missed while the store was out of reach is still listed by webhooks.conflicts.
      });
    },
  };
}

const ConflictMessageSchema = z.object({ environment: EnvironmentSchema, ids: z.array(z.number().int()).max(1000) });

/** Keeps the set of announced ids bounded: an id that old is not notified again. */
export function remember(ids: Set<number>, id: number, limit = 10_000): void {
  ids.add(id);
  if (ids.size > limit) ids.delete(ids.values().next().value as number);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Does the opposite of what the station did with the event. */
async function reverse(tx: StoreTransaction, conflict: WebhookConflictData, now: string): Promise<void> {
  const { environment, orderId, claimed, known } = conflict;
  let found: boolean;
  if (conflict.applied) {
    // A cancellation (or other close) that was applied: the order goes back to what the station knew.
    found = await correctOrder(tx, environment, orderId, { status: known?.status ?? null, statusUpdatedAt: known?.statusUpdatedAt ?? null }, now);
  } else if (conflict.kind === 'identifier') {
    found = await correctOrder(tx, environment, orderId, {
      ...(claimed.orderRef !== null ? { orderRef: claimed.orderRef } : {}),
      ...(claimed.barcode !== null ? { barcode: claimed.barcode } : {}),
      ...(claimed.bundleId !== null ? { bundleId: claimed.bundleId } : {}),
      status: claimed.status,
      statusUpdatedAt: claimed.updatedAt,
    }, now);
    if (!found) {
      await upsertOrder(tx, environment, null, { orderId, orderRef: claimed.orderRef, barcode: claimed.barcode, bundleId: claimed.bundleId, status: claimed.status, statusUpdatedAt: claimed.updatedAt }, 'webhook', now);
      found = true;
    }
  } else {
    found = await correctOrder(tx, environment, orderId, { status: claimed.status, statusUpdatedAt: claimed.updatedAt }, now);
  }
  if (!found) throw new StationError('ORDER_NOT_FOUND', `Order ${orderId} is no longer in the station's order index.`);
}

function toConflict(row: ConflictRecord): WebhookConflictData {
  return WebhookConflictSchema.parse({
    id: Number(row.id),
    environment: row.environment,
    orderId: row.order_id,
    kind: row.kind,
    known: row.known === null ? null : JSON.parse(row.known),
    claimed: JSON.parse(row.claimed),
    applied: Number(row.applied) === 1,
    message: row.message,
    receivedAt: row.received_at,
    settled: row.settled_decision === null ? null : { decision: row.settled_decision, by: row.settled_by ?? '', at: row.settled_at ?? '' },
  });
}
