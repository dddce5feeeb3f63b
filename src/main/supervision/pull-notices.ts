/**
 * "Pull this parcel": a webhook saying an order is cancelled, rejected, address_not_found or
 * error, for an order whose label this station printed, raises a notice kept in the database
 * until a lead acknowledges it (a reload or restart does not lose it). One notice per order and
 * status: a re-delivery of the same news raises nothing new. An order cancelled from this
 * station raises none: the lead who voided it already knows.
 */
import { z } from 'zod';
import type { Environment } from '../../shared/contract/app';
import { PullNoticeSchema, pullStatuses, type PullNoticeData } from '../../shared/contract/supervision';
import { StationError } from '../../shared/errors';
import type { EventBus } from '../contract/event-bus';
import type { OrderIndex } from '../orders/order-index';
import type { WeighedStatusEvent } from '../orders/status-events';
import type { PrintJournal } from '../printing/journal/print-journal';
import type { StationDatabase } from '../store/database';

type PullStatus = (typeof pullStatuses)[number];

/** What to do, per status: said to a packer at the pallet. */
export const pullActions: Record<PullStatus, string> = {
  cancelled: 'The order was cancelled: take the parcel off the pallet and put it aside; do not hand it to the courier.',
  rejected: 'The service rejected the order: take the parcel off the pallet and ask your lead before it ships.',
  address_not_found: 'The address was not found: take the parcel off the pallet until the address is corrected.',
  error: 'The service reported an error for the order: take the parcel off the pallet and ask your lead.',
};

const NoticeRowSchema = z.object({
  id: z.number().int(),
  environment: PullNoticeSchema.shape.environment,
  orderId: z.string(),
  status: PullNoticeSchema.shape.status,
  statusAt: z.string(),
  bench: z.string(),
  printedAt: z.string().nullable(),
  raisedAt: z.string(),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
});

export interface PullNotices {
  /** Weighs one status event; raises (and announces) a notice when it calls for one. */
  consider(event: WeighedStatusEvent): void;
  list(environment: Environment, options: { includeAcknowledged: boolean; limit: number }): PullNoticeData[];
  ofOrder(environment: Environment, orderId: string): PullNoticeData[];
  acknowledge(environment: Environment, id: number, by: string): PullNoticeData;
}

export interface PullNoticesDeps {
  db: StationDatabase;
  index: OrderIndex;
  journal: PrintJournal;
  events: EventBus;
  /** The name of this bench, as the station is named in Setup. */
  benchName(): string;
  clock?: () => Date;
}

const isPullStatus = (status: string): status is PullStatus => (pullStatuses as readonly string[]).includes(status);

export function createPullNotices(deps: PullNoticesDeps): PullNotices {
  const clock = deps.clock ?? (() => new Date());
  const columns = `id, environment, order_id AS orderId, status, event_updated_at AS statusAt, bench, printed_at AS printedAt, raised_at AS raisedAt,
    acknowledged_by AS acknowledgedBy, acknowledged_at AS acknowledgedAt`;
  const insert = deps.db.prepare(
    `INSERT OR IGNORE INTO pull_notices (environment, order_id, status, event_updated_at, journal_id, bench, printed_at, raised_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = deps.db.prepare(`SELECT ${columns} FROM pull_notices WHERE environment = ? AND id = ?`);
  const open = deps.db.prepare(`SELECT ${columns} FROM pull_notices WHERE environment = ? AND acknowledged_at IS NULL ORDER BY id DESC LIMIT ?`);
  const all = deps.db.prepare(`SELECT ${columns} FROM pull_notices WHERE environment = ? ORDER BY id DESC LIMIT ?`);
  const ofOrder = deps.db.prepare(`SELECT ${columns} FROM pull_notices WHERE environment = ? AND order_id = ? ORDER BY id DESC`);
  const markAcknowledged = deps.db.prepare('UPDATE pull_notices SET acknowledged_by = ?, acknowledged_at = ? WHERE environment = ? AND id = ? AND acknowledged_at IS NULL');

  const toNotice = (record: unknown): PullNoticeData => {
    const row = NoticeRowSchema.parse(record);
    const order = deps.index.get(row.environment, row.orderId);
    return {
      id: row.id,
      environment: row.environment,
      orderId: row.orderId,
      orderRef: order?.orderRef ?? null,
      barcode: order?.barcode ?? null,
      status: row.status,
      bench: row.bench,
      printedAt: row.printedAt,
      statusAt: row.statusAt,
      raisedAt: row.raisedAt,
      action: pullActions[row.status],
      acknowledged: row.acknowledgedAt !== null ? { by: row.acknowledgedBy ?? '', at: row.acknowledgedAt } : null,
    };
  };
  const read = (environment: Environment, id: number) => {
    const record = byId.all(environment, id)[0];
    return record ? toNotice(record) : null;
  };

  return {
    consider({ environment, orderId, payload, decision, known }) {
      if (!isPullStatus(payload.status)) return;
      // An event that arrived after a later status (ignored-backward) is old news, not a reason to pull.
      if (decision !== 'applied' && decision !== 'same') return;
      if (known?.voided) return;
      const printed = deps.journal.previousPrint(environment, orderId);
      if (!printed) return;
      const result = insert.run(
        environment,
        orderId,
        payload.status,
        payload.updatedAt,
        printed.id,
        deps.benchName(),
        printed.printedAt ?? printed.sentAt ?? printed.queuedAt,
        clock().toISOString(),
      );
      if (Number(result.changes) === 0) return;
      const notice = read(environment, Number(result.lastInsertRowid));
      // Announced after the webhook batch commits would be tidier, but a notice read back inside
      // its transaction is already what the database will hold: the row is never rolled back alone.
      if (notice) deps.events.emit('supervision.notice', notice);
    },
    list(environment, { includeAcknowledged, limit }) {
      return (includeAcknowledged ? all : open).all(environment, limit).map(toNotice);
    },
    ofOrder(environment, orderId) {
      return ofOrder.all(environment, orderId).map(toNotice);
    },
    acknowledge(environment, id, by) {
      const before = read(environment, id);
      if (!before) throw new StationError('NOT_FOUND', `There is no notice ${id} in this environment.`, undefined, { facts: { subject: 'notice', id } });
      if (before.acknowledged) return before;
      markAcknowledged.run(by, clock().toISOString(), environment, id);
      const after = read(environment, id);
      if (!after) throw new StationError('INTERNAL', 'The acknowledged notice could not be read back.');
      return after;
    },
  };
}
