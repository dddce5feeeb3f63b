/**
 * The creation ledger: the station's memory of every order it meant to create, so no retry, double
 * Enter, second scan, restart or second process ever creates one twice. Each parcel of an order to
 * ship is one row, keyed by order reference + parcel number, written as `intended` before anything
 * is sent. Only the caller that moves a row to `posting` (one UPDATE, so one winner across
 * processes sharing the file) may send its POST; the answer makes it `created` or `rejected`, and an
 * ambiguous failure (timeout, dropped connection) makes it `unknown`. An unknown row is never posted
 * again by the station: a status webhook carrying its order reference, or a lead's decision with a
 * reason, settles it.
 *
 * On a warehouse's shared store every bench writes the same ledger, so a row being posted carries
 * who posts it: the bench (a stable id of its own) and the process. At start a bench turns only its
 * own rows left `posting` by an earlier process into `unknown`; another bench's POST in flight is
 * left alone (docs/shipping.md, "Several benches").
 */
import type { Environment } from '../../shared/contract/app';
import { StationError } from '../../shared/errors';
import { retryLostRace, type StoreEngine, type StoreSession } from '../store';

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

type LedgerRow = {
  environment: string;
  order_ref: string;
  parcel: number;
  parcel_count: number;
  service_ref: string;
  state: string;
  order_id: string | null;
  barcode: string | null;
  bundle_id: string | null;
  reason: string | null;
  decided_by: string | null;
  updated_at: string;
};

const columns = 'environment, order_ref, parcel, parcel_count, service_ref, state, order_id, barcode, bundle_id, reason, decided_by, updated_at';

/** Who posts: the bench (stable across restarts, unique in a warehouse) and this process of it. */
export interface LedgerPoster {
  bench: string;
  process: string;
}

export class CreationLedger {
  private readonly clock: () => Date;

  constructor(
    private readonly engine: StoreEngine,
    private readonly poster: LedgerPoster,
    clock?: () => Date,
  ) {
    this.clock = clock ?? (() => new Date());
  }

  /** Every parcel row of an order, parcel 1 first. */
  async parcels(environment: Environment, orderRef: string): Promise<LedgerEntry[]> {
    const rows = await this.engine.query<LedgerRow>(`SELECT ${columns} FROM creation_ledger WHERE environment = $1 AND order_ref = $2 ORDER BY parcel`, [environment, orderRef]);
    return rows.map(toEntry);
  }

  async entry(environment: Environment, orderRef: string, parcel: number, session: StoreSession = this.engine): Promise<LedgerEntry | null> {
    const [row] = await session.query<LedgerRow>(`SELECT ${columns} FROM creation_ledger WHERE environment = $1 AND order_ref = $2 AND parcel = $3`, [environment, orderRef, parcel]);
    return row ? toEntry(row) : null;
  }

  /** Parcel 1 of each of these orders, where the ledger has one (asked in chunks). */
  async firstParcels(environment: Environment, orderRefs: readonly string[]): Promise<Map<string, LedgerEntry>> {
    const found = new Map<string, LedgerEntry>();
    const chunk = 500;
    for (let start = 0; start < orderRefs.length; start += chunk) {
      const refs = orderRefs.slice(start, start + chunk);
      const rows = await this.engine.query<LedgerRow>(
        `SELECT ${columns} FROM creation_ledger WHERE environment = $1 AND parcel = 1 AND order_ref IN (${refs.map((_, index) => `$${index + 2}`).join(', ')})`,
        [environment, ...refs],
      );
      for (const row of rows) found.set(row.order_ref, toEntry(row));
    }
    return found;
  }

  /** Parcels waiting for a webhook or a lead, oldest first. */
  async unknown(environment: Environment): Promise<LedgerEntry[]> {
    const rows = await this.engine.query<LedgerRow>(`SELECT ${columns} FROM creation_ledger WHERE environment = $1 AND state = 'unknown' ORDER BY updated_at, order_ref, parcel`, [environment]);
    return rows.map(toEntry);
  }

  /** Writes the intention for a parcel unless a row for it exists; returns the row as it now is. */
  async intend(environment: Environment, orderRef: string, parcel: number, parcelCount: number, session?: StoreSession): Promise<LedgerEntry> {
    if (session) return this.intendIn(session, environment, orderRef, parcel, parcelCount);
    return retryingRace(() => this.intendIn(this.engine, environment, orderRef, parcel, parcelCount));
  }

