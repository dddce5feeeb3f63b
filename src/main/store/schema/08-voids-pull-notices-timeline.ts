import { environment } from './columns';
import type { SchemaMigration } from './schema-migration';

export const voidsPullNoticesTimeline: SchemaMigration = {
  version: 8,
  name: 'voided labels, pull-this-parcel notices and the status timeline',
  sql: (dialect) => `
      -- A lead's cancellation (void). Kept as columns rather than a new value of print_journal.state:
      -- SQLite cannot widen that CHECK without rebuilding the table, and a rebuild here would drop
      -- columns other migrations add to it. A label with voided_at set reads as state 'voided'.
      ALTER TABLE print_journal ADD COLUMN voided_at TEXT;
      ALTER TABLE print_journal ADD COLUMN voided_by TEXT;
      ALTER TABLE print_journal ADD COLUMN void_reason TEXT;
      -- The order the service cancelled at this station's request: who, when and why, for the scan's refusal.
      ALTER TABLE orders ADD COLUMN voided_at TEXT;
      ALTER TABLE orders ADD COLUMN voided_by TEXT;
      ALTER TABLE orders ADD COLUMN void_reason TEXT;

      -- "Pull this parcel": a webhook closed an order whose label this station printed. Stays until a lead acknowledges it.
      CREATE TABLE pull_notices (
        id ${dialect.autoincrementId},
        ${environment},
        order_id TEXT NOT NULL,
        status TEXT NOT NULL,           -- cancelled, rejected, address_not_found or error
        event_updated_at TEXT NOT NULL,
        journal_id ${dialect.bigint},             -- the label this station printed
        bench TEXT NOT NULL,            -- the station name when the notice was raised
        printed_at TEXT,
        raised_at TEXT NOT NULL,
        acknowledged_by TEXT,
        acknowledged_at TEXT,
        UNIQUE (environment, order_id, status)
      );
      CREATE INDEX pull_notices_open ON pull_notices (environment, acknowledged_at);

      -- Every status event applied or weighed for an order (duplicates dropped before), for its timeline.
      CREATE TABLE order_status_timeline (
        ${environment},
        order_id TEXT NOT NULL,
        status TEXT NOT NULL,
        previous_status TEXT,
        attempt INTEGER,
        event_updated_at TEXT NOT NULL,
        received_at TEXT NOT NULL,
        outcome TEXT NOT NULL,          -- applied, same, ignored-backward, ignored-terminal
        tracking_url TEXT,
        weight_grams INTEGER,
        location_id INTEGER,
        PRIMARY KEY (environment, order_id, status, event_updated_at)
      )${dialect.withoutRowid};
    `,
};
