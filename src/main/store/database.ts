import Database from 'libsql';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrationsFor, sqlite } from './schema';
import { ensurePrivateFile, PRIVATE_FOLDER_MODE } from './private-files';

export type StationDatabase = InstanceType<typeof Database>;

const SYNCHRONOUS = 'FULL';

/**
 * Opens (creating if needed) the station's SQLite file: WAL so readers never wait for the
 * print queue's writes, and `synchronous = FULL` so a commit is on disk before the call returns.
 * The journal records "sending began" before a label's first byte leaves; with anything less a
 * power cut could forget that row and let a resumed run print the label twice. Every migration
 * not yet applied runs in its own transaction. A new file is created owner-only (0600, and so
 * are its -wal and -shm): it holds the webhook secret.
 */
export function openDatabase(path: string): StationDatabase {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    ensurePrivateFile(path);
  }
  const db = new Database(path);
  // First: every statement after it, the journal mode's too, waits for a lock another process
  // holds for a moment (the CLI beside the app, a process started after a crash) instead of failing.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${SYNCHRONOUS}`);
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: StationDatabase): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((row) => row.version),
  );
  for (const migration of migrationsFor(sqlite)) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    })();
  }
}

/**
 * Relaxes the wait for the disk for one asynchronous commit; the function returned restores it.
 * The commit is written to the WAL but not flushed: it becomes durable with the next commit that
 * does wait (the WAL is written in order and that flush covers everything before it), and a power
 * cut before then loses it (never half of it). Only for rows whose loss in a power cut loses
 * nothing that happened, such as a scan's run before any byte of its label has left (its "sending
 * began" is a full commit). A process crash loses nothing either way.
 */
export function relaxDiskWait(db: StationDatabase): () => void {
  db.exec('PRAGMA synchronous = NORMAL');
  return () => db.exec(`PRAGMA synchronous = ${SYNCHRONOUS}`);
}
