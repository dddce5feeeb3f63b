import { environment } from './columns';
import type { SchemaMigration } from './schema-migration';

/**
 * The lead's floor (src/main/floor): what each running bench says about itself, and the lead's
 * actions sent to a bench through the store. It only adds tables and an index of its own.
 */
export const benchFloor: SchemaMigration = {
  version: 18,
  name: "the lead's floor: bench reports and the lead's actions",
  sql: (dialect) => `
      -- One row per bench (its id from its local settings), rewritten on each change of the bench
      -- and every 10 s as a heartbeat. report: JSON (shared/contract/floor.ts BenchReportSchema).
      -- sequence grows with every write of the bench, so a reader keeps the newest of two it hears.
      CREATE TABLE bench_floor (
        bench TEXT NOT NULL PRIMARY KEY,
        bench_name TEXT NOT NULL,
        report TEXT NOT NULL,
        sequence ${dialect.bigint} NOT NULL,
        reported_at TEXT NOT NULL
      )${dialect.withoutRowid};

      -- A lead's action on a bench, journaled: who (operator, from which bench), what, on which
      -- run or label (target: run:<id>, label:<id>, printer:<id>), and what the bench answered.
      -- after_command: the last action on the same target the lead saw; two leads acting on what
      -- they both saw write the same key, and the unique index lets one of them in.
      CREATE TABLE floor_commands (
        id ${dialect.autoincrementId},
        ${environment},
        bench TEXT NOT NULL,
        bench_name TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('pause', 'resume', 'cancel', 'settle-printed', 'settle-print-again', 'send-bundles')),
        target TEXT NOT NULL,
        after_command ${dialect.bigint} NOT NULL,
        input TEXT NOT NULL,
        operator TEXT NOT NULL,
        from_bench TEXT NOT NULL,
        from_bench_name TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'applying', 'done', 'failed', 'expired')),
        outcome TEXT,
        created_at TEXT NOT NULL,
        settled_at TEXT
      );
      CREATE UNIQUE INDEX floor_commands_one_after_another ON floor_commands (environment, target, after_command);
      CREATE INDEX floor_commands_waiting ON floor_commands (bench, state) WHERE state IN ('pending', 'applying');

      -- A bench's own labels by day, for its report (labels today, in the last hour, its last scan).
      CREATE INDEX print_journal_by_bench ON print_journal (bench, environment, queued_at);
    `,
};
