import type { SchemaMigration } from './schema-migration';

export const secondCopy: SchemaMigration = {
  version: 15,
  name: 'labels the printer may have put out twice',
  sql: () => `
      -- A Zebra reprints a label that paper out, ribbon out or head open cut short (^JZ, "reprint
      -- after error", on at power-up): 'certain' when the printer's label counter showed the cut
      -- copy, 'possible' when it could not say; the fault that cut it (NULL: one copy).
      ALTER TABLE print_journal ADD COLUMN second_copy TEXT;
      ALTER TABLE print_journal ADD COLUMN second_copy_fault TEXT;
    `,
};
