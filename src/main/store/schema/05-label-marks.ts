import type { SchemaMigration } from './schema-migration';

export const labelMarks: SchemaMigration = {
  version: 5,
  name: 'what the printer said when each label reached it',
  sql: (dialect) => `
      -- Per label sent to a Zebra that answers: the printer's serial number and the label counter
      -- the label was due at, so a run resumed after the station stopped can tell a printer that
      -- carried on from one that restarted (and lost its buffer) or was swapped.
      CREATE TABLE print_label_marks (
        entry_id ${dialect.bigint} PRIMARY KEY REFERENCES print_journal (id) ON DELETE CASCADE,
        sent_at_ms ${dialect.bigint} NOT NULL,   -- wall-clock ms when the printer confirmed it had the label
        serial TEXT,                   -- device.unique_id then; NULL when not known
        odometer_target ${dialect.bigint},       -- odometer.total_label_count once this label has printed; NULL when not known
        updated_at TEXT NOT NULL
      );
    `,
};
