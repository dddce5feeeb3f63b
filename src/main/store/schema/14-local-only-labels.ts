import type { SchemaMigration } from './schema-migration';

export const localOnlyLabels: SchemaMigration = {
  version: 14,
  name: "a bench's local-only labels and their merge into the shared journal",
  sql: (dialect) => `
      -- Printed while the warehouse's shared store was offline, on a lead's word: the reason and
      -- the lead, on the bench's own file (NULL: an ordinary label).
      ALTER TABLE print_journal ADD COLUMN local_only TEXT;
      ALTER TABLE print_journal ADD COLUMN local_only_by TEXT;
      -- On the bench's file: when the label went into the shared journal (NULL: not yet).
      ALTER TABLE print_journal ADD COLUMN merged_at TEXT;
      -- In the shared journal: the bench id and local row id it came from (a second merge after
      -- a crash finds it), and the live print its order already had (printed twice while offline).
      ALTER TABLE print_journal ADD COLUMN local_ref TEXT;
      ALTER TABLE print_journal ADD COLUMN duplicate_of ${dialect.bigint};
      CREATE UNIQUE INDEX print_journal_by_local_ref ON print_journal (local_ref) WHERE local_ref IS NOT NULL;
      CREATE INDEX print_journal_unmerged ON print_journal (id) WHERE local_only IS NOT NULL AND merged_at IS NULL;
      CREATE INDEX print_journal_offline_duplicates ON print_journal (environment, id) WHERE duplicate_of IS NOT NULL;
      -- Each bench copies the orders changed since its last copy into its own file, for scans while
      -- the shared store is offline (orders/order-copy.ts): read in pages by change time.
      CREATE INDEX orders_by_change ON orders (updated_at, environment, order_id);
    `,
};
