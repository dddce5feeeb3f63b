import { environment } from './columns';
import type { SchemaMigration } from './schema-migration';

export const createdWeights: SchemaMigration = {
  version: 17,
  name: 'weights orders were created with',
  sql: (dialect) => `
      -- The weight (grams) this station sent when it created an order: from the shop's export, the
      -- spreadsheet upload or the scale at the bench. The handover list uses it while no webhook
      -- has told the service's own weight.
      CREATE TABLE created_weights (
        ${environment},
        order_id TEXT NOT NULL,
        weight_grams INTEGER NOT NULL CHECK (weight_grams > 0),
        created_at TEXT NOT NULL,
        PRIMARY KEY (environment, order_id)
      )${dialect.withoutRowid};
    `,
};