  /**
   * Writes the intention if there is none yet and takes the right to send this parcel's POST.
   * Only an intended row, or one the service refused (nothing was created), can be taken; exactly
   * one caller wins, across processes and benches: the move to `posting` is one conditional
   * UPDATE, and the database lets only one of two such updates change the row.
   */
  async claim(environment: Environment, orderRef: string, parcel: number, parcelCount: number): Promise<boolean> {
    // The intention and the claim in one transaction: one disk sync before the POST, not two.
    return retryingRace(() =>
      this.engine.transaction(async (tx) => {
        await this.intendIn(tx, environment, orderRef, parcel, parcelCount);
        const result = await tx.execute(
          `UPDATE creation_ledger SET state = 'posting', bench = $1, owner = $2, parcel_count = $3, reason = NULL, updated_at = $4
           WHERE environment = $5 AND order_ref = $6 AND parcel = $7 AND state IN ('intended', 'rejected')`,
          [this.poster.bench, this.poster.process, parcelCount, this.clock().toISOString(), environment, orderRef, parcel],
        );
        return result.changes === 1;
      }),
    );
  }

  private async intendIn(session: StoreSession, environment: Environment, orderRef: string, parcel: number, parcelCount: number): Promise<LedgerEntry> {
    const now = this.clock().toISOString();
    await session.execute(
      `INSERT INTO creation_ledger (environment, order_ref, parcel, parcel_count, service_ref, state, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'intended', $6, $6) ON CONFLICT (environment, order_ref, parcel) DO NOTHING`,
      [environment, orderRef, parcel, parcelCount, serviceRefFor(orderRef, parcel), now],
    );
    return (await this.entry(environment, orderRef, parcel, session))!;
  }

  async markCreated(environment: Environment, orderRef: string, parcel: number, facts: CreatedFacts, session: StoreSession = this.engine): Promise<void> {
    await this.settle(session, environment, orderRef, parcel, 'created', null, facts, ['posting', 'unknown']);
  }

  async markRejected(environment: Environment, orderRef: string, parcel: number, reason: string, session: StoreSession = this.engine): Promise<void> {
    await this.settle(session, environment, orderRef, parcel, 'rejected', reason, null, ['posting']);
  }

  async markUnknown(environment: Environment, orderRef: string, parcel: number, reason: string, session: StoreSession = this.engine): Promise<void> {
    await this.settle(session, environment, orderRef, parcel, 'unknown', reason, null, ['posting']);
  }

  /**
   * A status event from the service proves the order with this orderRef exists: an unknown (or
   * still posting) parcel becomes created with the event's facts. Any status counts, because
   * events arrive out of order and `draft` may come after a later one. Returns the settled row.
   * The webhook intake calls it inside its own transaction (`session`).
   */
  async resolveFromEvent(environment: Environment, serviceRef: string, facts: CreatedFacts, session: StoreSession = this.engine): Promise<LedgerEntry | null> {
    const [row] = await session.query<LedgerRow>(`SELECT ${columns} FROM creation_ledger WHERE environment = $1 AND service_ref = $2`, [environment, serviceRef]);
    if (!row) return null;
    const entry = toEntry(row);
    if (entry.state !== 'unknown' && entry.state !== 'posting') return null;
    const changed = await this.settle(session, environment, entry.orderRef, entry.parcel, 'created', 'confirmed by the service\'s status event', facts, ['unknown', 'posting']);
    // Another bench's answer may have settled it in between: only the one that changed it reports it.
    return changed ? this.entry(environment, entry.orderRef, entry.parcel, session) : null;
  }

