import type { Dialect } from '../engine/dialect';

/** One version of the schema, written once and rendered for either engine. */
export interface SchemaMigration {
  version: number;
  name: string;
  sql(dialect: Dialect): string;
}

/** A migration rendered for one engine, as its runner applies it. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
