/**
 * The bench's own identity: a random id made once and kept in the bench's local settings
 * (scope 'station', key 'benchId'). A warehouse's benches share one store, and rows a bench is in
 * the middle of (a parcel being posted) carry this id so that each bench, at start, settles only
 * what it left behind itself. The station name cannot serve: leads name benches freely and two
 * may share a name.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { StationDatabase } from './database';
import { SettingsRepository } from './settings-repository';

const BenchIdSchema = z.string().uuid().nullable();

/**
 * This bench's id, made on first use. The app and a CLI command may start together on a fresh
 * bench: the first write wins and both read the winner's id back.
 */
export function benchId(db: StationDatabase): string {
  const settings = new SettingsRepository(db);
  settings.writeIfAbsent('station', 'benchId', randomUUID());
  const id = settings.read('station', 'benchId', BenchIdSchema, null);
  if (id !== null) return id;
  // Edited by hand into something else: a new id (this bench's earlier rows then look like another bench's).
  const fresh = randomUUID();
  settings.write('station', 'benchId', fresh);
  return fresh;
}