  /**
   * A lead settles an unknown parcel: it exists (with the order id they found at the service) or
   * it does not (it may then be created again). Either way who and why are kept.
   */
  async decide(
    environment: Environment,
    orderRef: string,
    parcel: number,
    decision: { exists: true; orderId: string; barcode?: string | null; bundleId?: string | null } | { exists: false },
    by: { operator: string; reason: string },
  ): Promise<LedgerEntry> {
    const current = await this.entry(environment, orderRef, parcel);
    if (!current) {
      throw new StationError('NOT_FOUND', `No parcel ${parcel} of order ${orderRef} was ever sent to be created.`, undefined, { facts: { subject: 'parcel', id: orderRef, parcel } });
    }
    if (current.state !== 'unknown') throw notUnknown(orderRef, parcel, current.state);
    if (by.operator.trim() === '') throw new StationError('OPERATOR_REQUIRED', 'A decision needs the lead\'s name and a reason.', undefined, { facts: { subject: 'decision' } });
    if (by.reason.trim() === '') throw new StationError('INVALID_INPUT', 'A decision needs the lead\'s name and a reason.');
    const reason = `Decided by ${by.operator.trim()}: ${by.reason.trim()}`;
    const now = this.clock().toISOString();
    const result = decision.exists
      ? await this.engine.execute(
          `UPDATE creation_ledger SET state = 'created', order_id = $1, barcode = $2, bundle_id = $3, reason = $4, decided_by = $5, updated_at = $6
           WHERE environment = $7 AND order_ref = $8 AND parcel = $9 AND state = 'unknown'`,
          [decision.orderId, decision.barcode ?? null, decision.bundleId ?? null, reason, by.operator.trim(), now, environment, orderRef, parcel],
        )
      : await this.engine.execute(
          `UPDATE creation_ledger SET state = 'rejected', reason = $1, decided_by = $2, updated_at = $3
           WHERE environment = $4 AND order_ref = $5 AND parcel = $6 AND state = 'unknown'`,
          [reason, by.operator.trim(), now, environment, orderRef, parcel],
        );
    const after = (await this.entry(environment, orderRef, parcel))!;
    // A webhook (or another lead) settled it between the read and the update: say what it is now.
    if (result.changes === 0) throw notUnknown(orderRef, parcel, after.state);
    return after;
  }

  /**
   * Rows this bench left `posting` in an earlier process that stopped mid-call: the POST may have
   * reached the service, so they become unknown (never intended again). Run at station start.
   * Another bench's rows are its own POSTs in flight (a shared store) and are left alone; a row
   * without a bench was written before benches had an id, by a station that had the file to itself.
   */
  async recoverInterrupted(): Promise<number> {
    const result = await this.engine.execute(
      `UPDATE creation_ledger SET state = 'unknown', reason = $1, updated_at = $2
       WHERE state = 'posting' AND (bench = $3 OR bench IS NULL) AND (owner IS NULL OR owner <> $4)`,
      ['The station stopped while this order was being created; it may exist at the service.', this.clock().toISOString(), this.poster.bench, this.poster.process],
    );
    return result.changes;
  }

  private async settle(
    session: StoreSession,
    environment: Environment,
    orderRef: string,
    parcel: number,
    state: LedgerState,
    reason: string | null,
    facts: CreatedFacts | null,
    from: LedgerState[],
  ): Promise<boolean> {
    const fromList = from.map((_, index) => `$${index + 10}`).join(', ');
    const result = await session.execute(
      `UPDATE creation_ledger SET state = $1, reason = $2, order_id = COALESCE($3, order_id), barcode = COALESCE($4, barcode), bundle_id = COALESCE($5, bundle_id), updated_at = $6
       WHERE environment = $7 AND order_ref = $8 AND parcel = $9 AND state IN (${fromList})`,
      [state, reason, facts?.orderId ?? null, facts?.barcode ?? null, facts?.bundleId ?? null, this.clock().toISOString(), environment, orderRef, parcel, ...from],
    );
    return result.changes > 0;
  }
}

/**
 * Two benches writing the same new intention at once: PostgreSQL's ON CONFLICT covers only the
 * primary key it names, so the second insert may instead fail on the service_ref index (once the
 * first has committed), or one of the two inserts be chosen as a deadlock victim (each waits on the
 * other's entry in one of the two unique indexes). Run again, the insert finds the row and does
 * nothing. A conflict that stays (another parcel holds this service_ref) is thrown on the second attempt.
 */
async function retryingRace<T>(work: () => Promise<T>): Promise<T> {
  return retryLostRace(async () => {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof StationError) || error.code !== 'STORE_CONFLICT') throw error;
      return work();
    }
  });
}

function notUnknown(orderRef: string, parcel: number, state: LedgerState): StationError {
  return new StationError('CONFLICT', `Parcel ${parcel} of order ${orderRef} is ${state}, not unknown: there is nothing to decide.`, undefined, {
    facts: { subject: 'parcel-decided', id: orderRef, parcel, state },
  });
}

function toEntry(row: LedgerRow): LedgerEntry {
  return {
    environment: row.environment as Environment,
    orderRef: row.order_ref,
    parcel: Number(row.parcel),
    parcelCount: Number(row.parcel_count),
    serviceRef: row.service_ref,
    state: row.state as LedgerState,
    orderId: row.order_id,
    barcode: row.barcode,
    bundleId: row.bundle_id,
    reason: row.reason,
    decidedBy: row.decided_by,
    updatedAt: row.updated_at,
  };
}
