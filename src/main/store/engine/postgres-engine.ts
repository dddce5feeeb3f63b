/**
 * The warehouse engine: a PostgreSQL server shared by benches, through a node-postgres pool.
 * Calls outside a transaction take any pooled connection; a transaction keeps one connection
 * from BEGIN to COMMIT. Subscriptions share one dedicated connection that LISTENs; when it is lost
 * (the server restarted, the network dropped) it reconnects with a growing pause, listens again
 * and tells every subscriber there was a gap. A pooled connection the server dropped is
 * discarded, so the next call after the server is back simply works.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import { postgres, type Dialect } from './dialect';
import { migratePostgres } from './postgres-migrate';
import { tlsOptions, type PostgresStoreConfig } from './postgres-config';
import {
  bindable,
  checkChannel,
  type ExecuteResult,
  type Isolation,
  type Row,
  type SqlValue,
  type StoreEngine,
  type StoreTransaction,
  type Subscription,
  type SubscriptionHandlers,
  type TransactionOptions,
} from './store-engine';
import { fromPostgresError, isConnectionFailure } from './store-errors';

const int8Oid = 20;

// Counts and identity ids are bigint; as numbers they are exact below 2^53, beyond that a BigInt.
const parseInt8 = (text: string): number | bigint => {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
};

/**
 * node-postgres, loaded when the first engine is made: a bench on its own file never loads it, and
 * starts that much sooner (Node keeps the module once loaded).
 */
const postgresDriver = (): typeof pg => createRequire(import.meta.url)('pg') as typeof pg;

const typesOf = (driver: typeof pg): pg.CustomTypesConfig => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === int8Oid && format !== 'binary' ? parseInt8 : driver.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
});

const isolationSql: Record<Isolation, string> = {
  'read committed': 'READ COMMITTED',
  'repeatable read': 'REPEATABLE READ',
  serializable: 'SERIALIZABLE',
};

export interface PostgresEngineOptions {
  /**
   * Pause before the listening connection's first reconnect (100 ms); it doubles up to
   * maxReconnectDelayMs (1 s). The cap is short because the lead's floor and the benches' shared
   * printers follow the store live: once the server is back they hear it within a second, and an
   * attempt on a server that is still down is refused at once and costs it nothing.
   */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
}

export class PostgresEngine implements StoreEngine {
  readonly kind = 'postgres' as const;
  readonly dialect: Dialect = postgres;
  readonly commitCanSkipDiskWait = false;
  readonly sharedByBenches = true;
  private readonly driver = postgresDriver();
  private readonly pool: pg.Pool;
  private readonly listeners = new Map<string, Set<SubscriptionHandlers>>();
  private listener: pg.Client | null = null;
  private listening: Promise<pg.Client> | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelay: number;
  private closed = false;

  constructor(
    private readonly config: PostgresStoreConfig,
    private readonly options: PostgresEngineOptions = {},
  ) {
    this.reconnectDelay = options.reconnectDelayMs ?? 100;
    this.pool = new this.driver.Pool({
      ...this.clientConfig(),
      max: config.poolSize ?? 10,
      idleTimeoutMillis: 30_000,
    });
    // An idle pooled connection the server ends (restart, failover) errors here; the pool has
    // already dropped it, and the next call opens a fresh one.
    this.pool.on('error', () => undefined);
  }

  /** Connects and brings the schema up to date (safe when several benches start together). */
  static async open(config: PostgresStoreConfig, options?: PostgresEngineOptions): Promise<PostgresEngine> {
    // A password that cannot be had (none in the keychain, keychain locked) fails here, before any
    // connection: node-postgres would leave a half-authenticated session open on the server.
    if (typeof config.password === 'function') await config.password();
    const engine = new PostgresEngine(config, options);
    try {
      await engine.migrate();
    } catch (error) {
      await engine.close();
      throw fromPostgresError(error);
    }
    return engine;
  }

  /** Applies the PostgreSQL migrations not yet applied; answers the versions this call applied. */
  async migrate(): Promise<number[]> {
    try {
      return await migratePostgres(this.pool);
    } catch (error) {
      throw fromPostgresError(error);
    }
  }

