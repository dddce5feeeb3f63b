/**
 * The store's schema: versioned migrations, one per file, applied in order on both engines and
 * never edited once released (a change to the schema is a new file at the end of the list). Each
 * is written once in SQL both engines read and rendered for SQLite or PostgreSQL through the
 * dialect table (dialect.ts); text for one engine alone appears only where that engine needs it,
 * beside the reason. Every row that belongs to an environment says which.
 */
import type { Dialect } from '../engine/dialect';
import { settings } from './01-settings';
import { ordersWebhooksImports } from './02-orders-webhooks-imports';
import { printersRunsJournal } from './03-printers-runs-journal';
import { ordersByLearnt } from './04-orders-by-learnt';
import { labelMarks } from './05-label-marks';
import { labelIdentity } from './06-label-identity';
import { interruptedImportsWebhookConflicts } from './07-interrupted-imports-webhook-conflicts';
import { voidsPullNoticesTimeline } from './08-voids-pull-notices-timeline';
import { toShipCreationLedger } from './09-to-ship-creation-ledger';
import { uploads } from './10-uploads';
import { postingBench } from './11-posting-bench';
import { firstPrintGuard } from './12-first-print-guard';
import { benchDefaultsPrinterLeases } from './13-bench-defaults-printer-leases';
import { localOnlyLabels } from './14-local-only-labels';
import { secondCopy } from './15-second-copy';
import { printerSettingChanges } from './16-printer-setting-changes';
import { createdWeights } from './17-created-weights';
import { benchFloor } from './18-bench-floor';
import type { Migration, SchemaMigration } from './schema-migration';

export type { Migration, SchemaMigration } from './schema-migration';
export { postgres, sqlite, type Dialect } from '../engine/dialect';

const schema: readonly SchemaMigration[] = [
  settings,
  ordersWebhooksImports,
  printersRunsJournal,
  ordersByLearnt,
  labelMarks,
  labelIdentity,
  interruptedImportsWebhookConflicts,
  voidsPullNoticesTimeline,
  toShipCreationLedger,
  uploads,
  postingBench,
  firstPrintGuard,
  benchDefaultsPrinterLeases,
  localOnlyLabels,
  secondCopy,
  printerSettingChanges,
  createdWeights,
  benchFloor,
];

/** Every migration, in order, as the given engine's runner applies it. */
export function migrationsFor(dialect: Dialect): readonly Migration[] {
  return schema.map(({ version, name, sql }) => ({ version, name, sql: sql(dialect) }));
}
