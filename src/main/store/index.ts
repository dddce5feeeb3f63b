/**
 * The store's one entry: everything about storage the rest of the station uses (docs/store.md).
 * Its engines (engine/: one StoreEngine interface; SQLite for a bench's file, PostgreSQL for a
 * warehouse's shared store), its schema (schema/), choosing and opening the store, its health, and
 * the bench's own records beside it (its id, its settings, its copy of the warehouse's orders).
 * The rest of src/main imports from here only (a lint rule, eslint.config.js).
 */
export type { Dialect } from './engine/dialect';
export type { Row, SqlValue, StoreEngine, StoreSession, StoreTransaction, Subscription, SubscriptionHandlers } from './engine/store-engine';
export { SqliteEngine } from './engine/sqlite-engine';
export { parseStoreAddress } from './engine/postgres-config';
export { retryLostRace } from './engine/retry-lost-race';
export { createKeychainStorePasswords, type StorePasswords } from './engine/store-password';
export { benchId } from './bench-id';
export { openChosenStore, type ChosenStore, type StoreHealthOptions } from './chosen-store';
export { openDatabase, type StationDatabase } from './database';
export { startOrderCopy, type OrderCopyLoop } from './order-copy';
export { PRIVATE_FILE_MODE, securePrivateFolder } from './private-files';
export { SettingsRepository } from './settings-repository';
export { benchFileBeside, createStorePlace, type HeldPlace, type JournalPlace, type LocalOnlyMark, type StorePlace } from './store-place';
export { openSharedStore, storePasswordVariable } from './shared-store';
export { createStoreChoice, type StoreChoiceService } from './store-choice';
export { StoreSettingValueSchema, type StoreSettingValue } from './store-setting';
export { isUnreachable, localStoreHealth, storeOfflineError, type StoreHealth } from './store-health';
export { createWalFlush, type FlushToDisk } from './wal-flush';
