/**
 * The embedded engine: the station's SQLite file (libsql, synchronous) behind the asynchronous
 * store interface. One connection, so calls are taken one at a time: a transaction holds the
 * connection from BEGIN IMMEDIATE (the database's write lock, taken up front, so a read inside it
 * is already as good as a row lock) to COMMIT, and every other call waits for it. Another process
 * on the same file waits on SQLite's own lock (busy_timeout). Notifications reach subscribers of
 * this engine, in this process, after the sending transaction commits.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import { openDatabase, relaxDiskWait, type StationDatabase } from '../database';
import { sqlite, type Dialect } from './dialect';
import { toSqlitePlaceholders } from './portable-sql';
import {
  bindable,
  checkChannel,
  type ExecuteResult,
  type Row,
  type SqlValue,
  type StoreEngine,
  type StoreTransaction,
  type TransactionOptions,
  type Subscription,
  type SubscriptionHandlers,
} from './store-engine';
import { fromSqliteError } from './store-errors';

const DataVersionSchema = z.object({ data_version: z.coerce.number() });

type Statement = ReturnType<StationDatabase['prepare']>;

const statementCacheSize = 256;

export class SqliteEngine implements StoreEngine {
  readonly kind = 'sqlite' as const;
  readonly dialect: Dialect = sqlite;
  readonly commitCanSkipDiskWait = true;
  readonly sharedByBenches = false;
  private readonly statements = new Map<string, Statement>();
  private readonly channels = new EventEmitter();
  private readonly insideTransaction = new AsyncLocalStorage<true>();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  /**
   * @param owns whether close() closes the handle: false while repositories not yet ported share
   *   the same handle with this engine.
   */
  constructor(
    private readonly db: StationDatabase,
    private readonly owns = true,
  ) {
    this.channels.setMaxListeners(0);
  }

  /** Opens (creating and migrating) the station's SQLite file, as openDatabase does. */
  static open(path: string): SqliteEngine {
    return new SqliteEngine(openDatabase(path));
  }

  query<T extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.exclusive(() => this.read<T>(sql, params));
  }

  execute(sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult> {
    return this.exclusive(() => this.write(sql, params));
  }

  /** PRAGMA data_version: moved by every commit another connection (another process) makes to the file. */
  async outsideWritesVersion(): Promise<number> {
    const [row] = await this.query('PRAGMA data_version');
    return DataVersionSchema.parse(row).data_version;
  }

  notify(channel: string, payload: string): Promise<void> {
    return this.exclusive(() => this.deliver(checkChannel(channel), payload));
  }

  async transaction<T>(work: (tx: StoreTransaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (options.waitForDisk !== false) return this.exclusive(() => this.inTransaction(work));
    // The connection is this call's alone until it ends, so the relaxed setting covers this commit only.
    return this.exclusive(async () => {
      const restore = relaxDiskWait(this.db);
      try {
        return await this.inTransaction(work);
      } finally {
        restore();
      }
    });
  }

  /** The statement commits on its own (no BEGIN, no COMMIT: a scan's "sending began" pays the fewest calls into SQLite). */
  executeWithoutDiskWait(sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult> {
    return this.exclusive(() => {
      const restore = relaxDiskWait(this.db);
      try {
        return this.write(sql, params);
      } finally {
        restore();
      }
    });
  }

  private async inTransaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    {
      const pending: [string, string][] = [];
      const tx: StoreTransaction = {
        query: async <R extends Row = Row>(sql: string, params?: readonly SqlValue[]) => this.read<R>(sql, params),
        queryForUpdate: async <R extends Row = Row>(sql: string, params?: readonly SqlValue[]) => this.read<R>(sql, params),
        execute: async (sql, params) => this.write(sql, params),
        notify: async (channel, payload) => {
          pending.push([checkChannel(channel), payload]);
        },
      };
      this.db.exec('BEGIN IMMEDIATE');
      let result: T;
      try {
        result = await this.insideTransaction.run(true, () => work(tx));
      } catch (error) {
        // Some failures (a full disk, an interrupted statement) already ended the transaction.
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
      this.db.exec('COMMIT');
      for (const [channel, payload] of pending) this.deliver(channel, payload);
      return result;
    }
  }

  subscribe(channel: string, handlers: SubscriptionHandlers): Promise<Subscription> {
    const name = checkChannel(channel);
    const listener = (payload: string) => handlers.onMessage(payload);
    this.channels.on(name, listener);
    return Promise.resolve({
      close: async () => {
        this.channels.off(name, listener);
      },
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
    this.channels.removeAllListeners();
    this.statements.clear();
    if (this.owns) this.db.close();
  }

  private read<T>(sql: string, params: readonly SqlValue[] | undefined): T[] {
    try {
      return this.statement(sql).all(bindable(params)) as T[];
    } catch (error) {
      throw fromSqliteError(error);
    }
  }

  private write(sql: string, params: readonly SqlValue[] | undefined): ExecuteResult {
    try {
      const info = this.statement(sql).run(bindable(params)) as { changes: number };
      return { changes: info.changes };
    } catch (error) {
      throw fromSqliteError(error);
    }
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= statementCacheSize) this.statements.clear();
      statement = this.db.prepare(toSqlitePlaceholders(sql));
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs one call with the connection to itself; calls queue in order. */
  private exclusive<T>(call: () => T | Promise<T>): Promise<T> {
    // Waiting for the connection from inside a transaction that holds it would wait forever.
    if (this.insideTransaction.getStore()) return Promise.reject(new Error('Inside a transaction, use the transaction handle, not the engine.'));
    if (this.closed) return Promise.reject(new Error('The store is closed.'));
    const result = this.queue.then(call);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private deliver(channel: string, payload: string): void {
    setImmediate(() => this.channels.emit(channel, payload));
  }
}
