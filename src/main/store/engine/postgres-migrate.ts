/**
 * Brings a shared PostgreSQL store up to date when a bench (or the webhook service) starts. Ten
 * benches may start together: each migration runs in its own transaction that first takes a
 * transaction-scoped advisory lock, so one process applies it while the others wait and then find
 * it applied. Versions are recorded in schema_migrations, as on SQLite. A store already migrated
 * past what this station knows is refused: an older station must not write into a newer schema.
 */
import type pg from 'pg';
import { newerSchemaError } from '../newer-schema';
import { migrationsFor, postgres, type Migration } from '../schema';

/** pg_advisory_xact_lock key of the schema ("PkSt" + 1), the same in every station. */
export const migrationLockKey = 0x506b5374_01;

export async function migratePostgres(pool: pg.Pool, migrations: readonly Migration[] = migrationsFor(postgres)): Promise<number[]> {
  const known = Math.max(0, ...migrations.map((migration) => migration.version));
  const applied: number[] = [];
  for (;;) {
    const client = await pool.connect();
    let broken: Error | undefined;
    // The server going away between two statements is an 'error' event on the connection.
    const lost = (error: Error) => {
      broken ??= error;
    };
    client.on('error', lost);
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)');
      const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version));
      const newest = Math.max(0, ...done);
      if (newest > known) throw newerSchemaError('shared', newest, known);
      const next = migrations.find((migration) => !done.has(migration.version));
      if (!next) {
        await client.query('COMMIT');
        return applied;
      }
      await client.query(next.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [next.version, next.name, new Date().toISOString()]);
      await client.query('COMMIT');
      applied.push(next.version);
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      client.off('error', lost);
      client.release(broken ?? false);
    }
  }
}
