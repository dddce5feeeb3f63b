/**
 * The order index: every order the station knows, per environment, findable by order ref,
 * parcel barcode or order id, with its last known status. Identifiers are stored normalised
 * exactly as scans are (src/shared/scan.ts), so resolving a scan is three indexed equality
 * lookups (sent as one query); case matters, nothing is guessed, and more than one order is an
 * ambiguity.
 *
 * It lives in the store engine (both engines, portable SQL; docs/store.md, "Portable SQL"): on a
 * warehouse's shared store an order one bench imported is scanned at every bench, and the webhook
 * receiver service writes the statuses every bench reads.
 *
 * Exactly once: every write runs in a transaction that first takes the order's row with
 * `queryForUpdate`, so two writers weighing facts of the same order take turns, and a row another
 * transaction inserted meanwhile is found by `INSERT … ON CONFLICT DO NOTHING` instead of failing.
 * The functions taking a `tx` are for callers that write more in the same transaction (the
 * webhook intake, a lead settling a conflict); the class runs its own transactions.
 */
import { z } from 'zod';
import { OrderStatusSchema, type OrderStatus } from '../../shared/api/schemas';
import { EnvironmentSchema, type Environment } from '../../shared/contract/app';
import { StationError } from '../../shared/errors';
import { caseVariants, readIdentifier } from '../../shared/identifiers';
import { normalizeIdentifier } from '../../shared/scan';
import type { Dialect, SqlValue, StoreEngine, StoreSession, StoreTransaction } from '../store';
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

export interface BatchOutcome {
  inserted: number;
  updated: number;
}

export type Correction = Partial<Pick<IndexedOrder, 'orderRef' | 'barcode' | 'bundleId' | 'status' | 'statusUpdatedAt'>>;

const columns = 'environment, order_id, order_ref, barcode, bundle_id, recipient, status, status_updated_at, source, created_at, updated_at, voided_at, voided_by, void_reason';
const maxRecipientLength = 200;
/** Orders per statement of a batch: 11 parameters each stays far below both engines' limits. */
const chunkSize = 500;

const sourceSchema = z.enum(['created', 'import', 'webhook', 'lookup', 'api']);
const text = z.string();
const nullableText = z.string().nullable();
// The rows are parsed, not cast: on a shared store another station's version may have written them.
const orderRowSchema = z.object({
  environment: EnvironmentSchema,
  order_id: text,
  order_ref: nullableText,
  barcode: nullableText,
  bundle_id: nullableText,
  recipient: nullableText,
  // A status this version does not know (written by a newer one) counts as unknown, not as an error.
  status: nullableText.transform((value) => {
    if (value === null) return null;
    const parsed = OrderStatusSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  }),
  status_updated_at: nullableText,
  source: text.transform((value) => {
    const parsed = sourceSchema.safeParse(value);
    return parsed.success ? parsed.data : ('api' as const);
  }),
  created_at: text,
  updated_at: text,
  voided_at: nullableText,
  voided_by: nullableText,
  void_reason: nullableText,
});
const barcodeHolderSchema = z.object({ order_id: text, order_ref: nullableText, barcode: text });
const matchedRowSchema = orderRowSchema.extend({ matched: z.enum(['orderRef', 'barcode', 'orderId']) });

/**
 * The statements, in the engine's dialect. The ref, barcode and bundle lookups name their index
 * (`dialect.indexHint`): SQLite without planner statistics (a station never runs ANALYZE) prefers
 * scanning the environment's whole primary-key range over the partial indexes for
 * `order_ref = ?` and `barcode = ?` — seconds instead of microseconds at a million orders
 * (measured: docs/store.md, "Why the index hint"). PostgreSQL's dialect adds nothing: its planner
 * picks the index by itself.
 */
class OrderStatements {
  readonly resolve: string;
  readonly byBundle: string;
  private readonly byRef: string;
  private readonly byBarcode: string;

  constructor(readonly dialect: Dialect) {
    const hint = (index: string) => dialect.indexHint(index);
    this.byRef = `FROM orders${hint('orders_by_ref')} WHERE environment = $1 AND order_ref`;
    this.byBarcode = `FROM orders${hint('orders_by_barcode')} WHERE environment = $1 AND barcode`;
    this.resolve = this.resolveAny(1);
    this.byBundle = `SELECT ${columns} FROM orders${hint('orders_by_bundle')} WHERE environment = $1 AND bundle_id = $2 ORDER BY created_at, order_id`;
  }

