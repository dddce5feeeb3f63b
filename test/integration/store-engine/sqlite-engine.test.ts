/**
 * What only the embedded engine has to say: it holds one connection, so a call on the engine from
 * inside its own transaction is refused at once rather than waiting forever, and an engine that
 * shares a handle with repositories not yet ported leaves that handle open when it closes; and it
 * tells another process's writes to its file apart from its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/store/database';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';

describe('SQLite engine', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'station-sqlite-engine-'));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses the engine itself inside its transaction (use the transaction handle), and rolls back', async () => {
    const engine = SqliteEngine.open(join(folder, 'station.db'));
    try {
      await expect(
        engine.transaction(async (tx) => {
          await tx.execute("INSERT INTO settings (scope, key, value, updated_at) VALUES ('station', 'name', '\"Bench 3\"', 'now')");
          await engine.query('SELECT * FROM settings');
        }),
      ).rejects.toThrow('Inside a transaction, use the transaction handle, not the engine.');
      expect(await engine.query('SELECT * FROM settings')).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it('moves its outside-writes version when another connection writes to the file, not when it writes itself', async () => {
    const path = join(folder, 'station.db');
    const engine = SqliteEngine.open(path);
    const other = openDatabase(path);
    try {
      const before = await engine.outsideWritesVersion();
      expect(before).toEqual(expect.any(Number));
      await engine.execute("INSERT INTO settings (scope, key, value, updated_at) VALUES ('station', 'name', '\"Bench 3\"', 'now')");
      expect(await engine.outsideWritesVersion()).toBe(before);
      other.prepare("INSERT INTO settings (scope, key, value, updated_at) VALUES ('station', 'operator', '\"Ana\"', 'now')").run();
      expect(await engine.outsideWritesVersion()).not.toBe(before);
    } finally {
      other.close();
      await engine.close();
    }
  });

  it('leaves a shared handle open when it closes; closes its own', async () => {
    const db = openDatabase(join(folder, 'shared.db'));
    const sharing = new SqliteEngine(db, false);
    await sharing.execute("INSERT INTO settings (scope, key, value, updated_at) VALUES ('station', 'name', '\"Bench 3\"', 'now')");
    await sharing.close();
    expect(db.prepare('SELECT value FROM settings').all()).toEqual([{ value: '"Bench 3"' }]);
    const owning = new SqliteEngine(db);
    await owning.close();
    expect(() => db.prepare('SELECT 1').all()).toThrow();
  });
});
