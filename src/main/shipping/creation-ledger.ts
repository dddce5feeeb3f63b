/**
 * The creation ledger: the station's memory of every order it meant to create, so no retry, double
 * Enter, second scan, restart or second process ever creates one twice. Each parcel of an order to
 * ship is one row, keyed by order reference + parcel number, written as `intended` before anything
 * is sent. Only the caller that moves a row to `posting` (one UPDATE, so one winner across
 * processes sharing the file) may send its POST; the answer makes it `created` or `rejected`, and an
 * ambiguous failure (timeout, dropped connection) makes it `unknown`. An unknown row is never posted
 * again by the station: a status webhook carrying its order reference, or a lead's decision with a
 * reason, settles it.
 */
import type { Environment } from '../../shared/contract/app';
import { StationError } from '../../shared/errors';
import type { StationDatabase } from '../store/database';

export const ledgerStates = ['intended', 'posting', 'created', 'rejected', 'unknown'] as const;
export type LedgerState = (typeof ledgerStates)[number];

export interface LedgerEntry {
  environment: Environment;
  orderRef: string;
  parcel: number;
  parcelCount: number;
  /** The orderRef sent to the service for this parcel (see serviceRefFor). */
  serviceRef: string;
  state: LedgerState;
  orderId: string | null;
  barcode: string | null;
  bundleId: string | null;
  reason: string | null;
  decidedBy: string | null;
  updatedAt: string;
}

export interface CreatedFacts {
  orderId: string;
  barcode: string | null;
  bundleId: string | null;
}

/**
 * The service's orderRef for one parcel. Orders in a bundle keep their own orderRef (spec:
 * Bundle), and a webhook names only the orderRef, so every parcel needs its own: the first parcel
 * carries the shop's reference unchanged, parcel n (n ≥ 2) carries `<orderRef>-P<n>`.
 */
export function serviceRefFor(orderRef: string, parcel: number): string {
  return parcel === 1 ? orderRef : `${orderRef}-P${parcel}`;
}

type Row = [string, string, number, number, string, string, string | null, string | null, string | null, string | null, string | null, string];

const columns = 'environment, order_ref, parcel, parcel_count, service_ref, state, order_id, barcode, bundle_id, reason, decided_by, updated_at';

export class CreationLedger {
  private readonly clock: () => Date;

  constructor(
    private readonly db: StationDatabase,
    /** Identifies this process in rows it is posting (diagnostics only; the UPDATE is the lock). */
    private readonly owner: string,
    clock?: () => Date,
  ) {
    this.clock = clock ?? (() => new Date());
  }

  /** Every parcel row of an order, parcel 1 first. */
  parcels(environment: Environment, orderRef: string): LedgerEntry[] {
    const rows = this.db.prepare(`SELECT ${columns} FROM creation_ledger WHERE environment = ? AND order_ref = ? ORDER BY parcel`).raw(true).all(environment, orderRef) as Row[];
    return rows.map(toEntry);
  }

  entry(environment: Environment, orderRef: string, parcel: number): LedgerEntry | null {
    const row = this.db.prepare(`SELECT ${columns} FROM creation_ledger WHERE environment = ? AND order_ref = ? AND parcel = ?`).raw(true).get(environment, orderRef, parcel) as
      | Row
      | undefined;
    return row ? toEntry(row) : null;
  }

  /** Parcels waiting for a webhook or a lead, oldest first. */
  unknown(environment: Environment): LedgerEntry[] {
    const rows = this.db.prepare(`SELECT ${columns} FROM creation_ledger WHERE environment = ? AND state = 'unknown' ORDER BY updated_at`).raw(true).all(environment) as Row[];
    return rows.map(toEntry);
  }

  /** Writes the intention for a parcel unless a row for it exists; returns the row as it now is. */
  intend(environment: Environment, orderRef: string, parcel: number, parcelCount: number): LedgerEntry {
    const now = this.clock().toISOString();
    this.db
      .prepare(
        `INSERT INTO creation_ledger (environment, order_ref, parcel, parcel_count, service_ref, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'intended', ?, ?) ON CONFLICT (environment, order_ref, parcel) DO NOTHING`,
      )
      .run(environment, orderRef, parcel, parcelCount, serviceRefFor(orderRef, parcel), now, now);
    return this.entry(environment, orderRef, parcel)!;
  }

  /**
   * Writes the intention if there is none yet and takes the right to send this parcel's POST.
   * Only an intended row, or one the service refused (nothing was created), can be taken; exactly
   * one caller wins even across processes.
   */
  claim(environment: Environment, orderRef: string, parcel: number, parcelCount: number): boolean {
    // The intention and the claim in one transaction: one disk sync before the POST, not two.
    return this.db.transaction(() => {
      this.intend(environment, orderRef, parcel, parcelCount);
      return this.claimIntended(environment, orderRef, parcel, parcelCount);
    })();
  }

  private claimIntended(environment: Environment, orderRef: string, parcel: number, parcelCount: number): boolean {
    const result = this.db
      .prepare(
        `UPDATE creation_ledger SET state = 'posting', owner = ?, parcel_count = ?, reason = NULL, updated_at = ?
         WHERE environment = ? AND order_ref = ? AND parcel = ? AND state IN ('intended', 'rejected')`,
      )
      .run(this.owner, parcelCount, this.clock().toISOString(), environment, orderRef, parcel);
    return result.changes === 1;
  }

  markCreated(environment: Environment, orderRef: string, parcel: number, facts: CreatedFacts): void {
    this.settle(environment, orderRef, parcel, 'created', null, facts, ['posting', 'unknown']);
  }

