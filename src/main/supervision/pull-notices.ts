/**
 * "Pull this parcel": a webhook saying an order is cancelled, rejected, address_not_found or
 * error, for an order whose label this station printed, raises a notice kept in the database
 * until a lead acknowledges it (a reload or restart does not lose it). One notice per order and
 * status: a re-delivery of the same news raises nothing new. An order cancelled from this
 * station raises none: the lead who voided it already knows.
 */
import { z } from 'zod';
import { EnvironmentSchema, type Environment } from '../../shared/contract/app';
import { PullNoticeSchema, pullStatuses, type PullNoticeData } from '../../shared/contract/supervision';
import { StationError } from '../../shared/errors';
import type { EventBus } from '../contract/event-bus';
import type { Logger } from '../logging/logger';
import type { WeighedStatusEvent } from '../orders/status-events';
import { remember } from '../orders/webhook-conflicts';
import type { StoreEngine, StoreSession, StoreTransaction, Subscription } from '../store';
import { errorText } from '../../shared/error-text';

type PullStatus = (typeof pullStatuses)[number];

/** What to do, per status: said to a packer at the pallet. */
export const pullActions: Record<PullStatus, string> = {
  cancelled: 'The order was cancelled: take the parcel off the pallet and put it aside; do not hand it to the courier.',
  rejected: 'The service rejected the order: take the parcel off the pallet and ask your lead before it ships.',
  address_not_found: 'The address was not found: take the parcel off the pallet until the address is corrected.',
  error: 'The service reported an error for the order: take the parcel off the pallet and ask your lead.',
};

const NoticeRowSchema = z.object({
  id: z.coerce.number().int(),
  environment: PullNoticeSchema.shape.environment,
  orderId: z.string(),
  status: PullNoticeSchema.shape.status,
  statusAt: z.string(),
  bench: z.string(),
  printedAt: z.string().nullable(),
  raisedAt: z.string(),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  orderRef: z.string().nullable(),
  barcode: z.string().nullable(),
});

export interface PullNotices {
  /**
   * Weighs one status event inside the intake transaction; raises a notice when it calls for one
   * (once per order and status: the unique key, ON CONFLICT DO NOTHING) and notifies the benches,
   * which hear it only once the transaction commits.
   */
  consider(tx: StoreTransaction, event: WeighedStatusEvent): Promise<number | null>;
  /** Announces one raised notice on the event bus (supervision.notice), once per process. */
  announce(environment: Environment, id: number): Promise<void>;
  list(environment: Environment, options: { includeAcknowledged: boolean; limit: number }): Promise<PullNoticeData[]>;
  ofOrder(environment: Environment, orderId: string): Promise<PullNoticeData[]>;
  acknowledge(environment: Environment, id: number, by: string): Promise<PullNoticeData>;
  /**
   * Announces on the event bus (supervision.notice) each notice raised from now on, by this
   * process or by the warehouse's receiver: the notification carries the ids, and only those rows
   * are read. After a lost connection every open notice is read again and the ones not yet
   * announced are announced.
   */
  follow(): Promise<Subscription>;
}

export interface PullNoticesDeps {
  engine: StoreEngine;
  events: EventBus;
  /** The name of the station weighing the event (a bench, or the warehouse's receiver service). */
  benchName(): string;
  logger?: Logger;
  clock?: () => Date;
}

export const pullNoticesChannel = 'pull_notices';

const isPullStatus = (status: string): status is PullStatus => (pullStatuses as readonly string[]).includes(status);

// A label that may have reached a printer (print-journal.ts, maybePrinted), by order id or by an
// identifier printed on a label of another route (order ref, barcode).
const maybePrinted = (table: string) =>
  `(${table}.state IN ('sent', 'printed') OR (${table}.state = 'uncertain' AND ${table}.decided_at IS NULL) OR (${table}.state IN ('queued', 'fetched') AND ${table}.sent_at IS NOT NULL))`;
const previousPrintSql = `SELECT id, printed_at, sent_at, queued_at FROM print_journal WHERE id = (SELECT max(id) FROM (
    SELECT p.id FROM print_journal p WHERE p.environment = $1 AND p.order_id = $2 AND ${maybePrinted('p')}
    UNION ALL
    SELECT j.id FROM print_label_identifiers i JOIN print_journal j ON j.id = i.entry_id
    WHERE i.environment = $1 AND j.order_id IS NULL AND ${maybePrinted('j')} AND i.identifier IN (
      $2,
      (SELECT order_ref FROM orders WHERE environment = $1 AND order_id = $2),
      (SELECT barcode FROM orders WHERE environment = $1 AND order_id = $2))) printed)`;

const NoticeMessageSchema = z.object({ environment: EnvironmentSchema, ids: z.array(z.number().int()).max(1000) });

