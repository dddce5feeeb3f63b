/**
 * Both engines must hold the same schema: the same migration versions, tables, columns (type
 * family, NULL allowed, default), primary keys, unique constraints, CHECK constraints, foreign keys
 * and indexes (columns, unique, the WHERE of a partial index). Exactly-once printing rests on the
 * unique and partial unique indexes, so one engine lacking one is a failure here, named. Each side
 * is read from a real, freshly migrated database (SQLite: sqlite_master and its pragmas;
 * PostgreSQL: information_schema and pg_catalog). The schema is written once
 * (src/main/store/schema); what this guards is the dialect table and the few parts written for
 * one engine alone.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type StationDatabase } from '../../../src/main/store/database';
import { PostgresEngine } from '../../../src/main/store/engine/postgres-engine';
import { migrationsFor, sqlite as sqliteDialect } from '../../../src/main/store/schema';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';
import { postgresConfig } from './engines';

interface Column {
  type: string;
  nullable: boolean;
  default: string | null;
}

interface Index {
  columns: string;
  unique: boolean;
  /** The WHERE of a partial index, normalised (see expression); null when it covers every row. */
  where: string | null;
}

interface Table {
  columns: Map<string, Column>;
  primaryKey: string;
  /** Each UNIQUE constraint as its column list. */
  uniques: Set<string>;
  /** Each CHECK constraint, normalised. */
  checks: Set<string>;
  /** Each foreign key as "(columns) → table (columns) ON DELETE action". */
  foreignKeys: Set<string>;
  /** Indexes made by CREATE INDEX (not those behind a key or UNIQUE constraint), by name. */
  indexes: Map<string, Index>;
}

interface Schema {
  /** version → migration name */
  versions: Map<number, string>;
  tables: Map<string, Table>;
}

/**
 * An expression as both engines can be compared on: PostgreSQL gives it back rewritten, with casts
 * ('live'::text), `= ANY (ARRAY[...])` for IN, and parentheses around every term. Casts go, ANY
 * becomes IN, parentheses and spacing go on both sides: what stays is every column, operator,
 * keyword and literal in order.
 */