  /** One round trip for a scan's three lookups, for each of `count` values ($2 …). */
  resolveAny(count: number): string {
    const values = count === 1 ? '= $2' : `IN (${Array.from({ length: count }, (_, index) => `$${index + 2}`).join(', ')})`;
    return [
      `SELECT 'orderRef' AS matched, ${columns} ${this.byRef} ${values}`,
      `SELECT 'barcode' AS matched, ${columns} ${this.byBarcode} ${values}`,
      `SELECT 'orderId' AS matched, ${columns} FROM orders WHERE environment = $1 AND order_id ${values}`,
    ].join(' UNION ALL ');
  }

  /** The orders holding any of `count` barcodes ($2 …). */
  barcodesIn(count: number): string {
    return `SELECT order_id, order_ref, barcode ${this.byBarcode} IN (${Array.from({ length: count }, (_, index) => `$${index + 2}`).join(', ')})`;
  }

  /** Other orders holding a ref or a barcode (for identifierClash). */
  holders(column: 'order_ref' | 'barcode'): string {
    return `SELECT order_id ${column === 'order_ref' ? this.byRef : this.byBarcode} = $2 AND order_id <> $3 ORDER BY order_id`;
  }
}

export class OrderIndex {
  /** In the dialect of its store. */
  private readonly sql: OrderStatements;

  constructor(
    private readonly engine: StoreEngine,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.sql = new OrderStatements(engine.dialect);
  }

  /** Every order whose ref, barcode or id equals the (already normalised) scan. */
  async find(environment: Environment, value: string, session: StoreSession = this.engine): Promise<OrderMatch[]> {
    return collectMatches(await session.query(this.sql.resolve, [environment, value]));
  }

  /**
   * Every order whose ref, barcode or id equals any of these values (a scan's case variants), in
   * one round trip.
   */
  async findAny(environment: Environment, values: readonly string[]): Promise<OrderMatch[]> {
    if (values.length === 0) return [];
    return collectMatches(await this.engine.query(this.sql.resolveAny(values.length), [environment, ...values]));
  }

  async get(environment: Environment, orderId: string, session: StoreSession = this.engine): Promise<IndexedOrder | null> {
    return orderOf(session, environment, orderId);
  }

  /** These orders, by id, where the index has them (asked in chunks). */
  async getMany(environment: Environment, orderIds: readonly string[], session: StoreSession = this.engine): Promise<Map<string, IndexedOrder>> {
    return readOrders(session, environment, [...new Set(orderIds)], false);
  }

  async ordersInBundle(environment: Environment, bundleId: string): Promise<IndexedOrder[]> {
    return (await this.engine.query(this.sql.byBundle, [environment, bundleId])).map(toOrder);
  }

  async count(environment: Environment): Promise<number> {
    const [row] = await this.engine.query('SELECT count(*) AS orders FROM orders WHERE environment = $1', [environment]);
    return z.coerce.number().parse(row?.orders ?? 0);
  }

  /**
   * Records what a source knows of one order: new identifiers fill in or replace the old, a
   * status only moves forwards (see status-progress.ts). Its own transaction unless given one.
   */
  async upsert(environment: Environment, facts: OrderFacts, source: OrderSource, tx?: StoreTransaction): Promise<UpsertOutcome> {
    const now = this.clock().toISOString();
    const work = async (session: StoreTransaction) => upsertOrder(session, environment, await lockOrder(session, environment, requireOrderId(facts)), facts, source, now);
    return tx ? work(tx) : this.engine.transaction(work);
  }

  /**
   * Many facts at once, inside the caller's transaction (a manifest's batch): one locking read and
   * one multi-row insert per 500 orders, an update per order already indexed. Facts of the same
   * order apply in the order given.
   */
  async upsertBatch(tx: StoreTransaction, environment: Environment, facts: readonly OrderFacts[], source: OrderSource): Promise<BatchOutcome> {
    return upsertBatch(tx, environment, facts, source, this.clock().toISOString());
  }

  /**
   * Who holds each of these (normalised) barcodes in the index: the order's id and ref, by barcode.
   * Asked in chunks, inside the caller's transaction when given (a manifest's batch).
   */
  async barcodeHolders(environment: Environment, barcodes: readonly string[], session: StoreSession = this.engine): Promise<Map<string, { orderId: string; orderRef: string | null }>> {
    const holders = new Map<string, { orderId: string; orderRef: string | null }>();
    const wanted = [...new Set(barcodes)];
    for (let start = 0; start < wanted.length; start += chunkSize) {
      const chunk = wanted.slice(start, start + chunkSize);
      for (const row of await session.query(this.sql.barcodesIn(chunk.length), [environment, ...chunk])) {
        const holder = barcodeHolderSchema.parse(row);
        holders.set(holder.barcode, { orderId: holder.order_id, orderRef: holder.order_ref });
      }
    }
    return holders;
  }

