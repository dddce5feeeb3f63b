/**
 * Webhook events set before a lead (see status-events.ts for when): kept as evidence with what
 * the station knew and what the event said, announced as a `webhooks.conflict` event, listed by
 * `webhooks.conflicts`, and settled by a lead: `confirm` keeps what the station did, `reverse`
 * does the opposite (applies a withheld event, or puts a cancelled order back as it was).
 */
import type { WebhookPayload } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import { WebhookConflictSchema, type WebhookConflictData } from '../../shared/contract/webhooks';
import { StationError } from '../../shared/errors';
import { normalizeIdentifier } from '../../shared/scan';
import type { EventBus } from '../contract/event-bus';
import type { Logger } from '../logging/logger';
import type { StationDatabase } from '../store/database';
import type { IndexedOrder, OrderIndex } from './order-index';

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
  /** Records one; false when this event was recorded before (a re-delivery). */
  record(report: ConflictReport): boolean;
  list(environment: Environment, options: { limit: number; includeSettled: boolean }): WebhookConflictData[];
  settle(environment: Environment, id: number, decision: 'confirm' | 'reverse', by: string): WebhookConflictData;
}

export interface WebhookConflictsDeps {
  db: StationDatabase;
  index: OrderIndex;
  events: EventBus;
  logger: Logger;
  clock?: () => Date;
}

type ConflictRow = [number, string, string, string, string | null, string, number, string, string, string | null, string | null, string | null];
const columns = 'id, environment, order_id, kind, known, claimed, applied, message, received_at, settled_decision, settled_by, settled_at';

export function createWebhookConflicts(deps: WebhookConflictsDeps): WebhookConflicts {
  const clock = deps.clock ?? (() => new Date());
  const insert = deps.db.prepare(
    `INSERT OR IGNORE INTO webhook_conflicts (environment, order_id, kind, status, event_updated_at, known, claimed, applied, message, received_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = deps.db.prepare(`SELECT ${columns} FROM webhook_conflicts WHERE id = ? AND environment = ?`).raw(true);
  const latest = deps.db.prepare(`SELECT ${columns} FROM webhook_conflicts WHERE environment = ? ORDER BY id DESC LIMIT ?`).raw(true);
  const latestOpen = deps.db.prepare(`SELECT ${columns} FROM webhook_conflicts WHERE environment = ? AND settled_decision IS NULL ORDER BY id DESC LIMIT ?`).raw(true);
  const markSettled = deps.db.prepare('UPDATE webhook_conflicts SET settled_decision = ?, settled_by = ?, settled_at = ? WHERE id = ? AND settled_decision IS NULL');

  const read = (environment: Environment, id: number): WebhookConflictData | null => {
    const row = byId.all(id, environment)[0] as ConflictRow | undefined;
    return row ? toConflict(row) : null;
  };

  return {
    record(report) {
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
      const result = insert.run(
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
      );
      if (result.changes === 0) return false;
      const conflict = read(report.environment, Number(result.lastInsertRowid));
      deps.logger.warn('webhook event set before a lead', { environment: report.environment, orderId: report.orderId, kind: report.kind, applied: report.applied });
      if (conflict) deps.events.emit('webhooks.conflict', conflict);
      return true;
    },

    list(environment, { limit, includeSettled }) {
      return ((includeSettled ? latest : latestOpen).all(environment, limit) as ConflictRow[]).map(toConflict);
    },

    settle(environment, id, decision, by) {
      const conflict = read(environment, id);
      if (!conflict) throw new StationError('NOT_FOUND', `There is no webhook conflict ${id} in the ${environment} environment.`, undefined, { facts: { subject: 'conflict', id } });
      if (conflict.settled) throw new StationError('CONFLICT', `Webhook conflict ${id} was settled already (${conflict.settled.decision} by ${conflict.settled.by || 'someone'} at ${conflict.settled.at}).`, undefined, { facts: { subject: 'conflict-settled', id } });
      deps.db.transaction(() => {
        if (decision === 'reverse') reverse(deps.index, conflict);
        markSettled.run(decision, by, clock().toISOString(), id);
      })();
      deps.logger.info('webhook conflict settled', { environment, id, orderId: conflict.orderId, kind: conflict.kind, decision, by });
      const settled = read(environment, id);
      if (!settled) throw new StationError('INTERNAL', 'The settled conflict could not be read back.');
      return settled;
    },
  };
}

/** Does the opposite of what the station did with the event. */
function reverse(index: OrderIndex, conflict: WebhookConflictData): void {
  const { environment, orderId, claimed, known } = conflict;
  let found: boolean;
  if (conflict.applied) {
    // A cancellation (or other close) that was applied: the order goes back to what the station knew.
    found = index.correct(environment, orderId, { status: known?.status ?? null, statusUpdatedAt: known?.statusUpdatedAt ?? null });
  } else if (conflict.kind === 'identifier') {
    found = index.correct(environment, orderId, {
      ...(claimed.orderRef !== null ? { orderRef: claimed.orderRef } : {}),
      ...(claimed.barcode !== null ? { barcode: claimed.barcode } : {}),
      ...(claimed.bundleId !== null ? { bundleId: claimed.bundleId } : {}),
      status: claimed.status,
      statusUpdatedAt: claimed.updatedAt,
    });
    if (!found) {
      index.upsert(environment, { orderId, orderRef: claimed.orderRef, barcode: claimed.barcode, bundleId: claimed.bundleId, status: claimed.status, statusUpdatedAt: claimed.updatedAt }, 'webhook');
      found = true;
    }
  } else {
    found = index.correct(environment, orderId, { status: claimed.status, statusUpdatedAt: claimed.updatedAt });
  }
  if (!found) throw new StationError('ORDER_NOT_FOUND', `Order ${orderId} is no longer in the station's order index.`);
}

function toConflict(row: ConflictRow): WebhookConflictData {
  return WebhookConflictSchema.parse({
    id: row[0],
    environment: row[1],
    orderId: row[2],
    kind: row[3],
    known: row[4] === null ? null : JSON.parse(row[4]),
    claimed: JSON.parse(row[5]),
    applied: row[6] === 1,
    message: row[7],
    receivedAt: row[8],
    settled: row[9] === null ? null : { decision: row[9], by: row[10] ?? '', at: row[11] ?? '' },
  });
}
