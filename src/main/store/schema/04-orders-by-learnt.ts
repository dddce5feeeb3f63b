import type { SchemaMigration } from './schema-migration';

export const ordersByLearnt: SchemaMigration = {
  version: 4,
  name: 'orders by the day the station learnt of them',
  sql: () => `
      -- The first-run samples (newest first) and the day's bundles read orders by when the station
      -- learnt of them; without this index both scanned every order of the environment.
      CREATE INDEX orders_by_learnt ON orders (environment, created_at);
    `,
};
