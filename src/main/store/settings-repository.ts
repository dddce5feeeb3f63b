import type { z } from 'zod';
import type { StationDatabase } from './database';

/**
 * Settings as typed JSON values per scope ('station' or an environment). A stored value that no
 * longer parses (an older version wrote it, or it was edited by hand) falls back to the default
 * rather than stopping the station.
 */
export class SettingsRepository {
  // Prepared once: settings are read several times per scan (the environment, the operator).
  private readonly select;

  constructor(private readonly db: StationDatabase) {
    this.select = db.prepare('SELECT value FROM settings WHERE scope = ? AND key = ?');
  }

  read<S extends z.ZodType>(scope: string, key: string, schema: S, fallback: z.output<S>): z.output<S> {
    const row = this.select.get(scope, key) as { value: string } | undefined;
    if (!row) return fallback;
    try {
      const parsed = schema.safeParse(JSON.parse(row.value));
      return parsed.success ? parsed.data : fallback;
    } catch {
      return fallback;
    }
  }

  /** Runs `work` as one transaction, so a change of several settings lands whole or not at all. */
  transaction(work: () => void): void {
    this.db.transaction(work)();
  }

  /**
   * Writes the value only when the key has none yet. Two processes starting together (the app and
   * a CLI command) may both try: the first insert wins and both then read the winner's value.
   */
  writeIfAbsent(scope: string, key: string, value: unknown): void {
    this.db.prepare('INSERT INTO settings (scope, key, value, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (scope, key) DO NOTHING').run(scope, key, JSON.stringify(value), new Date().toISOString());
  }

  write(scope: string, key: string, value: unknown): void {
    this.db
      .prepare(
        `INSERT INTO settings (scope, key, value, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      )
      .run(scope, key, JSON.stringify(value), new Date().toISOString());
  }
}