function expression(text: string): string {
  return text
    .replace(/::\w+(\[\])?/g, '')
    .replace(/= ANY \(ARRAY\[([^\]]*)\]\)/g, 'IN ($1)')
    .replace(/[()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

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

/** A CREATE statement without its -- comments (a quoted '--' stays). */
function withoutComments(sql: string): string {
  let out = '';
  let quote: string | null = null;
  for (let index = 0; index < sql.length; index += 1) {
    const char = sql[index]!;
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '-' && sql[index + 1] === '-') {
      const end = sql.indexOf('\n', index);
      index = end === -1 ? sql.length : end - 1;
      continue;
    }
    out += char;
  }
  return out;
}

/** The expression of every CHECK (...) in a CREATE TABLE statement: SQLite keeps no catalogue of them. */
function sqliteChecks(createTable: string): string[] {
  const sql = withoutComments(createTable);
  const checks: string[] = [];
  for (const match of sql.matchAll(/\bCHECK\s*\(/gi)) {
    const start = match.index + match[0].length;
    let depth = 1;
    let quote: string | null = null;
    let index = start;
    for (; index < sql.length && depth > 0; index += 1) {
      const char = sql[index]!;
      if (quote) {
        if (char === quote) quote = null;
      } else if (char === "'") quote = char;
      else if (char === '(') depth += 1;
      else if (char === ')') depth -= 1;
    }
    checks.push(expression(sql.slice(start, index - 1)));
  }
  return checks;
}

const sqliteDeleteActions: Record<string, string> = { 'NO ACTION': 'NO ACTION', CASCADE: 'CASCADE', RESTRICT: 'RESTRICT', 'SET NULL': 'SET NULL', 'SET DEFAULT': 'SET DEFAULT' };
const postgresDeleteActions: Record<string, string> = { a: 'NO ACTION', c: 'CASCADE', r: 'RESTRICT', n: 'SET NULL', d: 'SET DEFAULT' };

function readSqlite(db: StationDatabase): Schema {
  const all = <T>(sql: string) => db.prepare(sql).all() as T[];
  const versions = new Map(all<{ version: number; name: string }>('SELECT version, name FROM schema_migrations').map((row) => [row.version, row.name]));
  const tables = new Map<string, Table>();
  const names = all<{ name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'");
  for (const { name, sql } of names) {
    const columns = new Map<string, Column>();
    const keyColumns: { name: string; pk: number }[] = [];
    for (const column of all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(`PRAGMA table_info(${name})`)) {
      // A primary key column is NOT NULL on PostgreSQL by definition; SQLite's pragma leaves it out.
      columns.set(column.name, { type: sqliteTypeFamily(column.type), nullable: column.notnull === 0 && column.pk === 0, default: column.dflt_value === null ? null : expression(column.dflt_value) });
      if (column.pk > 0) keyColumns.push(column);
    }
    const uniques = new Set<string>();
    const indexes = new Map<string, Index>();
    for (const index of all<{ name: string; unique: number; origin: string }>(`PRAGMA index_list(${name})`)) {
      const indexColumns = all<{ seqno: number; name: string }>(`PRAGMA index_info(${index.name})`)
        .sort((a, b) => a.seqno - b.seqno)
        .map((column) => column.name)
        .join(', ');
      if (index.origin === 'u') uniques.add(indexColumns);
      if (index.origin !== 'c') continue;
      const [created] = all<{ sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = '${index.name}'`);
      const where = /\bWHERE\b([\s\S]*)$/i.exec(withoutComments(created!.sql));
      indexes.set(index.name, { columns: indexColumns, unique: index.unique === 1, where: where ? expression(where[1]!) : null });
    }
    const foreignKeys = new Map<number, { table: string; from: string[]; to: string[]; onDelete: string }>();
    for (const key of all<{ id: number; seq: number; table: string; from: string; to: string; on_delete: string }>(`PRAGMA foreign_key_list(${name})`)) {
      const entry = foreignKeys.get(key.id) ?? { table: key.table, from: [], to: [], onDelete: sqliteDeleteActions[key.on_delete] ?? key.on_delete };
      entry.from[key.seq] = key.from;
      entry.to[key.seq] = key.to;
      foreignKeys.set(key.id, entry);
    }
    tables.set(name, {
      columns,
      primaryKey: keyColumns.sort((a, b) => a.pk - b.pk).map((column) => column.name).join(', '),
      uniques,
      checks: new Set(sqliteChecks(sql)),
      foreignKeys: new Set([...foreignKeys.values()].map((key) => `(${key.from.join(', ')}) → ${key.table} (${key.to.join(', ')}) ON DELETE ${key.onDelete}`)),
      indexes,
    });
  }
  return { versions, tables };
}

/** The column names of an int2 array of attribute numbers, in order. */
const attributeNames = (numbers: string, table: string) =>
  `(SELECT string_agg(a.attname, ', ' ORDER BY k.i) FROM unnest(${numbers}) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = ${table} AND a.attnum = k.n)`;

async function readPostgres(engine: PostgresEngine): Promise<Schema> {
  const versions = new Map((await engine.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations')).map((row) => [row.version, row.name]));
  const tables = new Map<string, Table>();
  const table = (name: string) => {
    let found = tables.get(name);
    if (!found) {
      found = { columns: new Map(), primaryKey: '', uniques: new Set(), checks: new Set(), foreignKeys: new Set(), indexes: new Map() };
      tables.set(name, found);
    }
    return found;
  };
  const columns = await engine.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>(
    `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default
     FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'`,
  );
  for (const row of columns) {
    table(row.table_name).columns.set(row.column_name, {
      type: postgresTypeFamily(row.data_type),
      nullable: row.is_nullable === 'YES',
      default: row.column_default === null ? null : expression(row.column_default),
    });
  }
  const constraints = await engine.query<{ table_name: string; kind: string; columns: string; definition: string; foreign_table: string | null; foreign_columns: string | null; on_delete: string }>(
    `SELECT t.relname AS table_name, c.contype AS kind, ${attributeNames('c.conkey', 'c.conrelid')} AS columns, pg_get_constraintdef(c.oid) AS definition,
       f.relname AS foreign_table, ${attributeNames('c.confkey', 'c.confrelid')} AS foreign_columns, c.confdeltype AS on_delete
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid LEFT JOIN pg_class f ON f.oid = c.confrelid
     WHERE t.relnamespace = current_schema()::regnamespace AND t.relname <> 'schema_migrations'`,
  );
  for (const row of constraints) {
    const entry = table(row.table_name);
    if (row.kind === 'p') entry.primaryKey = row.columns;
    else if (row.kind === 'u') entry.uniques.add(row.columns);
    else if (row.kind === 'c') entry.checks.add(expression(row.definition.replace(/^CHECK /, '')));
    else if (row.kind === 'f') entry.foreignKeys.add(`(${row.columns}) → ${row.foreign_table} (${row.foreign_columns}) ON DELETE ${postgresDeleteActions[row.on_delete] ?? row.on_delete}`);
  }
  const indexes = await engine.query<{ table_name: string; index_name: string; columns: string; unique: boolean; predicate: string | null }>(
    `SELECT t.relname AS table_name, i.relname AS index_name, ${attributeNames('x.indkey::int2[]', 'x.indrelid')} AS columns, x.indisunique AS unique,
       pg_get_expr(x.indpred, x.indrelid) AS predicate
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relnamespace = current_schema()::regnamespace AND t.relname <> 'schema_migrations'
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
  );
  for (const row of indexes) {
    table(row.table_name).indexes.set(row.index_name, { columns: row.columns, unique: row.unique, where: row.predicate === null ? null : expression(row.predicate) });
  }
  return { versions, tables };
}

/** What one side has and the other lacks, in a set of things said as text. */
function onlyOnOneSide(left: Set<string>, right: Set<string>, say: (item: string) => string): string[] {
  return [
    ...[...left].filter((item) => !right.has(item)).sort().map((item) => `${say(item)} exists on SQLite only`),
    ...[...right].filter((item) => !left.has(item)).sort().map((item) => `${say(item)} exists on PostgreSQL only`),
  ];
}

function tableDifferences(name: string, left: Table, right: Table): string[] {
  const differences: string[] = [];
  for (const column of [...new Set([...left.columns.keys(), ...right.columns.keys()])].sort()) {
    const a = left.columns.get(column);
    const b = right.columns.get(column);
    if (!b) differences.push(`column ${name}.${column} exists on SQLite only`);
    else if (!a) differences.push(`column ${name}.${column} exists on PostgreSQL only`);
    else {
      if (a.type !== b.type) differences.push(`column ${name}.${column} is ${a.type} on SQLite but ${b.type} on PostgreSQL`);
      if (a.nullable !== b.nullable) differences.push(`column ${name}.${column} ${a.nullable ? 'allows' : 'refuses'} NULL on SQLite but ${b.nullable ? 'allows' : 'refuses'} it on PostgreSQL`);
      if (a.default !== b.default) differences.push(`column ${name}.${column} defaults to ${a.default ?? 'nothing'} on SQLite but ${b.default ?? 'nothing'} on PostgreSQL`);
    }
  }
  if (left.primaryKey !== right.primaryKey) differences.push(`primary key of ${name} is (${left.primaryKey}) on SQLite but (${right.primaryKey}) on PostgreSQL`);
  differences.push(...onlyOnOneSide(left.uniques, right.uniques, (columns) => `unique constraint ${name} (${columns})`));
  differences.push(...onlyOnOneSide(left.checks, right.checks, (check) => `CHECK on ${name} (${check})`));
  differences.push(...onlyOnOneSide(left.foreignKeys, right.foreignKeys, (key) => `foreign key ${name} ${key}`));
  for (const index of [...new Set([...left.indexes.keys(), ...right.indexes.keys()])].sort()) {
    const a = left.indexes.get(index);
    const b = right.indexes.get(index);
    if (!b) differences.push(`index ${index} on ${name} exists on SQLite only`);
    else if (!a) differences.push(`index ${index} on ${name} exists on PostgreSQL only`);
    else {
      if (a.columns !== b.columns) differences.push(`index ${index} covers (${a.columns}) on SQLite but (${b.columns}) on PostgreSQL`);
      if (a.unique !== b.unique) differences.push(`index ${index} is ${a.unique ? 'unique' : 'not unique'} on SQLite but ${b.unique ? 'unique' : 'not unique'} on PostgreSQL`);
      if (a.where !== b.where) differences.push(`index ${index} holds rows WHERE ${a.where ?? '(all)'} on SQLite but WHERE ${b.where ?? '(all)'} on PostgreSQL`);
    }
  }
  return differences;
}

/** Every way the two schemas differ, each said as what one engine has and the other lacks. */
function schemaDifferences(sqlite: Schema, postgres: Schema): string[] {
  const differences: string[] = [];
  for (const [version, name] of sqlite.versions) {
    const twin = postgres.versions.get(version);
    if (twin === undefined) differences.push(`migration ${version} (${name}) was applied on SQLite but not on PostgreSQL`);
    else if (twin !== name) differences.push(`migration ${version} is named "${name}" on SQLite but "${twin}" on PostgreSQL`);
  }
  for (const [version, name] of postgres.versions) {
    if (!sqlite.versions.has(version)) differences.push(`migration ${version} (${name}) was applied on PostgreSQL but not on SQLite`);
  }
  for (const name of [...new Set([...sqlite.tables.keys(), ...postgres.tables.keys()])].sort()) {
    const left = sqlite.tables.get(name);
    const right = postgres.tables.get(name);
    if (!right) differences.push(`table ${name} exists on SQLite only (columns: ${[...left!.columns.keys()].join(', ')})`);
    else if (!left) differences.push(`table ${name} exists on PostgreSQL only (columns: ${[...right.columns.keys()].join(', ')})`);
    else differences.push(...tableDifferences(name, left, right));
  }
  return differences;
}

const liveFirstPrint = "voided_at IS NULL AND state IN 'queued', 'fetched', 'sent', 'printed' OR state = 'uncertain' AND decided_at IS NULL";

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

  it('reads the keys, CHECKs and partial unique indexes that exactly-once printing rests on, from each engine', async () => {
    for (const schema of [readSqlite(sqliteDb), await readPostgres(engine)]) {
      const journal = schema.tables.get('print_journal')!;
      expect(journal.indexes.get('print_journal_first_print')).toEqual({ columns: 'environment, order_id', unique: true, where: `guarded = 1 AND order_id IS NOT NULL AND ${liveFirstPrint}` });
      expect(journal.indexes.get('print_journal_first_page')).toEqual({
        columns: 'environment, bundle_id, format, bundle_position',
        unique: true,
        where: `guarded = 1 AND order_id IS NULL AND bundle_id IS NOT NULL AND bundle_position IS NOT NULL AND ${liveFirstPrint}`,
      });
      expect(journal.checks).toContain("state IN 'queued', 'fetched', 'sent', 'printed', 'failed', 'uncertain'");
      expect(journal.foreignKeys).toContain('(run_id) → print_runs (id) ON DELETE NO ACTION');
      expect(schema.tables.get('creation_ledger')!.indexes.get('creation_ledger_by_service_ref')).toEqual({ columns: 'environment, service_ref', unique: true, where: null });
      expect(schema.tables.get('creation_ledger')!.checks).toContain('parcel >= 1');
      expect(schema.tables.get('creation_ledger')!.primaryKey).toBe('environment, order_ref, parcel');
      expect(schema.tables.get('pull_notices')!.uniques).toEqual(new Set(['environment, order_id, status']));
      expect(schema.tables.get('manifest_imports')!.checks).toContain("state IN 'running', 'finished', 'failed', 'interrupted'");
    }
  });

  it('has the same versions, tables, columns, keys, CHECKs and indexes on freshly migrated SQLite and PostgreSQL', async () => {
    const sqlite = readSqlite(sqliteDb);
    const postgres = await readPostgres(engine);
    expect(sqlite.tables.size).toBeGreaterThanOrEqual(14);
    expect(schemaDifferences(sqlite, postgres)).toEqual([]);
  });

  it('names exactly what is missing when a migration reaches only one engine', async () => {
    // A next migration applied on SQLite alone.
    const next = Math.max(...migrationsFor(sqliteDialect).map((migration) => migration.version)) + 1;
    const ahead = openDatabase(':memory:');
    try {
      ahead.exec(`
        CREATE TABLE upload_ledger (environment TEXT NOT NULL, upload_id TEXT NOT NULL, rows INTEGER, PRIMARY KEY (environment, upload_id));
        ALTER TABLE orders ADD COLUMN uploaded_at TEXT;
      `);
      ahead.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'upload ledger', '2026-11-24T00:00:00.000Z')").run(next);
      expect(schemaDifferences(readSqlite(ahead), await readPostgres(engine))).toEqual([
        `migration ${next} (upload ledger) was applied on SQLite but not on PostgreSQL`,
        'column orders.uploaded_at exists on SQLite only',
        'table upload_ledger exists on SQLite only (columns: environment, upload_id, rows)',
      ]);
    } finally {
      ahead.close();
    }
  });

  it('names an index, a unique constraint or a CHECK that one engine lacks', async () => {
    const lacking = await createTestDatabase(inject('postgres'));
    const lackingEngine = await PostgresEngine.open(postgresConfig(lacking.info));
    const withoutFirstPrint = openDatabase(':memory:');
    try {
      const [unique] = await lackingEngine.query<{ conname: string }>("SELECT conname FROM pg_constraint WHERE conrelid = 'pull_notices'::regclass AND contype = 'u'");
      await lackingEngine.execute('DROP INDEX print_journal_first_page');
      await lackingEngine.execute(`ALTER TABLE pull_notices DROP CONSTRAINT "${unique!.conname}"`);
      await lackingEngine.execute('ALTER TABLE creation_ledger DROP CONSTRAINT creation_ledger_parcel_check');
      withoutFirstPrint.exec('DROP INDEX print_journal_first_print');
      expect(schemaDifferences(readSqlite(withoutFirstPrint), await readPostgres(lackingEngine))).toEqual([
        'CHECK on creation_ledger (parcel >= 1) exists on SQLite only',
        'index print_journal_first_page on print_journal exists on SQLite only',
        'index print_journal_first_print on print_journal exists on PostgreSQL only',
        'unique constraint pull_notices (environment, order_id, status) exists on SQLite only',
      ]);
    } finally {
      withoutFirstPrint.close();
      await lackingEngine.close();
      await lacking.drop();
    }
  });
});
