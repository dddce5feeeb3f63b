import { environment } from './columns';
import type { SchemaMigration } from './schema-migration';

export const printersRunsJournal: SchemaMigration = {
  version: 3,
  name: 'printers, print runs and the print journal',
  sql: (dialect) => `
      -- Printers of one environment (the sandbox's virtual Zebra is not a live printer).
      -- kind: 'zebra-network' (raw TCP 9100), 'os-raw' (CUPS raw / Windows spooler RAW),
      -- 'zebra-usb' (direct USB), 'os-pdf' (an OS queue that takes PDFs).
      CREATE TABLE printers (
        ${environment},
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        address TEXT NOT NULL,        -- JSON, per kind: {host, port} | {queue} | {vendorId, productId, serial}
        orientation TEXT NOT NULL CHECK (orientation IN ('landscape', 'portrait')),
        default_for_single INTEGER NOT NULL DEFAULT 0 CHECK (default_for_single IN (0, 1)),
        default_for_bundles INTEGER NOT NULL DEFAULT 0 CHECK (default_for_bundles IN (0, 1)),
        options TEXT NOT NULL DEFAULT '{}',   -- JSON: checked dpi, print width, formats allowed in the buffer, ...
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (environment, id)
      );
      CREATE UNIQUE INDEX printers_one_single_default ON printers (environment) WHERE default_for_single = 1;
      CREATE UNIQUE INDEX printers_one_bundles_default ON printers (environment) WHERE default_for_bundles = 1;

      -- A run: one scan-and-print, a shift-start bundle run, or a test print.
      CREATE TABLE print_runs (
        id TEXT PRIMARY KEY,
        ${environment},
        kind TEXT NOT NULL CHECK (kind IN ('single', 'bundles', 'test', 'retry')),
        printer_id TEXT NOT NULL,
        operator TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'cancelled', 'finished')),
        pause_reason TEXT,
        options TEXT NOT NULL DEFAULT '{}',   -- JSON: selected bundles, reverse order, ...
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX print_runs_unfinished ON print_runs (environment, state) WHERE state IN ('running', 'paused');

      -- One row per label: queued -> fetched -> sent -> printed, or failed / uncertain with a reason.
      -- A label is never resent while a row for it is 'sent' or 'uncertain' without a decision.
      CREATE TABLE print_journal (
        id ${dialect.autoincrementId},
        ${environment},
        run_id TEXT REFERENCES print_runs (id),
        position INTEGER,             -- place in the run, from 0: a resume restarts at the first unsent
        printer_id TEXT NOT NULL,
        operator TEXT NOT NULL,
        order_id TEXT,
        bundle_id TEXT,
        bundle_position INTEGER,      -- "2 of 5": position (from 1) and count within the bundle
        bundle_count INTEGER,
        format TEXT NOT NULL CHECK (format IN ('zpl', 'pdf', 'gfa')),
        state TEXT NOT NULL CHECK (state IN ('queued', 'fetched', 'sent', 'printed', 'failed', 'uncertain')),
        reason TEXT,                  -- why it failed or is uncertain; for a reprint, who asked and why
        reprint_of ${dialect.bigint} REFERENCES print_journal (id),
        decided_by TEXT,              -- the operator who settled an uncertain label (printed / print again)
        document_sha256 TEXT,
        queued_at TEXT NOT NULL,
        fetched_at TEXT,
        sent_at TEXT,
        printed_at TEXT,
        failed_at TEXT,
        uncertain_at TEXT,
        decided_at TEXT,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX print_journal_by_run ON print_journal (run_id, position);
      CREATE INDEX print_journal_by_order ON print_journal (environment, order_id, state);
      CREATE INDEX print_journal_unsettled ON print_journal (environment, state) WHERE state IN ('queued', 'fetched', 'sent', 'uncertain');
    `,
};
