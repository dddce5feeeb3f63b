import type { SchemaMigration } from './schema-migration';

export const postingBench: SchemaMigration = {
  version: 11,
  name: 'the bench posting a parcel',
  sql: () => `
      -- Which bench is posting a parcel (a stable id of its own, from its local settings), next to
      -- owner (the process). At start a bench settles only its own interrupted POSTs: on a shared
      -- store another bench's 'posting' row is a POST in flight. NULL: written before version 11.
      ALTER TABLE creation_ledger ADD COLUMN bench TEXT;
    `,
};
