/**
 * The IT admin puts a bench on the warehouse's shared store from the command line: the address is
 * checked, the password read from standard input goes into the keychain (here one in memory) and
 * never into the settings, the connection is tested against the run's private PostgreSQL server,
 * and `settings set store local` goes back.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { runCliIn } from '../../support/cli';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-server';
import { memoryKeyStore } from '../../support/station';
import { memoryStorePasswords, openStationIn, storeAddressOf } from '../../support/shared-store';

let dataDir: string;
let database: TestDatabase;
let passwords: ReturnType<typeof memoryStorePasswords>;
const cli = (argv: string[], stdin?: string) => runCliIn(dataDir, { keyStore: memoryKeyStore(), storePasswords: passwords, storeHealth: { probeIntervalMs: 200 } }, argv, stdin);

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'station-store-cli-'));
  database = await createTestDatabase(inject('postgres'));
  passwords = memoryStorePasswords();
});
afterEach(async () => {
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('settings set/get/test store', () => {
  it('refuses an address with a password in it, or that is not postgres://, and keeps the bench local', async () => {
    const { info } = database;
    const withPassword = await cli(['settings', 'set', 'store', `postgres://${info.user}:${info.password}@127.0.0.1:${info.port}/${info.database}`], '');
    expect(withPassword.code).toBe(1);
    expect(withPassword.stderr).toContain('it contains a password');
    expect(withPassword.stderr).toContain('[INVALID_INPUT]');
    const notPostgres = await cli(['settings', 'set', 'store', 'mysql://station@db/packing'], 'secret');
    expect(notPostgres.code).toBe(1);
    expect(notPostgres.stderr).toContain('[INVALID_INPUT]');
    const badTls = await cli(['settings', 'set', 'store', storeAddressOf(info), '--tls', 'sometimes'], 'secret');
    expect(badTls.code).toBe(2);
    expect(passwords.entries.size).toBe(0);
    expect((await cli(['settings', 'get', 'store'])).stdout).toContain('store: local (this bench only)');
  });

  it('keeps the address in the settings and the password from standard input in the keychain; --test reports the schema version', async () => {
    const { info } = database;
    const set = await cli(['settings', 'set', 'store', `postgres://${info.user}@localhost:${info.port}/${info.database}`, '--tls', 'disable', '--unverified-server', '--test'], `${info.password}\n`);
    // The explicit choice of an unchecked server (sslmode=disable), said back once.
    expect(set.stderr.trim().split('\n')).toEqual([expect.stringContaining('the station does not check who answers at this address; whoever does receives the password')]);
    expect(set.code).toBe(0);
    const address = `postgres://${info.user}@localhost:${info.port}/${info.database}?sslmode=disable`;
    expect(set.stdout).toContain(`store: ${address}`);
    expect(set.stdout).toContain('password: stored in the OS keychain');
    expect(set.stdout).toContain('The new store is used from the next start of the station.');
    // A fresh database: reachable, nothing set up yet (the test changes nothing).
    expect(set.stdout).toContain(`localhost:${info.port}: reachable, schema version 0`);
    expect([...passwords.entries]).toEqual([[`store-password:postgres://${info.user}@localhost:${info.port}/${info.database}`, info.password]]);
    expect(readFileSync(join(dataDir, 'station.db')).toString('latin1')).not.toContain(info.password);

    const got = await cli(['settings', 'get', 'store']);
    expect(got.code).toBe(0);
    expect(got.stdout).not.toContain(info.password);
    expect(got.stdout).toContain(`store: ${address}`);
    // This run opened the shared store: the station brought it up to date at start.
    expect(got.stdout).toContain(`in use now: ${address} (online)`);
    const tested = await cli(['settings', 'test', 'store']);
    expect(tested.stdout).toMatch(new RegExp(`localhost:${info.port}: reachable, schema version [1-9]\\d*`));
  });

  it('says why a connection test failed: a wrong password, nothing listening', async () => {
    const { info } = database;
    const wrong = await cli(['settings', 'test', 'store', storeAddressOf(info), '--unverified-server'], 'not-the-password\n');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`refused the password of user ${info.user}`);
    const closed = await cli(['settings', 'test', 'store', `postgres://${info.user}@127.0.0.1:1/${info.database}?sslmode=disable`, '--unverified-server'], `${info.password}\n`);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toContain('cannot be reached');
    expect(closed.stderr).toContain('[STORE_UNAVAILABLE]');
  });

  it('goes back to local and forgets the password entered for the shared store', async () => {
    const { info } = database;
    expect((await cli(['settings', 'set', 'store', storeAddressOf(info), '--unverified-server'], info.password)).code).toBe(0);
    expect(passwords.entries.size).toBe(1);
    const local = await cli(['settings', 'set', 'store', 'local']);
    expect(local.code).toBe(0);
    expect(local.stdout).toContain('store: local (this bench only)');
    expect(passwords.entries.size).toBe(0);
  });

  it('uses the stored password only with the saved address: another encryption for the same server needs it typed again', async () => {
    const { info } = database;
    expect((await cli(['settings', 'set', 'store', storeAddressOf(info), '--unverified-server'], info.password)).code).toBe(0);
    // The saved address, no password typed: the stored one is used.
    expect((await cli(['settings', 'test', 'store', storeAddressOf(info)], '')).stdout).toContain('reachable, schema version');
    const otherTls = storeAddressOf(info).replace('sslmode=disable', 'sslmode=require');
    const tested = await cli(['settings', 'test', 'store', otherTls, '--unverified-server'], '');
    expect(tested.code).toBe(1);
    expect(tested.stderr).toContain('[NOT_CONFIGURED]');
    const saved = await cli(['settings', 'set', 'store', storeAddressOf(info), '--tls', 'require', '--unverified-server'], '');
    expect(saved.code).toBe(1);
    expect(saved.stderr).toContain('[NOT_CONFIGURED]');
    expect((await cli(['settings', 'get', 'store'])).stdout).toContain(`store: ${storeAddressOf(info)}`);
  });

  it('refuses a shared store with no password given and none stored', async () => {
    const refused = await cli(['settings', 'set', 'store', storeAddressOf(database.info), '--unverified-server'], '');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('[NOT_CONFIGURED]');
    expect((await cli(['settings', 'get', 'store'])).stdout).toContain('store: local');
  });

  it('reads a store address edited by hand into something unusable as local, and the bench still opens', async () => {
    const station = await openStationIn(dataDir, { storePasswords: passwords });
    station.services.db
      .prepare("INSERT INTO settings (scope, key, value, updated_at) VALUES ('station', 'store', ?, '2026-11-24T06:00:00.000Z')")
      .run(JSON.stringify({ kind: 'postgres', address: 'postgres://station:secret@db.warehouse.lan/packing' }));
    await station.close();
    const got = await cli(['settings', 'get', 'store']);
    expect(got.code).toBe(0);
    expect(got.stdout).toContain('store: local (this bench only)');
    expect(got.stdout).toContain('in use now: local (local)');
  });
});
