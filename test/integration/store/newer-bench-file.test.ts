/**
 * A bench file a newer station migrated: an older station (a bench rolled back, an older CLI beside
 * an updated app) refuses it, saying which schema version the file has and which it knows, and
 * changes not one byte of it. The file is a real one: made by the station, then marked as migrated
 * one version further, as the next release would.
 */
import Database from 'libsql';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeStation } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';
import { knownSqliteVersion } from '../../../src/main/store/database';
import { StationError } from '../../../src/shared/errors';
import { runCliIn } from '../../support/cli';
import { createTestStation, memoryKeyStore } from '../../support/station';

let made: string;
let copy: string;

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const files = (folder: string) => readdirSync(folder).sort();
/** The data: the file and its write-ahead log (the -shm beside them is SQLite's index of the log, no data). */
const dataHashes = (folder: string) => ['station.db', 'station.db-wal'].map((name) => sha256(join(folder, name)));

beforeEach(async () => {
  // A bench file as the station makes and leaves it: migrated, with a setting written, closed.
  const station = await createTestStation();
  await station.station.dispatcher.dispatch('settings.set', { stationName: 'Bench 7' }, { host: 'web' });
  made = station.dataDir;
  await station.station.close();
  // The copy a newer station migrated one version further.
  copy = mkdtempSync(join(tmpdir(), 'station-newer-'));
  // The file with its write-ahead log, as a copy of a bench's data folder has it.
  for (const name of readdirSync(made).filter((entry) => entry.startsWith('station.db'))) copyFileSync(join(made, name), join(copy, name));
  const newer = new Database(join(copy, 'station.db'));
  newer.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(knownSqliteVersion + 1, 'a migration of the next release', '2026-03-01T08:00:00.000Z');
  // Everything into the file itself, the log emptied: no later close of a connection of this test's has anything left to write.
  newer.pragma('wal_checkpoint(TRUNCATE)');
  newer.close();
});
afterEach(() => {
  rmSync(made, { recursive: true, force: true });
  rmSync(copy, { recursive: true, force: true });
});

describe('a bench file newer than the station', () => {
  it('is refused with both versions, and neither its bytes nor its folder change', async () => {
    const file = join(copy, 'station.db');
    const before = { hashes: dataHashes(copy), modified: statSync(file).mtimeMs, files: files(copy) };
    const opening = composeStation({ dataDir: copy, host: 'web', version: '0.0.0-old', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });
    await expect(opening).rejects.toBeInstanceOf(StationError);
    await expect(opening).rejects.toMatchObject({
      code: 'STORE_NEWER_THAN_STATION',
      message: `This bench's data file is at schema version ${knownSqliteVersion + 1}, newer than this station knows (${knownSqliteVersion}): update this bench. Nothing in the file was changed.`,
      facts: { subject: 'bench-file', storeVersion: knownSqliteVersion + 1, knownVersion: knownSqliteVersion },
    });
    expect({ hashes: dataHashes(copy), modified: statSync(file).mtimeMs, files: files(copy) }).toEqual(before);
  });

  it('makes the command line exit 1 with that message, the file unchanged', async () => {
    const before = dataHashes(copy);
    const outcome = await runCliIn(copy, {}, ['settings', 'set', '--station-name', 'Bench 8']);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(`This bench's data file is at schema version ${knownSqliteVersion + 1}, newer than this station knows (${knownSqliteVersion}): update this bench.`);
    expect(dataHashes(copy)).toEqual(before);
  });

  it('opens as before once the station knows the version (the same file, unbumped)', async () => {
    const station = await composeStation({ dataDir: made, host: 'web', version: '0.0.0-same', logger: createLogger(() => undefined), keyStore: memoryKeyStore() });
    try {
      expect(station.settings.stationName()).toBe('Bench 7');
    } finally {
      await station.close();
    }
  });
});
