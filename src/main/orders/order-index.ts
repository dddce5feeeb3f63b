/**
 * The order index: every order the station knows, per environment, findable by order ref,
 * parcel barcode or order id, with its last known status. Identifiers are stored normalised
 * exactly as scans are (src/shared/scan.ts), so resolving a scan is three indexed equality
 * lookups; case matters, nothing is guessed, and more than one order is an ambiguity.
 */
import { OrderStatusSchema, type OrderStatus } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import { normalizeIdentifier } from '../../shared/scan';
import type { StationDatabase } from '../store/database';
import { decideStatus, laterTime, type StatusDecision, type StatusNews } from './status-progress';

/** How the station first learnt of an order. */
export type OrderSource = 'created' | 'import' | 'webhook' | 'lookup' | 'api';

export type MatchField = 'orderRef' | 'barcode' | 'orderId';

export interface IndexedOrder {
  environment: Environment;
  orderId: string;
  orderRef: string | null;
  barcode: string | null;
  bundleId: string | null;
  recipient: string | null;
  status: OrderStatus | null;
  statusUpdatedAt: string | null;
  source: OrderSource;
  createdAt: string;
  updatedAt: string;
  /** Set when the service cancelled the order at this station's request (src/main/supervision). */
  voided?: OrderVoid | null;
}

/** Who had the service cancel an order, when, and why. */
export interface OrderVoid {
  at: string;
  by: string;
  reason: string;
}

export interface OrderMatch {
  order: IndexedOrder;
  /** Every field the scan matched on this order (a ref that equals the barcode matches twice). */
  matchedBy: MatchField[];
}

/** What one source knows of an order. Absent or null fields leave what the index has. */
export interface OrderFacts {
  orderId: string;
  orderRef?: string | null;
  barcode?: string | null;
  bundleId?: string | null;
  recipient?: string | null;
  status?: OrderStatus | null;
  previousStatus?: OrderStatus | null;
  /** The service's updatedAt for the status, when the source carries it (never a time the station made up). */
  statusUpdatedAt?: string | null;
}

export interface UpsertOutcome {
  change: 'inserted' | 'updated';
  /** What became of the status in the facts; null when they carried none. */
  status: StatusDecision | null;
}

type OrderRow = [
  environment: string,
  orderId: string,
  orderRef: string | null,
  barcode: string | null,
  bundleId: string | null,
  recipient: string | null,
  status: string | null,
  statusUpdatedAt: string | null,
  source: string,
  createdAt: string,
  updatedAt: string,
  voidedAt: string | null,
  voidedBy: string | null,
  voidReason: string | null,
];

const columns = 'environment, order_id, order_ref, barcode, bundle_id, recipient, status, status_updated_at, source, created_at, updated_at, voided_at, voided_by, void_reason';
const insertColumns = 'environment, order_id, order_ref, barcode, bundle_id, recipient, status, status_updated_at, source, created_at, updated_at';
const maxRecipientLength = 200;

export class OrderIndex {
  private readonly byRef;
  private readonly byBarcode;
  private readonly byId;
  private readonly insertRow;
  private readonly updateRow;
  private readonly inBundle;
  private readonly countRows;
  private readonly setStatus;

