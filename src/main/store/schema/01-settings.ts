import type { SchemaMigration } from './schema-migration';

export const settings: SchemaMigration = {
  version: 1,
  name: 'settings',
  sql: () => `
      CREATE TABLE settings (
        scope TEXT NOT NULL,          -- 'station' or an environment name
        key TEXT NOT NULL,
        value TEXT NOT NULL,          -- JSON
        updated_at TEXT NOT NULL,
        PRIMARY KEY (scope, key)
      );
    `,
};
