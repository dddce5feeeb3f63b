/**
 * Versioned schema migrations, applied in order and never edited once released: a change to
 * the schema is a new entry at the end. Every row that belongs to an environment says which.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'settings',
    sql: `
      CREATE TABLE settings (
        scope TEXT NOT NULL,          -- 'station' or an environment name
        key TEXT NOT NULL,
        value TEXT NOT NULL,          -- JSON
        updated_at TEXT NOT NULL,
        PRIMARY KEY (scope, key)
      );
    `,
  },
  {
    version: 2,
    name: 'order index, webhook events, manifest imports',
    sql: `
      -- One row per order the station knows, per environment. Identifiers are stored normalised
      -- exactly as a scan is (src/shared/scan.ts), so a scan compares equal with '='.
      CREATE TABLE orders (
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
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
      ) WITHOUT ROWID;
      CREATE INDEX orders_by_ref ON orders (environment, order_ref) WHERE order_ref IS NOT NULL;
      CREATE INDEX orders_by_barcode ON orders (environment, barcode) WHERE barcode IS NOT NULL;
      CREATE INDEX orders_by_bundle ON orders (environment, bundle_id) WHERE bundle_id IS NOT NULL;

      -- Webhook status events already seen and what became of them. One event is one order id +
      -- status + the service's time of it: a re-delivery repeats all three, while a status the
      -- order really enters twice (a second delivery attempt) has a later time.
      CREATE TABLE webhook_events (
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
        order_id TEXT NOT NULL,
        status TEXT NOT NULL,
        event_updated_at TEXT NOT NULL,
        previous_status TEXT,
        outcome TEXT NOT NULL CHECK (outcome IN ('applied', 'same', 'ignored-backward', 'ignored-terminal')),
        received_at TEXT NOT NULL,
        PRIMARY KEY (environment, order_id, status, event_updated_at)
      ) WITHOUT ROWID;

      -- One row per manifest import: the report a lead can look back on.
      CREATE TABLE manifest_imports (
        id TEXT PRIMARY KEY,
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
        file_name TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('csv', 'xlsx')),
        state TEXT NOT NULL CHECK (state IN ('running', 'finished', 'failed')),
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
  },
  {
    version: 3,
    name: 'printers, print runs and the print journal',
    sql: `
      -- Printers of one environment (the sandbox's virtual Zebra is not a live printer).
      -- kind: 'zebra-network' (raw TCP 9100), 'os-raw' (CUPS raw / Windows spooler RAW),
      -- 'zebra-usb' (direct USB), 'os-pdf' (an OS queue that takes PDFs).
      CREATE TABLE printers (
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
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
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
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
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
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
        reprint_of INTEGER REFERENCES print_journal (id),
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
  },
  {
    version: 4,
    name: 'orders by the day the station learnt of them',
    sql: `
      -- The first-run samples (newest first) and the day's bundles read orders by when the station
      -- learnt of them; without this index both scanned every order of the environment.
      CREATE INDEX orders_by_learnt ON orders (environment, created_at);
    `,
  },
  {
    version: 5,
    name: 'what the printer said when each label reached it',
    sql: `
      -- Per label sent to a Zebra that answers: the printer's serial number and the label counter
      -- the label was due at, so a run resumed after the station stopped can tell a printer that
      -- carried on from one that restarted (and lost its buffer) or was swapped.
      CREATE TABLE print_label_marks (
        entry_id INTEGER PRIMARY KEY REFERENCES print_journal (id) ON DELETE CASCADE,
        sent_at_ms INTEGER NOT NULL,   -- wall-clock ms when the printer confirmed it had the label
        serial TEXT,                   -- device.unique_id then; NULL when not known
        odometer_target INTEGER,       -- odometer.total_label_count once this label has printed; NULL when not known
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'one label identity across routes; the identity of the printer at each address',
    sql: `
      -- Identifiers read from the text of a bundle page printed before its order was known (parcel
      -- barcode, order ref, order id, normalised as a scan is). The duplicate guard joins them with
      -- the order index, so the page counts as its order's label once the station learns the order.
      CREATE TABLE print_label_identifiers (
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
        entry_id INTEGER NOT NULL REFERENCES print_journal (id),
        identifier TEXT NOT NULL,
        PRIMARY KEY (entry_id, identifier)
      ) WITHOUT ROWID;
      CREATE INDEX print_label_identifiers_by_identifier ON print_label_identifiers (environment, identifier);
      -- Planning a bundle run reads the bundle's earlier pages (bundle + page guard).
      CREATE INDEX print_journal_by_bundle ON print_journal (environment, bundle_id, bundle_position) WHERE bundle_id IS NOT NULL;

      -- What the printer at the address said it is when a connection last reached it: its serial
      -- number (device.unique_id), resolution and print width. The label route (native ZPL, a ^GFA
      -- image at the printer's resolution, or refused) follows them.
      ALTER TABLE printers ADD COLUMN serial_number TEXT;
      ALTER TABLE printers ADD COLUMN dpi INTEGER;
      ALTER TABLE printers ADD COLUMN print_width_dots INTEGER;
      ALTER TABLE printers ADD COLUMN identified_at TEXT;
      UPDATE printers SET
        dpi = json_extract(options, '$.dpi'),
        print_width_dots = json_extract(options, '$.printWidthDots'),
        identified_at = json_extract(options, '$.checkedAt');
    `,
  },
  {
    version: 7,
    name: 'interrupted imports and webhook conflicts',
    sql: `
      -- An import can now end 'interrupted' (the station stopped while it ran: found at the next
      -- start), and says which process ran it, so a start never takes another live process's
      -- import for a dead one. SQLite cannot change a CHECK, so the table is rebuilt.
      CREATE TABLE manifest_imports_v7 (
        id TEXT PRIMARY KEY,
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
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
      CREATE INDEX manifest_imports_by_environment ON manifest_imports (environment, started_at);

      -- Webhook events set before a lead: an identifier that would change (a barcode moving to
      -- another order), a status after a terminal one, a time in the future (all three not
      -- applied), or an order closed before it left the station (applied, so a forged
      -- cancellation is seen). Kept as evidence; one row per event and kind.
      CREATE TABLE webhook_conflicts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
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
  },
  {
    version: 8,
    name: 'voided labels, pull-this-parcel notices and the status timeline',
    sql: `
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
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
        order_id TEXT NOT NULL,
        status TEXT NOT NULL,           -- cancelled, rejected, address_not_found or error
        event_updated_at TEXT NOT NULL,
        journal_id INTEGER,             -- the label this station printed
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
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
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
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 9,
    name: 'orders to ship and the creation ledger',
    sql: `
      -- Orders the shop wants shipped that are not created at the service yet (imported from the
      -- shop's or WMS's export, spreadsheet-upload column names). One row per order reference.
      CREATE TABLE to_ship_orders (
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
        order_ref TEXT NOT NULL,
        shipment TEXT NOT NULL,       -- JSON: location, address, recipient, parcels, pudoId, measures
        imported_from TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (environment, order_ref)
      ) WITHOUT ROWID;

      -- One row per intended order (order reference + parcel number), written before its POST.
      -- intended -> posting -> created | rejected | unknown. 'unknown' is never posted again
      -- automatically: a status webhook carrying service_ref, or a lead's decision, settles it.
      CREATE TABLE creation_ledger (
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
        order_ref TEXT NOT NULL,
        parcel INTEGER NOT NULL CHECK (parcel >= 1),
        parcel_count INTEGER NOT NULL CHECK (parcel_count >= 1),
        service_ref TEXT NOT NULL,    -- the orderRef sent to the service for this parcel
        state TEXT NOT NULL CHECK (state IN ('intended', 'posting', 'created', 'rejected', 'unknown')),
        order_id TEXT,
        barcode TEXT,
        bundle_id TEXT,
        reason TEXT,
        decided_by TEXT,              -- the lead who settled an unknown parcel
        owner TEXT,                   -- the process that is posting (a second process never posts the same parcel)
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (environment, order_ref, parcel)
      ) WITHOUT ROWID;
      CREATE UNIQUE INDEX creation_ledger_by_service_ref ON creation_ledger (environment, service_ref);
    `,
  },
  {
    version: 10,
    name: 'spreadsheet uploads',
    sql: `
      -- One spreadsheet upload: its file, the locations it may create for, where it stands.
      CREATE TABLE uploads (
        id TEXT PRIMARY KEY,
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
        file_name TEXT NOT NULL,
        columns TEXT NOT NULL,        -- JSON: the file's header, in order (the report repeats it)
        locations TEXT NOT NULL,      -- JSON: the location ids rows may name
        state TEXT NOT NULL CHECK (state IN ('previewed', 'running', 'paused', 'cancelled', 'finished')),
        printer_id TEXT,              -- print the labels on this printer once every row is settled
        print_run_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) WITHOUT ROWID;
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
      ) WITHOUT ROWID;
      CREATE INDEX upload_rows_by_state ON upload_rows (upload_id, state, row_number);
    `,
  },
  {
    version: 11,
    name: 'the bench posting a parcel',
    sql: `
      -- Which bench is posting a parcel (a stable id of its own, from its local settings), next to
      -- owner (the process). At start a bench settles only its own interrupted POSTs: on a shared
      -- store another bench's 'posting' row is a POST in flight. NULL: written before version 11.
      ALTER TABLE creation_ledger ADD COLUMN bench TEXT;
    `,
  },
  {
    version: 12,
    name: 'the bench on print runs and labels; one live first print per order or page',
    sql: `
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
  },
  {
    version: 13,
    name: 'per-bench default printers and printer leases',
    sql: `
      -- A warehouse's benches share the printers, but which one prints a bench's single labels
      -- and bundles is each bench's own choice (bench: its id from its local settings). The
      -- default_for_* columns of printers (and their unique indexes) are no longer read or written:
      -- versions before 13 wrote them; new rows carry 0.
      CREATE TABLE printer_defaults (
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
        bench TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('single', 'bundles')),
        printer_id TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (environment, bench, role)
      ) WITHOUT ROWID;

      -- This file's defaults become this bench's: its id is made here when the bench has none yet
      -- (a random version-4 UUID, as settings/bench-id.ts makes it); a file without defaults is
      -- left to bench-id.ts.
      INSERT INTO settings (scope, key, value, updated_at)
      SELECT 'station', 'benchId',
        '"' || lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-'
          || substr('89ab', 1 + abs(random() % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))) || '"',
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
      WHERE EXISTS (SELECT 1 FROM printers WHERE default_for_single = 1 OR default_for_bundles = 1)
      ON CONFLICT (scope, key) DO NOTHING;
      INSERT INTO printer_defaults (environment, bench, role, printer_id, updated_at)
      SELECT p.environment, json_extract(s.value, '$'), 'single', p.id, p.updated_at
      FROM printers p JOIN settings s ON s.scope = 'station' AND s.key = 'benchId' WHERE p.default_for_single = 1;
      INSERT INTO printer_defaults (environment, bench, role, printer_id, updated_at)
      SELECT p.environment, json_extract(s.value, '$'), 'bundles', p.id, p.updated_at
      FROM printers p JOIN settings s ON s.scope = 'station' AND s.key = 'benchId' WHERE p.default_for_bundles = 1;

      -- Which bench drives a printer (printer_key: its physical address, shared/zebra/printer-address.ts
      -- printerAddressKey): taken before a bench's queue gets work, renewed while it has work,
      -- released when it goes idle; another bench may take it over once expires_at has passed.
      CREATE TABLE printer_leases (
        environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live')),
        printer_key TEXT NOT NULL,
        printer_id TEXT NOT NULL,
        bench TEXT NOT NULL,
        bench_name TEXT NOT NULL,
        taken_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (environment, printer_key)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 14,
    name: "a bench's local-only labels and their merge into the shared journal",
    sql: `
      -- Printed while the warehouse's shared store was offline, on a lead's word: the reason and
      -- the lead, on the bench's own file (NULL: an ordinary label).
      ALTER TABLE print_journal ADD COLUMN local_only TEXT;
      ALTER TABLE print_journal ADD COLUMN local_only_by TEXT;
      -- On the bench's file: when the label went into the shared journal (NULL: not yet).
      ALTER TABLE print_journal ADD COLUMN merged_at TEXT;
      -- In the shared journal: the bench id and local row id it came from (a second merge after
      -- a crash finds it), and the live print its order already had (printed twice while offline).
      ALTER TABLE print_journal ADD COLUMN local_ref TEXT;
      ALTER TABLE print_journal ADD COLUMN duplicate_of INTEGER;
      CREATE UNIQUE INDEX print_journal_by_local_ref ON print_journal (local_ref) WHERE local_ref IS NOT NULL;
      CREATE INDEX print_journal_unmerged ON print_journal (id) WHERE local_only IS NOT NULL AND merged_at IS NULL;
      CREATE INDEX print_journal_offline_duplicates ON print_journal (environment, id) WHERE duplicate_of IS NOT NULL;
      -- Each bench copies the orders changed since its last copy into its own file, for scans while
      -- the shared store is offline (orders/order-copy.ts): read in pages by change time.
      CREATE INDEX orders_by_change ON orders (updated_at, environment, order_id);
    `,
  },
  {
    version: 15,
    name: 'labels the printer may have put out twice',
    sql: `
      -- A Zebra reprints a label that paper out, ribbon out or head open cut short (^JZ, "reprint
      -- after error", on at power-up): 'certain' when the printer's label counter showed the cut
      -- copy, 'possible' when it could not say; the fault that cut it (NULL: one copy).
      ALTER TABLE print_journal ADD COLUMN second_copy TEXT;
      ALTER TABLE print_journal ADD COLUMN second_copy_fault TEXT;
    `,
  },
];
