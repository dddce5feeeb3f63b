/**
 * The bench's own identity: a random id made once and kept in the bench's local settings
 * (scope 'station', key 'benchId'). A warehouse's benches share one store, and rows a bench is in
 * the middle of (a parcel being posted) carry this id so that each bench, at start, settles only
 * what it left behind itself. The station name cannot serve: leads name benches freely and two
 * may share a name.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { StationDatabase } from '../store/database';

const BenchIdSchema = z.string().uuid();

/**
 * This bench's id, made on first use. The app and a CLI command may start together on a fresh
 * bench: the first insert wins (ON CONFLICT DO NOTHING) and both read the winner's id back.
 */
export function benchId(db: StationDatabase): string {
  db.prepare(`INSERT INTO settings (scope, key, value, updated_at) VALUES ('station', 'benchId', ?, ?) ON CONFLICT (scope, key) DO NOTHING`).run(
    JSON.stringify(randomUUID()),
    new Date().toISOString(),
  );
  const row = db.prepare(`SELECT value FROM settings WHERE scope = 'station' AND key = 'benchId'`).get() as { value: string } | undefined;
  const parsed = BenchIdSchema.safeParse(row ? JSON.parse(row.value) : null);
  if (parsed.success) return parsed.data;
  // Edited by hand into something else: a new id (this bench's earlier rows then look like another bench's).
  const fresh = randomUUID();
  db.prepare(`UPDATE settings SET value = ?, updated_at = ? WHERE scope = 'station' AND key = 'benchId'`).run(JSON.stringify(fresh), new Date().toISOString());
  return fresh;
}