  /**
   * What in these facts would change an identifier the index already holds: the order's own ref,
   * barcode or bundle replaced by another, or a ref or barcode that already belongs to another
   * order. Empty when the facts only repeat or fill in what is known. A webhook with a clash is
   * not applied (status-events.ts): a parcel scan must never come to resolve to another order.
   */
  async identifierClash(environment: Environment, facts: OrderFacts, session: StoreSession = this.engine): Promise<string[]> {
    const orderId = normalizeIdentifier(facts.orderId);
    if (orderId === null) return [];
    return identifierClash(session, this.engine.dialect, environment, await orderOf(session, environment, orderId), facts);
  }

  /**
   * A lead's correction, without the forward-only rules: sets exactly the fields given (settling
   * a webhook conflict). Answers false when the order is not in the index.
   */
  async correct(environment: Environment, orderId: string, change: Correction): Promise<boolean> {
    const now = this.clock().toISOString();
    return this.engine.transaction((tx) => correctOrder(tx, environment, orderId, change, now));
  }

  /**
   * Sets the status without the forward-only rules, and counts the order as learnt now, for the
   * one source that is the truth by definition: the embedded sandbox describing its own freshly
   * started world (its orders are that day's orders, whatever an earlier run of it said).
   */
  async reseed(tx: StoreTransaction, environment: Environment, orderId: string, status: OrderStatus): Promise<void> {
    const now = this.clock().toISOString();
    await tx.execute('UPDATE orders SET status = $1, status_updated_at = NULL, created_at = $2, updated_at = $2 WHERE environment = $3 AND order_id = $4', [status, now, environment, orderId]);
  }

  /**
   * Runs `work` in one transaction: many writes at the cost of one disk sync. `work` must await
   * only calls on `tx`: while it is open on one bench's SQLite file, a repository still using the
   * synchronous handle would write inside it.
   */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.engine.transaction(work);
  }
}

// ── The session forms, for a caller's own transaction (webhook intake, conflicts) ─────────────

export async function orderOf(session: StoreSession, environment: Environment, orderId: string): Promise<IndexedOrder | null> {
  const [row] = await session.query(`SELECT ${columns} FROM orders WHERE environment = $1 AND order_id = $2`, [environment, orderId]);
  return row ? toOrder(row) : null;
}

/** The order's row, locked until the transaction ends (null when the index does not hold it). */
export async function lockOrder(tx: StoreTransaction, environment: Environment, orderId: string): Promise<IndexedOrder | null> {
  const [row] = await tx.queryForUpdate(`SELECT ${columns} FROM orders WHERE environment = $1 AND order_id = $2`, [environment, orderId]);
  return row ? toOrder(row) : null;
}

/** What in these facts would change an identifier the index holds, given the order as known (see OrderIndex.identifierClash). */
export async function identifierClash(session: StoreSession, dialect: Dialect, environment: Environment, known: IndexedOrder | null, facts: OrderFacts): Promise<string[]> {
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
  const sql = new OrderStatements(dialect);
  for (const [column, label, claimed, had] of fields) {
    if (column === 'bundle_id') continue;
    const raw = column === 'order_ref' ? facts.orderRef : facts.barcode;
    if (claimed === null) {
      // An identifier no scan could send (an invisible character in it) is not dropped silently.
      const read = raw ? readIdentifier(raw, `its ${label}`) : null;
      if (read && !read.ok && raw?.trim()) clashes.push(read.reason.replace('; remove it from the file', ''));
      continue;
    }
    const others = await session.query(sql.holders(column), [environment, claimed, orderId]);
    const ids = others.map((other) => text.parse(other.order_id));
    if (ids.length > 0) {
      clashes.push(`its ${label} ${claimed} already belongs to order ${ids.join(', ')}`);
      continue;
    }
    if (claimed === had) continue;
    // A new identifier equal to another order's identifier of another kind, or to one in another
    // case, would make that order's scan ambiguous or let a Caps-Lock scan find this one instead.
    const lookAlikes = collectMatches(await session.query(sql.resolveAny(4), [environment, claimed, ...padded(caseVariants(claimed), claimed, 3)])).filter(
      (match) => match.order.orderId !== orderId,
    );
    for (const match of lookAlikes) {
      clashes.push(`its ${label} ${claimed} looks like the ${match.matchedBy.map(fieldWords).join(' and ')} of order ${match.order.orderId} to a scan`);
    }
  }
  return clashes;
}

