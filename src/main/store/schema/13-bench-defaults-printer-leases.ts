import { environment } from './columns';
import type { Dialect } from '../engine/dialect';
import type { SchemaMigration } from './schema-migration';

/**
 * A bench file's defaults become this bench's: its id is made here when the bench has none yet (a
 * random version-4 UUID, as store/bench-id.ts makes it); a file without defaults is left to
 * bench-id.ts. SQLite only: bench ids live in each bench's own settings, not in the shared store,
 * so a shared store's old defaults cannot be given to a bench (and none was shared yet).
 */
const thisFilesDefaults: Record<Dialect['name'], string> = {
  sqlite: `INSERT INTO settings (scope, key, value, updated_at)
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
      FROM printers p JOIN settings s ON s.scope = 'station' AND s.key = 'benchId' WHERE p.default_for_bundles = 1;`,
  postgres: '',
};

export const benchDefaultsPrinterLeases: SchemaMigration = {
  version: 13,
  name: 'per-bench default printers and printer leases',
  sql: (dialect) => `
      -- A warehouse's benches share the printers, but which one prints a bench's single labels
      -- and bundles is each bench's own choice (bench: its id from its local settings). The
      -- default_for_* columns of printers (and their unique indexes) are no longer read or written:
      -- versions before 13 wrote them; new rows carry 0.
      CREATE TABLE printer_defaults (
        ${environment},
        bench TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('single', 'bundles')),
        printer_id TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (environment, bench, role)
      )${dialect.withoutRowid};

      ${thisFilesDefaults[dialect.name]}

      -- Which bench drives a printer (printer_key: its physical address, shared/zebra/printer-address.ts
      -- printerAddressKey): taken before a bench's queue gets work, renewed while it has work,
      -- released when it goes idle; another bench may take it over once expires_at has passed.
      CREATE TABLE printer_leases (
        ${environment},
        printer_key TEXT NOT NULL,
        printer_id TEXT NOT NULL,
        bench TEXT NOT NULL,
        bench_name TEXT NOT NULL,
        taken_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (environment, printer_key)
      )${dialect.withoutRowid};
    `,
};