  async query<T extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return (await this.run(this.pool, sql, params)).rows as T[];
  }

  /** A PostgreSQL commit is always the server's durable one: the plain statement. */
  executeWithoutDiskWait(sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult> {
    return this.execute(sql, params);
  }

  async execute(sql: string, params?: readonly SqlValue[]): Promise<ExecuteResult> {
    return { changes: (await this.run(this.pool, sql, params)).rowCount ?? 0 };
  }

  /** Other benches' writes are heard only by notification: nothing to read here. */
  async outsideWritesVersion(): Promise<null> {
    return null;
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.run(this.pool, 'SELECT pg_notify($1, $2)', [checkChannel(channel), payload]);
  }

  async transaction<T>(work: (tx: StoreTransaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw fromPostgresError(error);
    }
    const tx: StoreTransaction = {
      query: async <R extends Row = Row>(sql: string, params?: readonly SqlValue[]) => (await this.run(client, sql, params)).rows as R[],
      queryForUpdate: async <R extends Row = Row>(sql: string, params?: readonly SqlValue[]) =>
        (await this.run(client, `${sql} FOR UPDATE`, params)).rows as R[],
      execute: async (sql, params) => ({ changes: (await this.run(client, sql, params)).rowCount ?? 0 }),
      notify: async (channel, payload) => {
        await this.run(client, 'SELECT pg_notify($1, $2)', [checkChannel(channel), payload]);
      },
    };
    let broken: Error | undefined;
    // The server going away between two statements of the transaction (a restart, a failover) is
    // an 'error' event on the checked-out connection: without a listener it would end the station.
    const lost = (error: Error) => {
      broken ??= error;
    };
    client.on('error', lost);
    try {
      await this.run(client, `BEGIN ISOLATION LEVEL ${isolationSql[options.isolation ?? 'read committed']}`);
      const result = await work(tx);
      // A COMMIT whose answer is lost leaves the outcome unknown: it surfaces as STORE_UNAVAILABLE.
      await this.run(client, 'COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError as Error;
      }
      if (isConnectionFailure(error)) broken ??= error as Error;
      throw error;
    } finally {
      // A connection that failed is destroyed, not handed to the next caller.
      client.off('error', lost);
      client.release(broken ?? false);
    }
  }

  async subscribe(channel: string, handlers: SubscriptionHandlers): Promise<Subscription> {
    const name = checkChannel(channel);
    let set = this.listeners.get(name);
    const first = !set;
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(handlers);
    if (first) {
      try {
        const client = await this.listenConnection();
        await client.query(`LISTEN ${name}`);
      } catch (error) {
        // While the listening connection is being re-established, the channel is listened to as
        // soon as it is back (and the subscriber told of the gap); otherwise the store is out of reach.
        if (this.reconnectTimer === null) {
          set.delete(handlers);
          if (set.size === 0) this.listeners.delete(name);
          throw fromPostgresError(error);
        }
      }
    }
    return {
      close: async () => {
        const current = this.listeners.get(name);
        if (!current?.delete(handlers) || current.size > 0) return;
        this.listeners.delete(name);
        if (this.listener) await this.listener.query(`UNLISTEN ${name}`).catch(() => undefined);
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.listeners.clear();
    const listener = this.listener;
    this.listener = null;
    if (listener) await listener.end().catch(() => undefined);
    await this.pool.end();
  }

  private clientConfig(): pg.ClientConfig {
    const { config } = this;
    return {
      host: config.host,
      port: config.port,
      database: config.database,
      user: config.user,
      password: config.password,
      ssl: tlsOptions(config),
      connectionTimeoutMillis: config.connectTimeoutMs ?? 5_000,
      keepAlive: true,
      application_name: config.applicationName ?? 'packing-station',
      types: typesOf(this.driver),
    };
  }

  private async run(target: pg.Pool | pg.PoolClient | pg.Client, sql: string, params?: readonly SqlValue[]): Promise<pg.QueryResult> {
    if (this.closed) throw new Error('The store is closed.');
    let result: pg.QueryResult;
    try {
      // Without parameters, the simple protocol (a script of several statements is allowed).
      result = params && params.length > 0 ? await target.query(sql, bindable(params)) : await target.query(sql);
    } catch (error) {
      throw fromPostgresError(error);
    }
    // A statement got through while the listening connection waits out its pause: the server is
    // back, so listen again now rather than seconds later (subscribers hear of the gap sooner).
    if (this.reconnectTimer !== null && target !== this.listener) this.relistenNow();
    return result;
  }

  private relistenNow(): void {
    if (this.closed || this.reconnectTimer === null) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    void this.relisten();
  }

  /** The one connection that listens, opened on first use. */
  private listenConnection(): Promise<pg.Client> {
    if (this.listener) return Promise.resolve(this.listener);
    this.listening ??= (async () => {
      const client = new this.driver.Client(this.clientConfig());
      client.on('notification', (message) => {
        for (const handlers of this.listeners.get(message.channel) ?? []) handlers.onMessage(message.payload ?? '');
      });
      const lost = () => this.listenerLost(client);
      client.on('error', lost);
      client.on('end', lost);
      try {
        await client.connect();
      } catch (error) {
        client.removeAllListeners('end');
        await client.end().catch(() => undefined);
        throw error;
      }
      this.listener = client;
      return client;
    })().finally(() => {
      this.listening = null;
    });
    return this.listening;
  }

  private listenerLost(client: pg.Client): void {
    if (this.listener !== client || this.closed) return;
    this.listener = null;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, this.options.maxReconnectDelayMs ?? 1_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.relisten();
    }, delay);
    this.reconnectTimer.unref();
  }

  private async relisten(): Promise<void> {
    if (this.closed) return;
    try {
      const client = await this.listenConnection();
      for (const channel of this.listeners.keys()) await client.query(`LISTEN ${channel}`);
    } catch {
      // Still unreachable: try again after a longer pause.
      this.listener?.removeAllListeners('end');
      await this.listener?.end().catch(() => undefined);
      this.listener = null;
      this.scheduleReconnect();
      return;
    }
    this.reconnectDelay = this.options.reconnectDelayMs ?? 100;
    for (const set of this.listeners.values()) for (const handlers of set) handlers.onGap?.();
  }
}