/**
 * Records what a source says of one order, given the row as `lockOrder` read it: identifiers
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
  const orderId = requireOrderId(facts);
  let existing = known;
  if (!existing) {
    const fresh = applyFacts(environment, orderId, null, facts, source, now);
    const inserted = await tx.execute(
      `INSERT INTO orders (environment, order_id, order_ref, barcode, bundle_id, recipient, status, status_updated_at, source, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) ON CONFLICT (environment, order_id) DO NOTHING`,
      insertValues(fresh.order).slice(0, 10),
    );
    if (inserted.changes === 1) return { change: 'inserted', status: fresh.status };
    // Another transaction indexed the order in the meantime: weigh the facts against its row.
    existing = await lockOrder(tx, environment, orderId);
    if (!existing) throw new Error(`Order ${orderId} was neither inserted nor found.`);
  }
  const next = applyFacts(environment, orderId, existing, facts, source, now);
  await writeOrder(tx, next.order);
  return { change: 'updated', status: next.status };
}

/** A lead's correction, without the forward-only rules; false when the order is not in the index. */
export async function correctOrder(tx: StoreTransaction, environment: Environment, orderId: string, change: Correction, now: string): Promise<boolean> {
  const existing = await lockOrder(tx, environment, orderId);
  if (!existing) return false;
  await writeOrder(tx, { ...existing, ...change, updatedAt: now });
  return true;
}

/** Many facts in the caller's transaction (see OrderIndex.upsertBatch). */
export async function upsertBatch(tx: StoreTransaction, environment: Environment, facts: readonly OrderFacts[], source: OrderSource, now: string): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { inserted: 0, updated: 0 };
  const byOrder = new Map<string, OrderFacts[]>();
  for (const fact of facts) {
    const orderId = requireOrderId(fact);
    const list = byOrder.get(orderId);
    if (list) list.push(fact);
    else byOrder.set(orderId, [fact]);
  }
  // Sorted, so two benches importing the same manifest lock and insert in the same order.
  const orderIds = [...byOrder.keys()].sort();
  const known = await readOrders(tx, environment, orderIds, true);
  const fresh: IndexedOrder[] = [];
  const changed: IndexedOrder[] = [];
  for (const orderId of orderIds) {
    let order = known.get(orderId) ?? null;
    for (const fact of byOrder.get(orderId)!) {
      if (order === null) outcome.inserted += 1;
      else outcome.updated += 1;
      order = applyFacts(environment, orderId, order, fact, source, now).order;
    }
    (known.has(orderId) ? changed : fresh).push(order!);
  }
  const raced: string[] = [];
  for (let start = 0; start < fresh.length; start += chunkSize) {
    const chunk = fresh.slice(start, start + chunkSize);
    const rows = chunk.map((_, index) => `(${Array.from({ length: 11 }, (_, column) => `$${index * 11 + column + 1}`).join(', ')})`);
    const inserted = await tx.query(
      `INSERT INTO orders (environment, order_id, order_ref, barcode, bundle_id, recipient, status, status_updated_at, source, created_at, updated_at)
       VALUES ${rows.join(', ')} ON CONFLICT (environment, order_id) DO NOTHING RETURNING order_id`,
      chunk.flatMap(insertValues),
    );
    const done = new Set(inserted.map((row) => text.parse(row.order_id)));
    for (const order of chunk) if (!done.has(order.orderId)) raced.push(order.orderId);
  }
  for (const order of changed) await writeOrder(tx, order);
  // Orders another transaction indexed since this one read: their facts are weighed against that row.
  for (const orderId of raced) {
    outcome.inserted -= 1;
    outcome.updated += 1;
    for (const fact of byOrder.get(orderId)!) await upsertOrder(tx, environment, await lockOrder(tx, environment, orderId), fact, source, now);
  }
  return outcome;
}

// ── Rows ──────────────────────────────────────────────────────────────────────────────────────

