import type { SchemaMigration } from './schema-migration';

export const firstPrintGuard: SchemaMigration = {
  version: 12,
  name: 'the bench on print runs and labels; one live first print per order or page',
  sql: () => `
      -- The bench that printed a label or owns a run (its id, settings/bench-id.ts) and its name as
      -- it was then, for "already printed at Bench 3". NULL: written before version 12, on this bench.
      ALTER TABLE print_runs ADD COLUMN bench TEXT;
      ALTER TABLE print_runs ADD COLUMN bench_name TEXT;
      -- Renewed by the live owner while it holds the run; another bench may take the run over only
      -- once it is old (printing/runs/run-ownership.ts).
      ALTER TABLE print_runs ADD COLUMN heartbeat_at TEXT;
      ALTER TABLE print_journal ADD COLUMN bench TEXT;
      ALTER TABLE print_journal ADD COLUMN bench_name TEXT;
      -- 1: a first print, held by the unique indexes below while it is live; NULL: a deliberate
      -- reprint, or an older row left out (an old file may hold duplicates the index would refuse).
      ALTER TABLE print_journal ADD COLUMN guarded INTEGER;
      UPDATE print_journal SET guarded = 1 WHERE reprint_of IS NULL AND order_id IS NOT NULL AND voided_at IS NULL AND (state IN ('queued', 'fetched', 'sent', 'printed') OR (state = 'uncertain' AND decided_at IS NULL))
        AND id = (SELECT min(p.id) FROM print_journal p WHERE p.environment = print_journal.environment AND p.order_id = print_journal.order_id
          AND p.reprint_of IS NULL AND p.voided_at IS NULL AND (p.state IN ('queued', 'fetched', 'sent', 'printed') OR (p.state = 'uncertain' AND p.decided_at IS NULL)));
      UPDATE print_journal SET guarded = 1 WHERE reprint_of IS NULL AND order_id IS NULL AND bundle_id IS NOT NULL AND bundle_position IS NOT NULL AND voided_at IS NULL AND (state IN ('queued', 'fetched', 'sent', 'printed') OR (state = 'uncertain' AND decided_at IS NULL))
        AND id = (SELECT min(p.id) FROM print_journal p WHERE p.environment = print_journal.environment AND p.order_id IS NULL AND p.bundle_id = print_journal.bundle_id
          AND p.format = print_journal.format AND p.bundle_position = print_journal.bundle_position AND p.reprint_of IS NULL AND p.voided_at IS NULL AND (p.state IN ('queued', 'fetched', 'sent', 'printed') OR (p.state = 'uncertain' AND p.decided_at IS NULL)));
      -- Exactly once across benches, by the database: two live first prints of one order (or of
      -- one page of a bundle whose order is unknown) cannot both be written.
      CREATE UNIQUE INDEX print_journal_first_print ON print_journal (environment, order_id)
        WHERE guarded = 1 AND order_id IS NOT NULL AND voided_at IS NULL AND (state IN ('queued', 'fetched', 'sent', 'printed') OR (state = 'uncertain' AND decided_at IS NULL));
      CREATE UNIQUE INDEX print_journal_first_page ON print_journal (environment, bundle_id, format, bundle_position)
        WHERE guarded = 1 AND order_id IS NULL AND bundle_id IS NOT NULL AND bundle_position IS NOT NULL AND voided_at IS NULL AND (state IN ('queued', 'fetched', 'sent', 'printed') OR (state = 'uncertain' AND decided_at IS NULL));
    `,
};
