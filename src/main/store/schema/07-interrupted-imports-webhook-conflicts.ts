import { environment } from './columns';
import type { Dialect } from '../engine/dialect';
import type { SchemaMigration } from './schema-migration';

/**
 * An import can now end 'interrupted' (the station stopped while it ran: found at the next start),
 * and says which process ran it, so a start never takes another live process's import for a dead
 * one. Written per dialect because SQLite cannot change a CHECK: it rebuilds the table, where
 * PostgreSQL replaces the constraint version 2 named for this.
 */
const interruptedImports: Record<Dialect['name'], string> = {
  sqlite: `CREATE TABLE manifest_imports_v7 (
        id TEXT PRIMARY KEY,
        ${environment},
        file_name TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('csv', 'xlsx')),
        state TEXT NOT NULL CHECK (state IN ('running', 'finished', 'failed', 'interrupted')),
        rows_read INTEGER NOT NULL DEFAULT 0,
        rows_inserted INTEGER NOT NULL DEFAULT 0,
        rows_updated INTEGER NOT NULL DEFAULT 0,
        rows_failed INTEGER NOT NULL DEFAULT 0,
        message TEXT,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        owner_host TEXT,              -- the machine and process that ran it (os hostname, pid)
        owner_pid INTEGER
      );
      INSERT INTO manifest_imports_v7 (id, environment, file_name, format, state, rows_read, rows_inserted, rows_updated, rows_failed, message, started_at, finished_at)
        SELECT id, environment, file_name, format, state, rows_read, rows_inserted, rows_updated, rows_failed, message, started_at, finished_at FROM manifest_imports;
      DROP TABLE manifest_imports;
      ALTER TABLE manifest_imports_v7 RENAME TO manifest_imports;
      CREATE INDEX manifest_imports_by_environment ON manifest_imports (environment, started_at);`,
  postgres: `ALTER TABLE manifest_imports DROP CONSTRAINT manifest_imports_state_check;
      ALTER TABLE manifest_imports ADD CONSTRAINT manifest_imports_state_check CHECK (state IN ('running', 'finished', 'failed', 'interrupted'));
      ALTER TABLE manifest_imports ADD COLUMN owner_host TEXT;
      ALTER TABLE manifest_imports ADD COLUMN owner_pid INTEGER;`,
};

export const interruptedImportsWebhookConflicts: SchemaMigration = {
  version: 7,
  name: 'interrupted imports and webhook conflicts',
  sql: (dialect) => `
      ${interruptedImports[dialect.name]}

      -- Webhook events set before a lead: an identifier that would change (a barcode moving to
      -- another order), a status after a terminal one, a time in the future (all three not
      -- applied), or an order closed before it left the station (applied, so a forged
      -- cancellation is seen). Kept as evidence; one row per event and kind.
      CREATE TABLE webhook_conflicts (
        id ${dialect.autoincrementId},
        ${environment},
        order_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('identifier', 'status', 'future', 'terminal')),
        status TEXT NOT NULL,          -- the status the event claimed
        event_updated_at TEXT NOT NULL,
        known TEXT,                    -- JSON: what the station knew when the event came; NULL for an unknown order
        claimed TEXT NOT NULL,         -- JSON: what the event said
        applied INTEGER NOT NULL CHECK (applied IN (0, 1)),
        message TEXT NOT NULL,
        received_at TEXT NOT NULL,
        settled_decision TEXT CHECK (settled_decision IN ('confirm', 'reverse')),
        settled_by TEXT,
        settled_at TEXT,
        UNIQUE (environment, order_id, status, event_updated_at, kind)
      );
      CREATE INDEX webhook_conflicts_by_time ON webhook_conflicts (environment, received_at);
    `,
};
