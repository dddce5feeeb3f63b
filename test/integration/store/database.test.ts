import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/store/database';
import { migrationsFor, sqlite } from '../../../src/main/store/schema';

describe('station database', () => {
  const dirs: string[] = [];
  const freshPath = () => {
    const dir = mkdtempSync(join(tmpdir(), 'station-db-'));
    dirs.push(dir);
    return join(dir, 'nested', 'station.db');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('creates its folder, runs in WAL mode and applies every migration once', () => {
    const path = freshPath();
    const db = openDatabase(path);
    expect(db.prepare('PRAGMA journal_mode').raw(true).get()).toEqual(['wal']);
    // FULL (2): a journal row is on disk before the label's bytes leave, even across a power cut.
    expect(db.prepare('PRAGMA synchronous').raw(true).get()).toEqual([2]);
    const versions = db.prepare('SELECT version FROM schema_migrations ORDER BY version').raw(true).all().map((row) => (row as [number])[0]);
    expect(versions).toEqual(migrationsFor(sqlite).map((migration) => migration.version));
    db.close();

    const again = openDatabase(path);
    const count = again.prepare('SELECT count(*) FROM schema_migrations').raw(true).get() as [number];
    expect(count[0]).toBe(migrationsFor(sqlite).length);
    again.close();
  });

  it('numbers migrations in order without gaps', () => {
    expect(migrationsFor(sqlite).map((migration) => migration.version)).toEqual(migrationsFor(sqlite).map((_, index) => index + 1));
  });

  it('tags every row of orders, journal, printers and settings with its environment', () => {
    const db = openDatabase(freshPath());
    for (const table of ['orders', 'print_journal', 'print_runs', 'printers', 'webhook_events', 'manifest_imports']) {
      const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; notnull: number }[];
      expect(columns.find((column) => column.name === 'environment'), table).toMatchObject({ notnull: 1 });
    }
    const settingsColumns = db.prepare('PRAGMA table_info(settings)').all() as { name: string }[];
    expect(settingsColumns.map((column) => column.name)).toContain('scope');
    db.close();
  });

  it('refuses rows for an environment that does not exist and journal states outside the list', () => {
    const db = openDatabase(freshPath());
    const now = new Date().toISOString();
    expect(() =>
      db.prepare(`INSERT INTO orders (environment, order_id, source, created_at, updated_at) VALUES ('staging', 'A', 'import', ?, ?)`).run(now, now),
    ).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare(`INSERT INTO print_journal (environment, printer_id, operator, format, state, queued_at, updated_at) VALUES ('test', 'p', 'o', 'zpl', 'lost', ?, ?)`)
        .run(now, now),
    ).toThrow(/CHECK/);
    db.close();
  });

  it('allows one default printer per role and environment', () => {
    const db = openDatabase(freshPath());
    const now = new Date().toISOString();
    const add = db.prepare(
      `INSERT INTO printers (environment, id, name, kind, address, orientation, default_for_single, created_at, updated_at) VALUES (?, ?, 'Zebra', 'zebra-network', '{}', 'landscape', 1, ?, ?)`,
    );
    add.run('test', 'a', now, now);
    add.run('live', 'a', now, now);
    expect(() => add.run('test', 'b', now, now)).toThrow(/UNIQUE/);
    db.close();
  });

  it('waits for a file another process has locked for a moment, rather than failing to open it', async () => {
    const path = freshPath();
    // The file as another program left it (not yet in WAL mode), so the station must change its
    // journal mode, which needs the lock that program holds for a moment.
    mkdirSync(dirname(path));
    const other = new Database(path);
    other.exec('CREATE TABLE notes (text TEXT)');
    other.close();
    const holder = spawn(
      process.execPath,
      ['-e', `const db = new (require('libsql'))(${JSON.stringify(path)}); db.exec('BEGIN EXCLUSIVE'); console.log('locked'); setTimeout(() => { db.exec('COMMIT'); db.close(); }, 400);`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    await new Promise<void>((resolve) => createInterface({ input: holder.stdout! }).once('line', () => resolve()));
    const db = openDatabase(path);
    expect(db.prepare('PRAGMA journal_mode').raw(true).get()).toEqual(['wal']);
    db.close();
    expect(await exited).toBe(0);
  });
});
