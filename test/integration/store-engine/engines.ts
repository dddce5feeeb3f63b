/**
 * The two engines as the conformance suite opens them: SQLite on a file in a temp folder, and
 * PostgreSQL on a fresh database of the run's private server (test/support/postgres-global-setup.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import type { StoreEngine } from '../../../src/main/store/engine/store-engine';
import { createTestDatabase, type PostgresServerInfo } from '../../support/postgres-server';
import { waitUntil } from '../../support/wait-until';

export interface EngineUnderTest {
  engine: StoreEngine;
  /**
   * A second bench on the same store. PostgreSQL: another engine, its own connections. SQLite:
   * the same engine (one bench holds its file; its calls are taken one at a time).
   */
  another(): Promise<StoreEngine>;
  /** Resolves once `count` sessions wait on a lock (SQLite: calls queued behind a transaction wait by construction). */
  waitersOnLocks(count: number): Promise<void>;
  dispose(): Promise<void>;
}

export interface EngineFactory {
  name: 'sqlite' | 'postgres';
  open(): Promise<EngineUnderTest>;
}

export function postgresConfig(info: PostgresServerInfo) {
  return { host: info.host, port: info.port, database: info.database, user: info.user, password: info.password, tls: 'disable' as const };
}

const sqlite: EngineFactory = {
  name: 'sqlite',
  open: async () => {
    const folder = mkdtempSync(join(tmpdir(), 'station-engine-'));
    const engine = SqliteEngine.open(join(folder, 'station.db'));
    return {
      engine,
      another: async () => engine,
      waitersOnLocks: async () => undefined,
      dispose: async () => {
        await engine.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  },
};

const postgres: EngineFactory = {
  name: 'postgres',
  open: async () => {
    const database = await createTestDatabase(inject('postgres'));
    const engine = await PostgresEngine.open(postgresConfig(database.info));
    const others: StoreEngine[] = [];
    return {
      engine,
      another: async () => {
        const other = await PostgresEngine.open(postgresConfig(database.info));
        others.push(other);
        return other;
      },
      waitersOnLocks: (count) =>
        waitUntil(
          async () => {
            const [row] = await engine.query<{ waiting: number }>(
              "SELECT count(*) AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            );
            return (row?.waiting ?? 0) >= count;
          },
          `${count} session(s) waiting on a lock`,
          10_000,
          10,
        ),
      dispose: async () => {
        for (const other of others) await other.close();
        await engine.close();
        await database.drop();
      },
    };
  },
};

export const engineFactories: EngineFactory[] = [sqlite, postgres];