  // Single-row reads use .all()[0]: in libsql 0.5, .get() on a statement whose previous .all()
  // found nothing answers undefined even when the row exists.
  constructor(
    private readonly db: StationDatabase,
    private readonly clock: () => Date = () => new Date(),
  ) {
    // INDEXED BY: without statistics SQLite prefers scanning the environment's whole primary key
    // range over these indexes (seconds instead of microseconds at a million orders).
    this.byRef = db.prepare(`SELECT ${columns} FROM orders INDEXED BY orders_by_ref WHERE environment = ? AND order_ref = ?`).raw(true);
    this.byBarcode = db.prepare(`SELECT ${columns} FROM orders INDEXED BY orders_by_barcode WHERE environment = ? AND barcode = ?`).raw(true);
    this.byId = db.prepare(`SELECT ${columns} FROM orders WHERE environment = ? AND order_id = ?`).raw(true);
    this.insertRow = db.prepare(`INSERT INTO orders (${insertColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.updateRow = db.prepare(
      `UPDATE orders SET order_ref = ?, barcode = ?, bundle_id = ?, recipient = ?, status = ?, status_updated_at = ?, updated_at = ?
       WHERE environment = ? AND order_id = ?`,
    );
    this.inBundle = db.prepare(`SELECT ${columns} FROM orders INDEXED BY orders_by_bundle WHERE environment = ? AND bundle_id = ? ORDER BY created_at, order_id`).raw(true);
    this.countRows = db.prepare('SELECT count(*) FROM orders WHERE environment = ?').raw(true);
    this.setStatus = db.prepare(
      'UPDATE orders SET status = ?, status_updated_at = NULL, created_at = ?, updated_at = ? WHERE environment = ? AND order_id = ?',
    );
  }

  /** Every order whose ref, barcode or id equals the (already normalised) scan. */
  find(environment: Environment, value: string): OrderMatch[] {
    const matches = new Map<string, OrderMatch>();
    const collect = (rows: unknown[], field: MatchField) => {
      for (const raw of rows) {
        const order = toOrder(raw as OrderRow);
        const existing = matches.get(order.orderId);
        if (existing) existing.matchedBy.push(field);
        else matches.set(order.orderId, { order, matchedBy: [field] });
      }
    };
    collect(this.byRef.all(environment, value), 'orderRef');
    collect(this.byBarcode.all(environment, value), 'barcode');
    collect(this.byId.all(environment, value), 'orderId');
    return [...matches.values()];
  }

  get(environment: Environment, orderId: string): IndexedOrder | null {
    const row = this.byId.all(environment, orderId)[0] as OrderRow | undefined;
    return row ? toOrder(row) : null;
  }

  ordersInBundle(environment: Environment, bundleId: string): IndexedOrder[] {
    return this.inBundle.all(environment, bundleId).map((row) => toOrder(row as OrderRow));
  }

  count(environment: Environment): number {
    const row = this.countRows.get(environment) as [number];
    return row[0];
  }

  /**
   * Records what a source knows of one order: new identifiers fill in or replace the old, a
   * status only moves forwards (see status-progress.ts). Call inside a transaction for many.
   */
  upsert(environment: Environment, facts: OrderFacts, source: OrderSource): UpsertOutcome {
    const orderId = normalizeIdentifier(facts.orderId);
    if (orderId === null) throw new Error('An order without a usable order id cannot be indexed.');
    const now = this.clock().toISOString();
    const orderRef = normalizeIdentifier(facts.orderRef);
    const barcode = normalizeIdentifier(facts.barcode);
    const bundleId = normalizeIdentifier(facts.bundleId);
    const recipient = cleanRecipient(facts.recipient);
    const news: StatusNews | null = facts.status
      ? { status: facts.status, previousStatus: facts.previousStatus ?? null, updatedAt: facts.statusUpdatedAt ?? null }
      : null;

    const existingRow = this.byId.all(environment, orderId)[0] as OrderRow | undefined;
    if (!existingRow) {
      this.insertRow.run(
        environment,
        orderId,
        orderRef,
        barcode,
        bundleId,
        recipient,
        news?.status ?? null,
        news?.updatedAt ?? null,
        source,
        now,
        now,
      );
      return { change: 'inserted', status: news ? 'applied' : null };
    }
    const existing = toOrder(existingRow);
    const decision = news ? decideStatus({ status: existing.status, updatedAt: existing.statusUpdatedAt }, news) : null;
    let status = existing.status;
    let statusUpdatedAt = existing.statusUpdatedAt;
    if (news && decision === 'applied') {
      status = news.status;
      statusUpdatedAt = news.updatedAt;
    } else if (news && decision === 'same') {
      statusUpdatedAt = laterTime(news.updatedAt, existing.statusUpdatedAt);
    }
    this.updateRow.run(
      orderRef ?? existing.orderRef,
      barcode ?? existing.barcode,
      bundleId ?? existing.bundleId,
      recipient ?? existing.recipient,
      status,
      statusUpdatedAt,
      now,
      environment,
      orderId,
    );
    return { change: 'updated', status: decision };
  }

  /**
   * What in these facts would change an identifier the index already holds: the order's own ref,
   * barcode or bundle replaced by another, or a ref or barcode that already belongs to another
   * order. Empty when the facts only repeat or fill in what is known. A webhook with a clash is
   * not applied (status-events.ts): a parcel scan must never come to resolve to another order.
   */
  identifierClash(environment: Environment, facts: OrderFacts): string[] {
    const orderId = normalizeIdentifier(facts.orderId);
    if (orderId === null) return [];
    const existing = this.get(environment, orderId);
    const clashes: string[] = [];
    const fields = [
      ['orderRef', 'order ref', normalizeIdentifier(facts.orderRef), existing?.orderRef ?? null],
      ['barcode', 'barcode', normalizeIdentifier(facts.barcode), existing?.barcode ?? null],
      ['bundleId', 'bundle', normalizeIdentifier(facts.bundleId), existing?.bundleId ?? null],
    ] as const;
    for (const [, label, claimed, known] of fields) {
      if (claimed !== null && known !== null && claimed !== known) clashes.push(`its ${label} would change from ${known} to ${claimed}`);
    }
    for (const [field, label, claimed] of fields) {
      if (claimed === null || field === 'bundleId') continue;
      const rows = (field === 'orderRef' ? this.byRef : this.byBarcode).all(environment, claimed) as OrderRow[];
      const others = rows.map(toOrder).filter((order) => order.orderId !== orderId);
      if (others.length > 0) clashes.push(`its ${label} ${claimed} already belongs to order ${others.map((order) => order.orderId).join(', ')}`);
    }
    return clashes;
  }

  /**
   * A lead's correction, without the forward-only rules: sets exactly the fields given (settling
   * a webhook conflict). Answers false when the order is not in the index.
   */
  correct(environment: Environment, orderId: string, change: Partial<Pick<IndexedOrder, 'orderRef' | 'barcode' | 'bundleId' | 'status' | 'statusUpdatedAt'>>): boolean {
    const existing = this.get(environment, orderId);
    if (!existing) return false;
    const next = { ...existing, ...change };
    this.updateRow.run(next.orderRef, next.barcode, next.bundleId, next.recipient, next.status, next.statusUpdatedAt, this.clock().toISOString(), environment, orderId);
    return true;
  }

  /**
   * Sets the status without the forward-only rules, and counts the order as learnt now, for the
   * one source that is the truth by definition: the embedded sandbox describing its own freshly
   * started world (its orders are that day's orders, whatever an earlier run of it said).
   */
  reseed(environment: Environment, orderId: string, status: OrderStatus): void {
    const now = this.clock().toISOString();
    this.setStatus.run(status, now, now, environment, orderId);
  }

  /** Runs `work` in one transaction: many upserts at the cost of one disk sync. */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }
}

function cleanRecipient(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = value.replace(/[\p{Cc}\p{Cf}]/gu, ' ').trim();
  return text === '' ? null : text.slice(0, maxRecipientLength);
}

function toOrder(row: OrderRow): IndexedOrder {
  const status = row[6] === null ? null : OrderStatusSchema.safeParse(row[6]);
  return {
    environment: row[0] as Environment,
    orderId: row[1],
    orderRef: row[2],
    barcode: row[3],
    bundleId: row[4],
    recipient: row[5],
    // A status this version does not know (written by a newer one) counts as unknown, not as an error.
    status: status?.success ? status.data : null,
    statusUpdatedAt: row[7],
    source: row[8] as OrderSource,
    createdAt: row[9],
    updatedAt: row[10],
    voided: row[11] !== null ? { at: row[11], by: row[12] ?? '', reason: row[13] ?? '' } : null,
  };
}
