/**
 * Both engines must hold the same schema: the same migration versions, tables and columns (type
 * family and whether NULL is allowed). Each side is read from a real, freshly migrated database
 * (sqlite_master + PRAGMA table_info; information_schema), so a migration added to one engine and
 * not the other fails here, naming what is missing where.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type StationDatabase } from '../../../src/main/store/database';
import { migrations } from '../../../src/main/store/migrations';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import { postgresMigrations } from '../../../src/main/store/engine/postgres-migrations';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';
import { postgresConfig } from './engines';

interface Column {
  type: 'integer' | 'text' | string;
  nullable: boolean;
}

interface Schema {
  /** version → migration name */
  versions: Map<number, string>;
  /** table → column → facts */
  tables: Map<string, Map<string, Column>>;
}

const sqliteFile = 'src/main/store/migrations.ts';
const postgresFile = 'src/main/store/engine/postgres-migrations.ts';

function sqliteTypeFamily(declared: string): string {
  const upper = declared.toUpperCase();
  if (upper.includes('INT')) return 'integer';
  if (upper.includes('TEXT') || upper.includes('CHAR')) return 'text';
  return declared.toLowerCase();
}

function postgresTypeFamily(dataType: string): string {
  if (['integer', 'bigint', 'smallint'].includes(dataType)) return 'integer';
  if (['text', 'character varying'].includes(dataType)) return 'text';
  return dataType;
}

function readSqlite(db: StationDatabase): Schema {
  const versions = new Map((db.prepare('SELECT version, name FROM schema_migrations').all() as { version: number; name: string }[]).map((row) => [row.version, row.name]));
  const tables = new Map<string, Map<string, Column>>();
  const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'").all() as { name: string }[];
  for (const { name } of names) {
    const columns = new Map<string, Column>();
    for (const column of db.prepare(`PRAGMA table_info(${name})`).all() as { name: string; type: string; notnull: number; pk: number }[]) {
      // A primary key column is NOT NULL on PostgreSQL by definition; SQLite's pragma leaves it out.
      columns.set(column.name, { type: sqliteTypeFamily(column.type), nullable: column.notnull === 0 && column.pk === 0 });
    }
    tables.set(name, columns);
  }
  return { versions, tables };
}

async function readPostgres(engine: PostgresEngine): Promise<Schema> {
  const versions = new Map((await engine.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations')).map((row) => [row.version, row.name]));
  const rows = await engine.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
    `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable
     FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'`,
  );
  const tables = new Map<string, Map<string, Column>>();
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? new Map<string, Column>();
    columns.set(row.column_name, { type: postgresTypeFamily(row.data_type), nullable: row.is_nullable === 'YES' });
    tables.set(row.table_name, columns);
  }
  return { versions, tables };
}

/** Every way the two schemas differ, each said as what to add or fix where. */
function schemaDifferences(sqlite: Schema, postgres: Schema): string[] {
  const differences: string[] = [];
  for (const [version, name] of sqlite.versions) {
    const twin = postgres.versions.get(version);
    if (twin === undefined) differences.push(`migration ${version} (${name}) is in ${sqliteFile} but has no PostgreSQL twin in ${postgresFile}`);
    else if (twin !== name) differences.push(`migration ${version} is named "${name}" on SQLite but "${twin}" on PostgreSQL`);
  }
  for (const [version, name] of postgres.versions) {
    if (!sqlite.versions.has(version)) differences.push(`migration ${version} (${name}) is in ${postgresFile} but not in ${sqliteFile}`);
  }
  const tableNames = [...new Set([...sqlite.tables.keys(), ...postgres.tables.keys()])].sort();
  for (const table of tableNames) {
    const left = sqlite.tables.get(table);
    const right = postgres.tables.get(table);
    if (!right) {
      differences.push(`table ${table} exists on SQLite only (columns: ${[...left!.keys()].join(', ')})`);
      continue;
    }
    if (!left) {
      differences.push(`table ${table} exists on PostgreSQL only (columns: ${[...right.keys()].join(', ')})`);
      continue;
    }
    for (const column of [...new Set([...left.keys(), ...right.keys()])].sort()) {
      const a = left.get(column);
      const b = right.get(column);
      if (!b) differences.push(`column ${table}.${column} exists on SQLite only`);
      else if (!a) differences.push(`column ${table}.${column} exists on PostgreSQL only`);
      else {
        if (a.type !== b.type) differences.push(`column ${table}.${column} is ${a.type} on SQLite but ${b.type} on PostgreSQL`);
        if (a.nullable !== b.nullable) differences.push(`column ${table}.${column} ${a.nullable ? 'allows' : 'refuses'} NULL on SQLite but ${b.nullable ? 'allows' : 'refuses'} it on PostgreSQL`);
      }
    }
  }
  return differences;
}

describe('the two engines share one schema', () => {
  let database: TestDatabase;
  let engine: PostgresEngine;
  let sqliteDb: StationDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(inject('postgres'));
    engine = await PostgresEngine.open(postgresConfig(database.info));
    sqliteDb = openDatabase(':memory:');
  });
  afterAll(async () => {
    sqliteDb?.close();
    await engine?.close();
    await database?.drop();
  });

  it('lists the same migration versions in both files', () => {
    expect(postgresMigrations.map((migration) => [migration.version, migration.name])).toEqual(migrations.map((migration) => [migration.version, migration.name]));
  });

  it('has the same versions, tables and columns (type and NULL) on freshly migrated SQLite and PostgreSQL', async () => {
    const sqlite = readSqlite(sqliteDb);
    const postgres = await readPostgres(engine);
    expect(sqlite.tables.size).toBeGreaterThanOrEqual(14);
    expect(schemaDifferences(sqlite, postgres)).toEqual([]);
  });

  it('names exactly what is missing when a migration reaches only one engine', async () => {
    // A next migration added to SQLite alone.
    const next = Math.max(...migrations.map((migration) => migration.version)) + 1;
    const ahead = openDatabase(':memory:');
    try {
      ahead.exec(`
        CREATE TABLE upload_ledger (environment TEXT NOT NULL, upload_id TEXT NOT NULL, rows INTEGER, PRIMARY KEY (environment, upload_id));
        ALTER TABLE orders ADD COLUMN uploaded_at TEXT;
      `);
      ahead.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'upload ledger', '2026-11-24T00:00:00.000Z')").run(next);
      expect(schemaDifferences(readSqlite(ahead), await readPostgres(engine))).toEqual([
        `migration ${next} (upload ledger) is in ${sqliteFile} but has no PostgreSQL twin in ${postgresFile}`,
        'column orders.uploaded_at exists on SQLite only',
        'table upload_ledger exists on SQLite only (columns: environment, upload_id, rows)',
      ]);
    } finally {
      ahead.close();
    }
  });
});
