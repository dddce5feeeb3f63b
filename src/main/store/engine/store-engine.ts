/**
 * The station's store behind one asynchronous interface, with two engines: SQLite (libsql, the
 * embedded default for one bench; sqlite-engine.ts) and PostgreSQL (a warehouse's shared store;
 * postgres-engine.ts). Repositories written against this interface run on both.
 *
 * Portable SQL (the conventions every repository follows; docs/store.md, "Portable SQL"):
 * - parameters are numbered, PostgreSQL style: `$1`, `$2`; a number may repeat. The SQLite engine
 *   rewrites them to SQLite's `?1`, `?2`.
 * - values are strings, numbers, null (and bigint where a count may exceed 2^53); booleans are
 *   stored as integers 0/1 in both engines (true/false parameters are sent as 1/0).
 * - times are ISO 8601 text in UTC with milliseconds (`Date.toISOString()`), so they sort as
 *   strings; a time the service sent is stored exactly as sent (it is part of event keys).
 * - new rows' ids come back with `RETURNING id` (both engines), never from a last-insert-id call.
 * - upserts are `INSERT … ON CONFLICT (key columns) DO UPDATE SET col = excluded.col` or
 *   `DO NOTHING`, always naming the conflict target.
 * - a read that will be followed by a write of the same rows in one transaction takes them with
 *   `tx.queryForUpdate` (PostgreSQL's `FOR UPDATE`; SQLite's transaction already holds the write lock).
 * - JSON stays text; no engine-specific functions in repositories (`json_extract`, `now()`): the
 *   station computes values and passes them as parameters.
 * - where the engines must differ, a repository asks the engine for a capability named for what it
 *   means (`dialect`, `commitCanSkipDiskWait`, `sharedByBenches`, `outsideWritesVersion`), never
 *   which engine it is: only the store module itself reads `kind`.
 */
import type { Dialect } from './dialect';

export type SqlValue = string | number | bigint | boolean | null;
export type Row = Record<string, unknown>;

export type Isolation = 'read committed' | 'repeatable read' | 'serializable';

export interface ExecuteResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
}

/** What both an engine and an open transaction can run. */
export interface StoreSession {
  /** Rows of a SELECT (or of a statement with RETURNING). */
  query<T extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** A statement run for its effect. */
  execute(sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult>;
}

export interface StoreTransaction extends StoreSession {
  /**
   * A SELECT whose rows the transaction will change: locks them until it ends, so a second
   * transaction doing the same waits and then reads the first one's result (no lost update).
   * Pass the SELECT without a locking clause.
   */
  queryForUpdate<T extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** A notification sent when (and only if) the transaction commits. */
  notify(channel: string, payload: string): Promise<void>;
}

export interface TransactionOptions {
  /** Default: read committed (SQLite transactions are always serializable). */
  isolation?: Isolation;
  /**
   * False: the commit does not wait for the disk, where the engine can do that
   * (`commitCanSkipDiskWait`, SQLite: the operating system holds the write; the caller takes it to
   * the disk in the background, store/wal-flush.ts). A commit on PostgreSQL always waits for the
   * server's own durable commit.
   */
  waitForDisk?: boolean;
}

export interface SubscriptionHandlers {
  onMessage(payload: string): void;
  /**
   * Called after the engine lost its connection and listens again: notifications sent meanwhile
   * are lost, so the subscriber reads again whatever it follows.
   */
  onGap?(): void;
}

export interface Subscription {
  close(): Promise<void>;
}

export type EngineKind = 'sqlite' | 'postgres';

export interface StoreEngine extends StoreSession {
  /** Which engine this is: for the store module alone (its health, the store in use). */
  readonly kind: EngineKind;
  /** How this engine spells the few things the engines spell differently (an index hint). */
  readonly dialect: Dialect;
  /**
   * Whether `waitForDisk: false` lets a commit return before the disk has the write (SQLite: the
   * operating system holds it and the caller takes it to the disk in the background,
   * store/wal-flush.ts). False on PostgreSQL: its commit is always the server's durable commit,
   * so there is nothing left to take to the disk afterwards.
   */
  readonly commitCanSkipDiskWait: boolean;
  /**
   * Whether other benches work on this same store (a warehouse's PostgreSQL). False for the
   * bench's own file, which only this bench's processes (the app, a CLI command beside it) open.
   */
  readonly sharedByBenches: boolean;
  /**
   * A number that changes whenever another connection commits to the store, so a reader can tell
   * whether what it keeps in memory went stale; null when the engine cannot tell that cheaply
   * (PostgreSQL: what other benches write is heard only by notification, `subscribe`). SQLite:
   * the file's data version, which another process on the same file moves (this connection's own
   * writes do not).
   */
  outsideWritesVersion(): Promise<number | null>;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws (the
   * error is rethrown). Inside, use only the `tx` handed to `work`; the engine itself refuses.
   */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * One statement in a commit of its own that need not wait for the disk: a write whose loss in a
   * power cut loses nothing (a heartbeat), or one a later commit that waits takes to the disk too.
   * Where a commit cannot skip the wait (PostgreSQL), the plain statement: one round trip.
   */
  executeWithoutDiskWait(sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult>;
  /** Sends a notification now (outside a transaction). */
  notify(channel: string, payload: string): Promise<void>;
  /** Follows a channel: every bench connected to the same store hears it (SQLite: this process). */
  subscribe(channel: string, handlers: SubscriptionHandlers): Promise<Subscription>;
  close(): Promise<void>;
}

const channelPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/** Channels are identifiers (LISTEN cannot take a parameter): lower-case letters, digits, underscores. */
export function checkChannel(channel: string): string {
  if (!channelPattern.test(channel)) throw new Error(`Not a usable notification channel name: ${JSON.stringify(channel)}`);
  return channel;
}

/** Parameters as both drivers take them: booleans become 1/0. */
export function bindable(params: readonly SqlValue[] | undefined): (string | number | bigint | null)[] {
  return (params ?? []).map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
}
