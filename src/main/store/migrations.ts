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
];
