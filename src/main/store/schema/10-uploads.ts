import { environment } from './columns';
import type { SchemaMigration } from './schema-migration';

export const uploads: SchemaMigration = {
  version: 10,
  name: 'spreadsheet uploads',
  sql: (dialect) => `
      -- One spreadsheet upload: its file, the locations it may create for, where it stands.
      CREATE TABLE uploads (
        id TEXT PRIMARY KEY,
        ${environment},
        file_name TEXT NOT NULL,
        columns TEXT NOT NULL,        -- JSON: the file's header, in order (the report repeats it)
        locations TEXT NOT NULL,      -- JSON: the location ids rows may name
        state TEXT NOT NULL CHECK (state IN ('previewed', 'running', 'paused', 'cancelled', 'finished')),
        printer_id TEXT,              -- print the labels on this printer once every row is settled
        print_run_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )${dialect.withoutRowid};
      CREATE INDEX uploads_by_environment ON uploads (environment, created_at);

      -- Every data row of an upload with its own cells and what became of it. The creation itself
      -- is decided by the creation ledger (order reference + parcel 1); this row mirrors it.
      CREATE TABLE upload_rows (
        upload_id TEXT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
        row_number INTEGER NOT NULL,  -- in the file, the header being 1
        batch INTEGER NOT NULL,       -- consecutive batches of at most 1,000 rows
        order_ref TEXT,
        location_id TEXT,
        cells TEXT NOT NULL,          -- JSON: column -> text, as read
        request TEXT,                 -- JSON: the order to create (ready rows)
        state TEXT NOT NULL CHECK (state IN ('ready', 'invalid', 'skipped', 'created', 'failed', 'unknown', 'cancelled')),
        problems TEXT NOT NULL,       -- JSON: codes and facts
        skip TEXT,                    -- JSON: why it was skipped
        order_id TEXT,
        barcode TEXT,
        tracking_url TEXT,
        bundle_id TEXT,
        PRIMARY KEY (upload_id, row_number)
      )${dialect.withoutRowid};
      CREATE INDEX upload_rows_by_state ON upload_rows (upload_id, state, row_number);
    `,
};
