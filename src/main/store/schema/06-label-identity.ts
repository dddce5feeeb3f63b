import { environment } from './columns';
import type { SchemaMigration } from './schema-migration';

export const labelIdentity: SchemaMigration = {
  version: 6,
  name: 'one label identity across routes; the identity of the printer at each address',
  sql: (dialect) => `
      -- Identifiers read from the text of a bundle page printed before its order was known (parcel
      -- barcode, order ref, order id, normalised as a scan is). The duplicate guard joins them with
      -- the order index, so the page counts as its order's label once the station learns the order.
      CREATE TABLE print_label_identifiers (
        ${environment},
        entry_id ${dialect.bigint} NOT NULL REFERENCES print_journal (id),
        identifier TEXT NOT NULL,
        PRIMARY KEY (entry_id, identifier)
      )${dialect.withoutRowid};
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
        dpi = ${dialect.jsonNumber('options', 'dpi')},
        print_width_dots = ${dialect.jsonNumber('options', 'printWidthDots')},
        identified_at = ${dialect.jsonText('options', 'checkedAt')};
    `,
};