  markRejected(environment: Environment, orderRef: string, parcel: number, reason: string): void {
    this.settle(environment, orderRef, parcel, 'rejected', reason, null, ['posting']);
  }

  markUnknown(environment: Environment, orderRef: string, parcel: number, reason: string): void {
    this.settle(environment, orderRef, parcel, 'unknown', reason, null, ['posting']);
  }

  /**
   * A status event from the service proves the order with this orderRef exists: an unknown (or
   * still posting) parcel becomes created with the event's facts. Any status counts, because
   * events arrive out of order and `draft` may come after a later one. Returns the settled row.
   */
  resolveFromEvent(environment: Environment, serviceRef: string, facts: CreatedFacts): LedgerEntry | null {
    const row = this.db.prepare(`SELECT ${columns} FROM creation_ledger WHERE environment = ? AND service_ref = ?`).raw(true).get(environment, serviceRef) as Row | undefined;
    if (!row) return null;
    const entry = toEntry(row);
    if (entry.state !== 'unknown' && entry.state !== 'posting') return null;
    this.settle(environment, entry.orderRef, entry.parcel, 'created', 'confirmed by the service\'s status event', facts, ['unknown', 'posting']);
    return this.entry(environment, entry.orderRef, entry.parcel);
  }

  /**
   * A lead settles an unknown parcel: it exists (with the order id they found at the service) or
   * it does not (it may then be created again). Either way who and why are kept.
   */
  decide(
    environment: Environment,
    orderRef: string,
    parcel: number,
    decision: { exists: true; orderId: string; barcode?: string | null; bundleId?: string | null } | { exists: false },
    by: { operator: string; reason: string },
  ): LedgerEntry {
    const current = this.entry(environment, orderRef, parcel);
    if (!current) {
      throw new StationError('NOT_FOUND', `No parcel ${parcel} of order ${orderRef} was ever sent to be created.`, undefined, { facts: { subject: 'parcel', id: orderRef, parcel } });
    }
    if (current.state !== 'unknown') {
      throw new StationError('CONFLICT', `Parcel ${parcel} of order ${orderRef} is ${current.state}, not unknown: there is nothing to decide.`, undefined, {
        facts: { subject: 'parcel-decided', id: orderRef, parcel, state: current.state },
      });
    }
    if (by.operator.trim() === '') throw new StationError('OPERATOR_REQUIRED', 'A decision needs the lead\'s name and a reason.', undefined, { facts: { subject: 'decision' } });
    if (by.reason.trim() === '') throw new StationError('INVALID_INPUT', 'A decision needs the lead\'s name and a reason.');
    const reason = `Decided by ${by.operator.trim()}: ${by.reason.trim()}`;
    const now = this.clock().toISOString();
    if (decision.exists) {
      this.db
        .prepare(
          `UPDATE creation_ledger SET state = 'created', order_id = ?, barcode = ?, bundle_id = ?, reason = ?, decided_by = ?, updated_at = ?
           WHERE environment = ? AND order_ref = ? AND parcel = ? AND state = 'unknown'`,
        )
        .run(decision.orderId, decision.barcode ?? null, decision.bundleId ?? null, reason, by.operator.trim(), now, environment, orderRef, parcel);
    } else {
      this.db
        .prepare(
          `UPDATE creation_ledger SET state = 'rejected', reason = ?, decided_by = ?, updated_at = ?
           WHERE environment = ? AND order_ref = ? AND parcel = ? AND state = 'unknown'`,
        )
        .run(reason, by.operator.trim(), now, environment, orderRef, parcel);
    }
    return this.entry(environment, orderRef, parcel)!;
  }

  /**
   * Rows left `posting` by a process that stopped mid-call: the POST may have reached the
   * service, so they become unknown (never intended again). Run at station start.
   */
  recoverInterrupted(environment?: Environment): number {
    const now = this.clock().toISOString();
    const reason = 'The station stopped while this order was being created; it may exist at the service.';
    const result = environment
      ? this.db.prepare(`UPDATE creation_ledger SET state = 'unknown', reason = ?, updated_at = ? WHERE state = 'posting' AND owner = ? AND environment = ?`).run(reason, now, this.owner, environment)
      : this.db.prepare(`UPDATE creation_ledger SET state = 'unknown', reason = ?, updated_at = ? WHERE state = 'posting' AND (owner IS NULL OR owner <> ?)`).run(reason, now, this.owner);
    return result.changes;
  }

  private settle(
    environment: Environment,
    orderRef: string,
    parcel: number,
    state: LedgerState,
    reason: string | null,
    facts: CreatedFacts | null,
    from: LedgerState[],
  ): void {
    const placeholders = from.map(() => '?').join(', ');
    this.db
      .prepare(
        `UPDATE creation_ledger SET state = ?, reason = ?, order_id = COALESCE(?, order_id), barcode = COALESCE(?, barcode), bundle_id = COALESCE(?, bundle_id), updated_at = ?
         WHERE environment = ? AND order_ref = ? AND parcel = ? AND state IN (${placeholders})`,
      )
      .run(state, reason, facts?.orderId ?? null, facts?.barcode ?? null, facts?.bundleId ?? null, this.clock().toISOString(), environment, orderRef, parcel, ...from);
  }
}

function toEntry(row: Row): LedgerEntry {
  return {
    environment: row[0] as Environment,
    orderRef: row[1],
    parcel: row[2],
    parcelCount: row[3],
    serviceRef: row[4],
    state: row[5] as LedgerState,
    orderId: row[6],
    barcode: row[7],
    bundleId: row[8],
    reason: row[9],
    decidedBy: row[10],
    updatedAt: row[11],
  };
}