export function createPullNotices(deps: PullNoticesDeps): PullNotices {
  const clock = deps.clock ?? (() => new Date());
  const { engine } = deps;
  const columns = `n.id, n.environment, n.order_id AS "orderId", n.status, n.event_updated_at AS "statusAt", n.bench, n.printed_at AS "printedAt", n.raised_at AS "raisedAt",
    n.acknowledged_by AS "acknowledgedBy", n.acknowledged_at AS "acknowledgedAt", o.order_ref AS "orderRef", o.barcode`;
  const from = 'pull_notices n LEFT JOIN orders o ON o.environment = n.environment AND o.order_id = n.order_id';

  const toNotice = (record: unknown): PullNoticeData => {
    const row = NoticeRowSchema.parse(record);
    return {
      id: row.id,
      environment: row.environment,
      orderId: row.orderId,
      orderRef: row.orderRef,
      barcode: row.barcode,
      status: row.status,
      bench: row.bench,
      printedAt: row.printedAt,
      statusAt: row.statusAt,
      raisedAt: row.raisedAt,
      action: pullActions[row.status],
      acknowledged: row.acknowledgedAt !== null ? { by: row.acknowledgedBy ?? '', at: row.acknowledgedAt } : null,
    };
  };
  // Ids announced by this process: the writer announces its own at once, the notification comes after.
  const announced = new Set<number>();
  const announce = (notice: PullNoticeData) => {
    if (announced.has(notice.id)) return;
    remember(announced, notice.id);
    deps.events.emit('supervision.notice', notice);
  };
  const read = async (session: StoreSession, environment: Environment, id: number) => {
    const [record] = await session.query(`SELECT ${columns} FROM ${from} WHERE n.environment = $1 AND n.id = $2`, [environment, id]);
    return record ? toNotice(record) : null;
  };

  return {
    async consider(tx, { environment, orderId, payload, decision, known }) {
      if (!isPullStatus(payload.status)) return null;
      // An event that arrived after a later status (ignored-backward) is old news, not a reason to pull.
      if (decision !== 'applied' && decision !== 'same') return null;
      if (known?.voided) return null;
      const [printed] = await tx.query<{ id: number; printed_at: string | null; sent_at: string | null; queued_at: string }>(previousPrintSql, [environment, orderId]);
      if (!printed) return null;
      const inserted = await tx.query<{ id: number }>(
        `INSERT INTO pull_notices (environment, order_id, status, event_updated_at, journal_id, bench, printed_at, raised_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (environment, order_id, status) DO NOTHING RETURNING id`,
        [environment, orderId, payload.status, payload.updatedAt, printed.id, deps.benchName(), printed.printed_at ?? printed.sent_at ?? printed.queued_at, clock().toISOString()],
      );
      const id = inserted[0]?.id;
      if (id === undefined) return null;
      await tx.notify(pullNoticesChannel, JSON.stringify({ environment, ids: [Number(id)] }));
      return Number(id);
    },
    async announce(environment, id) {
      if (announced.has(id)) return;
      const notice = await read(engine, environment, id);
      if (notice) announce(notice);
    },
    async list(environment, { includeAcknowledged, limit }) {
      const rows = await engine.query(
        `SELECT ${columns} FROM ${from} WHERE n.environment = $1 ${includeAcknowledged ? '' : 'AND n.acknowledged_at IS NULL'} ORDER BY n.id DESC LIMIT $2`,
        [environment, limit],
      );
      return rows.map(toNotice);
    },
    async ofOrder(environment, orderId) {
      return (await engine.query(`SELECT ${columns} FROM ${from} WHERE n.environment = $1 AND n.order_id = $2 ORDER BY n.id DESC`, [environment, orderId])).map(toNotice);
    },
    async acknowledge(environment, id, by) {
      const after = await engine.transaction(async (tx) => {
        const [row] = await tx.queryForUpdate<{ acknowledged_at: string | null }>('SELECT acknowledged_at FROM pull_notices WHERE environment = $1 AND id = $2', [environment, id]);
        if (!row) throw new StationError('NOT_FOUND', `There is no notice ${id} in this environment.`, undefined, { facts: { subject: 'notice', id } });
        if (row.acknowledged_at === null) {
          await tx.execute('UPDATE pull_notices SET acknowledged_by = $1, acknowledged_at = $2 WHERE environment = $3 AND id = $4 AND acknowledged_at IS NULL', [by, clock().toISOString(), environment, id]);
        }
        return read(tx, environment, id);
      });
      if (!after) throw new StationError('INTERNAL', 'The acknowledged notice could not be read back.');
      return after;
    },
    async follow() {
      const failed = (error: unknown) => deps.logger?.warn('pull notices could not be read', { error: errorText(error) });
      // What is open now was raised before this bench followed: listed by supervision.notices, not announced again.
      for (const environment of EnvironmentSchema.options) {
        const open = await engine.query<{ id: number }>('SELECT id FROM pull_notices WHERE environment = $1 AND acknowledged_at IS NULL', [environment]);
        for (const row of open) remember(announced, Number(row.id));
      }
      return engine.subscribe(pullNoticesChannel, {
        onMessage: (payload) => {
          const message = NoticeMessageSchema.safeParse(parseJson(payload));
          if (!message.success) return;
          void (async () => {
            for (const id of message.data.ids) {
              if (announced.has(id)) continue;
              const notice = await read(engine, message.data.environment, id);
              if (notice) announce(notice);
            }
          })().catch(failed);
        },
        onGap: () => {
          void (async () => {
            for (const environment of EnvironmentSchema.options) {
              for (const notice of (await engine.query(`SELECT ${columns} FROM ${from} WHERE n.environment = $1 AND n.acknowledged_at IS NULL ORDER BY n.id`, [environment])).map(toNotice)) {
                announce(notice);
              }
            }
          })().catch(failed);
        },
      });
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
