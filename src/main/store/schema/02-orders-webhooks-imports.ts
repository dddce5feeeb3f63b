import { environment } from './columns';
import type { SchemaMigration } from './schema-migration';

export const ordersWebhooksImports: SchemaMigration = {
  version: 2,
  name: 'order index, webhook events, manifest imports',
  sql: (dialect) => `
      -- One row per order the station knows, per environment. Identifiers are stored normalised
      -- exactly as a scan is (src/shared/scan.ts), so a scan compares equal with '='.
      CREATE TABLE orders (
        ${environment},
        order_id TEXT NOT NULL,
        order_ref TEXT,
        barcode TEXT,
        bundle_id TEXT,
        recipient TEXT,
        status TEXT,                  -- last known status, NULL when never told
        status_updated_at TEXT,       -- the service's updatedAt of that status; NULL when the source had none
        source TEXT NOT NULL CHECK (source IN ('created', 'import', 'webhook', 'lookup', 'api')),
        created_at TEXT NOT NULL,     -- when the station first learnt of the order
        updated_at TEXT NOT NULL,
        PRIMARY KEY (environment, order_id)
      )${dialect.withoutRowid};
      CREATE INDEX orders_by_ref ON orders (environment, order_ref) WHERE order_ref IS NOT NULL;
      CREATE INDEX orders_by_barcode ON orders (environment, barcode) WHERE barcode IS NOT NULL;
      CREATE INDEX orders_by_bundle ON orders (environment, bundle_id) WHERE bundle_id IS NOT NULL;

      -- Webhook status events already seen and what became of them. One event is one order id +
      -- status + the service's time of it: a re-delivery repeats all three, while a status the
      -- order really enters twice (a second delivery attempt) has a later time.
      CREATE TABLE webhook_events (
        ${environment},
        order_id TEXT NOT NULL,
        status TEXT NOT NULL,
        event_updated_at TEXT NOT NULL,
        previous_status TEXT,
        outcome TEXT NOT NULL CHECK (outcome IN ('applied', 'same', 'ignored-backward', 'ignored-terminal')),
        received_at TEXT NOT NULL,
        PRIMARY KEY (environment, order_id, status, event_updated_at)
      )${dialect.withoutRowid};

      -- One row per manifest import: the report a lead can look back on.
      CREATE TABLE manifest_imports (
        id TEXT PRIMARY KEY,
        ${environment},
        file_name TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('csv', 'xlsx')),
        -- Named, so that version 7 can widen it on PostgreSQL (SQLite rebuilds the table instead).
        state TEXT NOT NULL CONSTRAINT manifest_imports_state_check CHECK (state IN ('running', 'finished', 'failed')),
        rows_read INTEGER NOT NULL DEFAULT 0,
        rows_inserted INTEGER NOT NULL DEFAULT 0,
        rows_updated INTEGER NOT NULL DEFAULT 0,
        rows_failed INTEGER NOT NULL DEFAULT 0,
        message TEXT,
        started_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX manifest_imports_by_environment ON manifest_imports (environment, started_at);
    `,
};
