import type { SchemaMigration } from './schema-migration';

export const printerSettingChanges: SchemaMigration = {
  version: 16,
  name: 'printer settings changed on purpose',
  sql: (dialect) => `
      -- Who changed which setting of a printer, when, with which bytes, and what the printer reported
      -- before and after (changes: a JSON list of { setting, sent, before, after }); saved = 1 when
      -- the change was also saved as the printer's power-on settings (^JUS).
      CREATE TABLE printer_setting_changes (
        id ${dialect.autoincrementId},
        environment TEXT NOT NULL,
        printer_id TEXT NOT NULL,
        printer_name TEXT NOT NULL,
        operator TEXT NOT NULL,
        station_name TEXT NOT NULL,
        changed_at TEXT NOT NULL,
        changes TEXT NOT NULL,
        saved INTEGER NOT NULL CHECK (saved IN (0, 1))
      );
      CREATE INDEX printer_setting_changes_by_printer ON printer_setting_changes (environment, printer_id, id);
    `,
};