/** The order as it becomes with these facts (a new order when `existing` is null). */
function applyFacts(
  environment: Environment,
  orderId: string,
  existing: IndexedOrder | null,
  facts: OrderFacts,
  source: OrderSource,
  now: string,
): { order: IndexedOrder; status: StatusDecision | null } {
  const news: StatusNews | null = facts.status ? { status: facts.status, previousStatus: facts.previousStatus ?? null, updatedAt: facts.statusUpdatedAt ?? null } : null;
  const orderRef = normalizeIdentifier(facts.orderRef);
  const barcode = normalizeIdentifier(facts.barcode);
  const bundleId = normalizeIdentifier(facts.bundleId);
  const recipient = cleanRecipient(facts.recipient);
  if (!existing) {
    const order: IndexedOrder = {
      environment,
      orderId,
      orderRef,
      barcode,
      bundleId,
      recipient,
      status: news?.status ?? null,
      statusUpdatedAt: news?.updatedAt ?? null,
      source,
      createdAt: now,
      updatedAt: now,
      voided: null,
    };
    return { order, status: news ? 'applied' : null };
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
  return {
    order: {
      ...existing,
      orderRef: orderRef ?? existing.orderRef,
      barcode: barcode ?? existing.barcode,
      bundleId: bundleId ?? existing.bundleId,
      recipient: recipient ?? existing.recipient,
      status,
      statusUpdatedAt,
      updatedAt: now,
    },
    status: decision,
  };
}

function insertValues(order: IndexedOrder): SqlValue[] {
  return [order.environment, order.orderId, order.orderRef, order.barcode, order.bundleId, order.recipient, order.status, order.statusUpdatedAt, order.source, order.createdAt, order.updatedAt];
}

async function writeOrder(tx: StoreTransaction, order: Pick<IndexedOrder, 'environment' | 'orderId' | 'orderRef' | 'barcode' | 'bundleId' | 'recipient' | 'status' | 'statusUpdatedAt' | 'updatedAt'>): Promise<void> {
  await tx.execute(
    `UPDATE orders SET order_ref = $1, barcode = $2, bundle_id = $3, recipient = $4, status = $5, status_updated_at = $6, updated_at = $7
     WHERE environment = $8 AND order_id = $9`,
    [order.orderRef, order.barcode, order.bundleId, order.recipient, order.status, order.statusUpdatedAt, order.updatedAt, order.environment, order.orderId],
  );
}

async function readOrders(session: StoreSession, environment: Environment, orderIds: readonly string[], lock: boolean): Promise<Map<string, IndexedOrder>> {
  const found = new Map<string, IndexedOrder>();
  for (let start = 0; start < orderIds.length; start += chunkSize) {
    const ids = orderIds.slice(start, start + chunkSize);
    const sql = `SELECT ${columns} FROM orders WHERE environment = $1 AND order_id IN (${ids.map((_, index) => `$${index + 2}`).join(', ')}) ORDER BY order_id`;
    const rows = lock ? await (session as StoreTransaction).queryForUpdate(sql, [environment, ...ids]) : await session.query(sql, [environment, ...ids]);
    for (const row of rows) {
      const order = toOrder(row);
      found.set(order.orderId, order);
    }
  }
  return found;
}

/** Exactly `count` values: the variants, repeated `filler` where there are fewer (one prepared statement shape). */
function padded(values: string[], filler: string, count: number): string[] {
  return [...values, ...Array.from({ length: count }, () => filler)].slice(0, count);
}

const fieldWords = (field: MatchField): string => (field === 'orderRef' ? 'order ref' : field === 'orderId' ? 'order id' : 'barcode');

function collectMatches(rows: readonly unknown[]): OrderMatch[] {
  const matches = new Map<string, OrderMatch>();
  for (const raw of rows) {
    const row = matchedRowSchema.parse(raw);
    const order = fromRow(row);
    const existing = matches.get(order.orderId);
    if (existing) existing.matchedBy.push(row.matched);
    else matches.set(order.orderId, { order, matchedBy: [row.matched] });
  }
  return [...matches.values()];
}

function requireOrderId(facts: OrderFacts): string {
  const orderId = normalizeIdentifier(facts.orderId);
  if (orderId === null) throw new StationError('INVALID_INPUT', 'An order without a usable order id cannot be indexed.');
  return orderId;
}

function cleanRecipient(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const cleaned = value.replace(/[\p{Cc}\p{Cf}]/gu, ' ').trim();
  return cleaned === '' ? null : cleaned.slice(0, maxRecipientLength);
}

function toOrder(raw: unknown): IndexedOrder {
  return fromRow(orderRowSchema.parse(raw));
}

function fromRow(row: z.output<typeof orderRowSchema>): IndexedOrder {
  return {
    environment: row.environment,
    orderId: row.order_id,
    orderRef: row.order_ref,
    barcode: row.barcode,
    bundleId: row.bundle_id,
    recipient: row.recipient,
    status: row.status,
    statusUpdatedAt: row.status_updated_at,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    voided: row.voided_at !== null ? { at: row.voided_at, by: row.voided_by ?? '', reason: row.void_reason ?? '' } : null,
  };
}
