import Database from 'libsql';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeStation, type Station } from '../../../src/main/composition';
import { createLogger } from '../../../src/main/logging/logger';
import { createRedactor } from '../../../src/main/logging/redaction';
import { saveSupportBundle } from '../../../src/main/support/support-bundle';
import { memoryKeyStore } from '../../support/station';

// What other accounts on the PC could read: the data folder must be the user's alone (POSIX modes).

const folders: string[] = [];
const stations: Station[] = [];
afterEach(async () => {
  for (const station of stations.splice(0)) await station.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const modeOf = (path: string) => `0${(statSync(path).mode & 0o777).toString(8)}`;

async function startStation(dataDir: string) {
  const logLines: string[] = [];
  const station = await composeStation({ dataDir, host: 'web', version: '0', logger: createLogger((line) => logLines.push(line)), keyStore: memoryKeyStore() });
  stations.push(station);
  return { station, logLines };
}

describe.skipIf(process.platform === 'win32')('the data folder and its files', () => {
  it('are created for this user only: folder 0700, station.db and its -wal and -shm 0600', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'station-perms-'));
    folders.push(parent);
    chmodSync(parent, 0o755);
    const dataDir = join(parent, 'Packing Station');
    const { station } = await startStation(dataDir);
    // A write, so the write-ahead log and its index certainly exist while the station runs.
    await station.dispatcher.dispatch('settings.set', { stationName: 'Bench 9' }, { host: 'web' });

    expect(modeOf(dataDir)).toBe('0700');
    for (const file of ['station.db', 'station.db-wal', 'station.db-shm']) {
      expect(existsSync(join(dataDir, file)), file).toBe(true);
      expect(modeOf(join(dataDir, file)), file).toBe('0600');
    }
  });

  it('left readable by an earlier version are narrowed at start, and the log says what was fixed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'station-perms-'));
    folders.push(dataDir);
    const outside = mkdtempSync(join(tmpdir(), 'station-perms-outside-'));
    folders.push(outside);
    // What an earlier version left: a database made without care for its mode, logs, a bundle.
    const old = new Database(join(dataDir, 'station.db'));
    old.pragma('journal_mode = WAL');
    old.exec('CREATE TABLE leftover (x)');
    old.close();
    mkdirSync(join(dataDir, 'logs'));
    writeFileSync(join(dataDir, 'logs', 'station.log'), 'earlier lines\n');
    writeFileSync(join(dataDir, 'packing-station-support-bench-20260301-0800.zip'), 'zip');
    writeFileSync(join(outside, 'shared.txt'), 'not the station’s');
    symlinkSync(join(outside, 'shared.txt'), join(dataDir, 'linked.txt'));
    for (const path of [dataDir, join(dataDir, 'logs')]) chmodSync(path, 0o755);
    for (const path of [join(dataDir, 'station.db'), join(dataDir, 'logs', 'station.log'), join(dataDir, 'packing-station-support-bench-20260301-0800.zip'), join(outside, 'shared.txt')]) chmodSync(path, 0o644);

    const { logLines } = await startStation(dataDir);

    expect(modeOf(dataDir)).toBe('0700');
    expect(modeOf(join(dataDir, 'logs'))).toBe('0700');
    for (const file of ['station.db', 'station.db-wal', 'station.db-shm', 'logs/station.log', 'packing-station-support-bench-20260301-0800.zip']) {
      expect(modeOf(join(dataDir, file)), file).toBe('0600');
    }
    // A link's target is not the station's file: it is left as it was.
    expect(modeOf(join(outside, 'shared.txt'))).toBe('0644');
    const fixes = logLines.filter((line) => line.includes('data folder permissions narrowed'));
    for (const path of [dataDir, join(dataDir, 'station.db'), join(dataDir, 'logs', 'station.log')]) {
      expect(fixes.some((line) => line.includes(JSON.stringify(path)) && line.includes('"from":"0')), path).toBe(true);
    }

    // A second start finds nothing to fix.
    const again = await startStation(dataDir);
    expect(again.logLines.filter((line) => line.includes('permissions narrowed'))).toEqual([]);
  });

  it('a support bundle saved over an older, readable file is the user’s alone', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'station-perms-'));
    folders.push(folder);
    const file = join(folder, 'bundle.zip');
    writeFileSync(file, 'old');
    chmodSync(file, 0o644);
    await saveSupportBundle(file, { product: 'Packing Station', redactor: createRedactor(), parts: [] });
    expect(modeOf(file)).toBe('0600');
  });
});
