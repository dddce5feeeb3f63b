/**
 * The shared store's migrations when benches start: several at once on an empty store, and a
 * station older than the store's schema.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import { migrationsFor, postgres } from '../../../src/main/store/schema';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';
import { postgresConfig } from './engines';

describe('PostgreSQL migrations', () => {
  const opened: PostgresEngine[] = [];
  let database: TestDatabase | undefined;
  afterEach(async () => {
    for (const engine of opened.splice(0)) await engine.close();
    await database?.drop();
    database = undefined;
  });

  it('four benches starting together on an empty store: every migration applied once, by one of them', async () => {
    database = await createTestDatabase(inject('postgres'));
    const benches = Array.from({ length: 4 }, () => new PostgresEngine(postgresConfig(database!.info)));
    opened.push(...benches);
    const appliedBy = await Promise.all(benches.map((bench) => bench.migrate()));
    const all = migrationsFor(postgres).map((migration) => migration.version);
    expect(appliedBy.flat().sort((a, b) => a - b)).toEqual(all);
    const rows = await benches[0]!.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(all);
    // A later start finds nothing to do.
    expect(await benches[1]!.migrate()).toEqual([]);
  });

  it('refuses a store already migrated past what this station knows', async () => {
    database = await createTestDatabase(inject('postgres'));
    const newer = await PostgresEngine.open(postgresConfig(database.info));
    opened.push(newer);
    await newer.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from a newer station', '2026-11-24T00:00:00.000Z')");
    const known = Math.max(...migrationsFor(postgres).map((migration) => migration.version));
    await expect(PostgresEngine.open(postgresConfig(database.info))).rejects.toThrow(`version 99, newer than this station knows (${known})`);
  });
});
