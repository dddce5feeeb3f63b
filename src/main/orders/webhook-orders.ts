/**
 * The order index as webhook intake reads and writes it, through the store engine (both engines,
 * portable SQL): the rows of `orders` the receiver service writes into a warehouse's shared store
 * and a bench reads back. The rules are order-index.ts's (identifiers never change by webhook, a
 * status only moves forwards, status-progress.ts); this is their asynchronous form, used until
 * the order index itself moves onto the engine, when the two should become one.
 *
 * Exactly once: the caller runs these inside one transaction; `lock` takes the order's row with
 * `queryForUpdate`, so two receivers weighing events of the same order take turns, and a row
 * another transaction inserted meanwhile is found by `insertIfAbsent` (ON CONFLICT DO NOTHING)
 * instead of failing.
 */
import { OrderStatusSchema } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import { normalizeIdentifier } from '../../shared/scan';
import type { Row, StoreSession, StoreTransaction } from '../store/engine/store-engine';
import type { IndexedOrder, OrderFacts, OrderSource, UpsertOutcome } from './order-index';
import { decideStatus, laterTime, type StatusNews } from './status-progress';

const columns = 'environment, order_id, order_ref, barcode, bundle_id, recipient, status, status_updated_at, source, created_at, updated_at, voided_at, voided_by, void_reason';
const maxRecipientLength = 200;

interface OrderRecord extends Row {
  environment: string;
  order_id: string;
  order_ref: string | null;
  barcode: string | null;
  bundle_id: string | null;
  recipient: string | null;
  status: string | null;
  status_updated_at: string | null;
  source: string;
  created_at: string;
  updated_at: string;
  voided_at: string | null;
  voided_by: string | null;
  void_reason: string | null;
}

export async function orderOf(session: StoreSession, environment: Environment, orderId: string): Promise<IndexedOrder | null> {
  const [row] = await session.query<OrderRecord>(`SELECT ${columns} FROM orders WHERE environment = $1 AND order_id = $2`, [environment, orderId]);
  return row ? toOrder(row) : null;
}

/** The order's row, locked until the transaction ends (null when the index does not hold it). */
export async function lockOrder(tx: StoreTransaction, environment: Environment, orderId: string): Promise<IndexedOrder | null> {
  const [row] = await tx.queryForUpdate<OrderRecord>(`SELECT ${columns} FROM orders WHERE environment = $1 AND order_id = $2`, [environment, orderId]);
  return row ? toOrder(row) : null;
}

/** What in these facts would change an identifier the index holds (see OrderIndex.identifierClash). */
export async function identifierClash(session: StoreSession, environment: Environment, known: IndexedOrder | null, facts: OrderFacts): Promise<string[]> {
  const orderId = normalizeIdentifier(facts.orderId);
  if (orderId === null) return [];
  const clashes: string[] = [];
  const fields = [
    ['order_ref', 'order ref', normalizeIdentifier(facts.orderRef), known?.orderRef ?? null],
    ['barcode', 'barcode', normalizeIdentifier(facts.barcode), known?.barcode ?? null],
    ['bundle_id', 'bundle', normalizeIdentifier(facts.bundleId), known?.bundleId ?? null],
  ] as const;
  for (const [, label, claimed, had] of fields) {
    if (claimed !== null && had !== null && claimed !== had) clashes.push(`its ${label} would change from ${had} to ${claimed}`);
  }
  for (const [column, label, claimed] of fields) {
    if (claimed === null || column === 'bundle_id') continue;
    const others = await session.query<{ order_id: string }>(
      `SELECT order_id FROM orders WHERE environment = $1 AND ${column} = $2 AND order_id <> $3 ORDER BY order_id`,
      [environment, claimed, orderId],
    );
    if (others.length > 0) clashes.push(`its ${label} ${claimed} already belongs to order ${others.map((other) => other.order_id).join(', ')}`);
  }
  return clashes;
}

/**
 * Records what a webhook says of one order, given the row as `lockOrder` read it: identifiers
 * fill in, the status only moves forwards. Inside the caller's transaction.
 */
