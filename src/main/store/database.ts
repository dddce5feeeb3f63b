import Database from 'libsql';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { newerSchemaError } from './newer-schema';
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
 *
 * A file a newer station migrated (a bench rolled back, an older CLI beside an updated app) is
 * refused before anything opens it for writing: its schema version is read through a read-only
 * connection, and not one byte of it changes (STORE_NEWER_THAN_STATION). A file whose log still
 * holds transactions is checked by `migrate` instead, before any migration runs.
 */
export function openDatabase(path: string): StationDatabase {
  if (path !== ':memory:') {
    refuseNewerFile(path);
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

const migrations = migrationsFor(sqlite);
/** The newest schema version of the bench's file this station knows. */
export const knownSqliteVersion = Math.max(0, ...migrations.map((migration) => migration.version));

/**
 * Throws STORE_NEWER_THAN_STATION when the file at `path` was migrated past what this station knows.
 *
 * Only a file whose write-ahead log is empty is read this way. A log with frames in it belongs to
 * a station that is running or was killed: a read-only connection that is the last to close such a
 * file can lose the log's last transactions (seen after a killed print run: a label journaled sent
 * was forgotten and printed again). Such a file is checked by `migrate` instead, on the connection
 * that recovers the log.
 */
function refuseNewerFile(path: string): void {
  if (!existsSync(path)) return;
  const log = `${path}-wal`;
  if (existsSync(log) && statSync(log).size > 0) return;
  const reader = new Database(path, { readonly: true, fileMustExist: true });
  let newest = 0;
  try {
    reader.pragma('busy_timeout = 5000');
    const tracked = reader.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (tracked) newest = Number((reader.prepare('SELECT max(version) AS version FROM schema_migrations').get() as { version: number | null }).version ?? 0);
  } finally {
    reader.close();
  }
  if (newest > knownSqliteVersion) throw newerSchemaError('bench-file', newest, knownSqliteVersion);
}

function migrate(db: StationDatabase): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((row) => row.version),
  );
  // Checked again here: a newer station may have migrated the file since it was looked at.
  const newest = Math.max(0, ...applied);
  if (newest > knownSqliteVersion) throw newerSchemaError('bench-file', newest, knownSqliteVersion);
  for (const migration of migrations) {
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