export async function upsertOrder(
  tx: StoreTransaction,
  environment: Environment,
  known: IndexedOrder | null,
  facts: OrderFacts,
  source: OrderSource,
  now: string,
): Promise<UpsertOutcome> {
  const orderId = normalizeIdentifier(facts.orderId);
  if (orderId === null) throw new Error('An order without a usable order id cannot be indexed.');
  const news: StatusNews | null = facts.status ? { status: facts.status, previousStatus: facts.previousStatus ?? null, updatedAt: facts.statusUpdatedAt ?? null } : null;
  const fresh = {
    orderRef: normalizeIdentifier(facts.orderRef),
    barcode: normalizeIdentifier(facts.barcode),
    bundleId: normalizeIdentifier(facts.bundleId),
    recipient: cleanRecipient(facts.recipient),
  };
  let existing = known;
  if (!existing) {
    const inserted = await tx.execute(
      `INSERT INTO orders (environment, order_id, order_ref, barcode, bundle_id, recipient, status, status_updated_at, source, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) ON CONFLICT (environment, order_id) DO NOTHING`,
      [environment, orderId, fresh.orderRef, fresh.barcode, fresh.bundleId, fresh.recipient, news?.status ?? null, news?.updatedAt ?? null, source, now],
    );
    if (inserted.changes === 1) return { change: 'inserted', status: news ? 'applied' : null };
    // Another transaction indexed the order in the meantime: weigh the event against its row.
    existing = await lockOrder(tx, environment, orderId);
    if (!existing) throw new Error(`Order ${orderId} was neither inserted nor found.`);
  }
  const decision = news ? decideStatus({ status: existing.status, updatedAt: existing.statusUpdatedAt }, news) : null;
  let status = existing.status;
  let statusUpdatedAt = existing.statusUpdatedAt;
  if (news && decision === 'applied') {
    status = news.status;
    statusUpdatedAt = news.updatedAt;
  } else if (news && decision === 'same') {
    statusUpdatedAt = laterTime(news.updatedAt, existing.statusUpdatedAt);
  }
  await writeOrder(tx, environment, orderId, {
    orderRef: fresh.orderRef ?? existing.orderRef,
    barcode: fresh.barcode ?? existing.barcode,
    bundleId: fresh.bundleId ?? existing.bundleId,
    recipient: fresh.recipient ?? existing.recipient,
    status,
    statusUpdatedAt,
    updatedAt: now,
  });
  return { change: 'updated', status: decision };
}

type Correction = Partial<Pick<IndexedOrder, 'orderRef' | 'barcode' | 'bundleId' | 'status' | 'statusUpdatedAt'>>;

/** A lead's correction, without the forward-only rules; false when the order is not in the index. */
export async function correctOrder(tx: StoreTransaction, environment: Environment, orderId: string, change: Correction, now: string): Promise<boolean> {
  const existing = await lockOrder(tx, environment, orderId);
  if (!existing) return false;
  const next = { ...existing, ...change };
  await writeOrder(tx, environment, orderId, { ...next, updatedAt: now });
  return true;
}

async function writeOrder(
  tx: StoreTransaction,
  environment: Environment,
  orderId: string,
  row: Pick<IndexedOrder, 'orderRef' | 'barcode' | 'bundleId' | 'recipient' | 'status' | 'statusUpdatedAt' | 'updatedAt'>,
): Promise<void> {
  await tx.execute(
    `UPDATE orders SET order_ref = $1, barcode = $2, bundle_id = $3, recipient = $4, status = $5, status_updated_at = $6, updated_at = $7
     WHERE environment = $8 AND order_id = $9`,
    [row.orderRef, row.barcode, row.bundleId, row.recipient, row.status, row.statusUpdatedAt, row.updatedAt, environment, orderId],
  );
}

function cleanRecipient(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = value.replace(/[\p{Cc}\p{Cf}]/gu, ' ').trim();
  return text === '' ? null : text.slice(0, maxRecipientLength);
}

function toOrder(row: OrderRecord): IndexedOrder {
  const status = row.status === null ? null : OrderStatusSchema.safeParse(row.status);
  return {
    environment: row.environment as Environment,
    orderId: row.order_id,
    orderRef: row.order_ref,
    barcode: row.barcode,
    bundleId: row.bundle_id,
    recipient: row.recipient,
    // A status this version does not know (written by a newer one) counts as unknown, not as an error.
    status: status?.success ? status.data : null,
    statusUpdatedAt: row.status_updated_at,
    source: row.source as OrderSource,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    voided: row.voided_at !== null ? { at: row.voided_at, by: row.voided_by ?? '', reason: row.void_reason ?? '' } : null,
  };
}
